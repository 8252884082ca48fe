// Package oinavarcoimap draws Oi Navarcoi! games: the scaled sea with its squadrons in
// formation, as one side sees it.
package oinavarcoimap

import (
	"navarch/render"
)

// Map is the map of Oi Navarcoi! games, for the ruleset list (package rulesets).
var Map = render.MapOf("Oi Navarcoi!", New)
