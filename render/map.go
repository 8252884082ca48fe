package render

import (
	"errors"
	"fmt"
	"image"

	"navarch/adjudicator"
)

// Map makes the pictures of one ruleset's games. Each ruleset that has a map makes it in a
// package of its own (render/lepantomap) with MapOf; the ruleset list (package rulesets) pairs the ruleset
// with it, and the host receives it through its configuration.
type Map interface {
	// Picture is game g as side sees it ("" for the referee); label names the game in the
	// title strip, and full asks for the whole board rather than a crop around the action.
	Picture(g adjudicator.Game, label, side string, full bool) (Picture, error)
}

// MapOf is the Map of one ruleset's games, whose type is G: newPicture makes the picture of
// such a game, and a game of another type is an error naming the ruleset (rulesetName, as a
// player reads it). Every map package makes its Map so, from its New:
//
//	var Map = render.MapOf("Lepanto 1571", New)
func MapOf[G adjudicator.Game, P Picture](rulesetName string, newPicture func(g G, label, side string, full bool) P) Map {
	return mapOf[G, P]{rulesetName, newPicture}
}

type mapOf[G adjudicator.Game, P Picture] struct {
	name string
	new  func(g G, label, side string, full bool) P
}

// Picture implements Map.
func (m mapOf[G, P]) Picture(g adjudicator.Game, label, side string, full bool) (Picture, error) {
	game, ok := g.(G)
	if !ok {
		return nil, fmt.Errorf("%T is not a game of %s", g, m.name)
	}
	return m.new(game, label, side, full), nil
}

// ErrNoMap is returned for a game whose ruleset has no map: its reports go without one.
var ErrNoMap = errors.New("render: this ruleset has no map")

// Game draws g with its ruleset's map m (nil if the ruleset has none, giving ErrNoMap) into a
// PNG.
func Game(m Map, g adjudicator.Game, label, side string, full bool) ([]byte, error) {
	if m == nil {
		return nil, ErrNoMap
	}
	p, err := m.Picture(g, label, side, full)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return PNG(p)
}

// BoardOrigin is where the board's top-left corner lies in the framed image, for tests that
// look at the pixels of a board point.
var BoardOrigin = image.Point{X: margin, Y: titleH}
