// Package render draws a game as one side sees it into a PNG: a ruleset's board and pieces
// inside a shared frame (title strip, panels, legend).
//
// A ruleset's picture implements Picture; the frame, fonts and PNG encoding are common, so an
// open-table ruleset (a scaled sea with ship bases, squadron blocks, headings and range
// bands) adds only its own Draw. Nothing here reads the store or the clock: the caller hands
// in the view, and the same view draws the same pixels.
package render
