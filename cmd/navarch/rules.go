package main

import (
	"fmt"
	"io"
	"strings"

	"navarch/adjudicator"
)

var rulesCmd = command{
	name:    "rules",
	summary: "list the rulesets, their scenarios and optional rules",
	usage: `navarch rules [-orders] [RULESET]

Lists each ruleset (or the one named) with its scenarios (id, title, rulebook section,
sides, turns) and optional rules; -orders adds the order language players are sent.`,
}

func init() { rulesCmd.run = runRules }

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := rulesCmd.flags(stderr)
	orders := fs.Bool("orders", false, "also print the order language")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	found := false
	for _, rs := range rulesets {
		if fs.NArg() > 0 && fs.Arg(0) != rs.ID() {
			continue
		}
		found = true
		fmt.Fprintf(stdout, "%s: %s\n", rs.ID(), rs.Title())
		for _, s := range rs.Scenarios() {
			fmt.Fprintf(stdout, "  scenario %-20s %s (%s; %s; %d turns)\n", s.ID, s.Title, s.Rule, strings.Join(s.Sides, " v "), s.MaxTurns)
		}
		for _, o := range rs.Options() {
			fmt.Fprintf(stdout, "  option   %-20s %s (%s)\n", o.ID, o.Title, o.Rule)
		}
		if *orders && len(rs.Scenarios()) > 0 {
			g, err := rs.New(adjudicator.Config{Scenario: rs.Scenarios()[0].ID})
			if err != nil {
				fmt.Fprintf(stderr, "navarch rules: %v\n", err)
				return 1
			}
			fmt.Fprintf(stdout, "\n%s\n", g.Help(""))
		}
	}
	if !found {
		fmt.Fprintf(stderr, "navarch rules: no ruleset %q\n", fs.Arg(0))
		return 1
	}
	return 0
}
