package main

import listed "navarch/rulesets"

// list is the ruleset list (package rulesets) this command adjudicates; TestAddARuleset adds
// one entry to it.
var list = listed.List

// rulesets are the rule systems of the list.
var rulesets = listed.Rules(list)

// maps are the list's maps by ruleset id, for the host's configuration.
var maps = listed.Maps(list)

// useList makes l the command's list, its rule systems and maps.
func useList(l []listed.Entry) {
	list, rulesets, maps = l, listed.Rules(l), listed.Maps(l)
}
