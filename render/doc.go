// Package render draws a game as one side sees it into a PNG: a ruleset's board and pieces
// inside a shared frame (title strip, panels, legend).
//
// A ruleset's map implements Map in a package of its own (render/lepantomap), which makes the
// Picture of a game; the frame, fonts and PNG encoding are common, so an open-table ruleset (a
// scaled sea with ship bases, squadron blocks, headings and range bands) adds only its own
// Draw. cmd/navarch's ruleset list pairs each ruleset with its map, and a ruleset without one
// gives ErrNoMap. Nothing here reads the store or the clock: the caller hands in the game, and
// the same game draws the same pixels.
package render
