package lepantomap

import (
	"fmt"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
)

// Map is the map of Lepanto 1571 games, for the ruleset list (package rulesets).
var Map render.Map = lepantoMap{}

type lepantoMap struct{}

// Picture implements render.Map.
func (lepantoMap) Picture(g adjudicator.Game, label, side string, full bool) (render.Picture, error) {
	lg, ok := g.(*lepanto.Game)
	if !ok {
		return nil, fmt.Errorf("lepantomap: %T is not a Lepanto 1571 game", g)
	}
	return NewLepanto(lg.View(side), label, full), nil
}
