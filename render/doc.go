// Package render draws a game as one side sees it into a PNG: a ruleset's board and pieces
// inside a shared frame (title strip, panels, legend), with shared drawing primitives.
//
// A ruleset's map lives in a package of its own (render/lepantomap, render/medievalmap,
// render/oinavarcoimap, render/duelmap), and every one has the same shape: a Picture type,
// New(g, label, side, full) making the Picture of game g as side sees it, and
// Map = MapOf(name, New), the Map the ruleset list (package rulesets) pairs with the ruleset (a ruleset
// without one gives ErrNoMap). The frame, fonts and PNG encoding are common, and so are the
// pieces a board is drawn with: Path (a polygon), Arrow and ArrowHead, labels placed clear of
// every other piece and label with leader lines where they stand off (PlaceLabels,
// DrawLabels), and for the open-table maps one projection of the table, north up, with its
// ruler grid (Table, Ruler): an open-table ruleset (a scaled sea with ship bases, squadron
// blocks, headings and range bands) draws its own pieces and markers through them. This
// package imports no ruleset (adjudicator/table is the shared geometry of the table). Nothing
// here reads the store or the clock: the caller hands in the game, and the same game draws
// the same pixels.
package render
