package lepantomap

import "navarch/render"

// Map is the map of Lepanto 1571 games, for the ruleset list (package rulesets).
var Map = render.MapOf("Lepanto 1571", New)
