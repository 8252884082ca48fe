// Package oinavarcoimap draws Oi Navarcoi! games: the scaled sea with its squadrons in
// formation, as one side sees it.
package oinavarcoimap

import (
	"fmt"

	"navarch/adjudicator"
	"navarch/adjudicator/oinavarcoi"
	"navarch/render"
)

// Map is the map of Oi Navarcoi! games, for the ruleset list (package rulesets).
var Map render.Map = oiMap{}

type oiMap struct{}

// Picture implements render.Map. The whole table is always shown (full is the same map).
func (oiMap) Picture(g adjudicator.Game, label, side string, full bool) (render.Picture, error) {
	og, ok := g.(*oinavarcoi.Game)
	if !ok {
		return nil, fmt.Errorf("oinavarcoimap: %T is not an Oi Navarcoi! game", g)
	}
	return NewOiNavarcoi(og.View(side), label), nil
}
