package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"navarch/dice"
	"navarch/store"
)

var versionCmd = command{
	name:    "version",
	summary: "print the version, dice scheme, store schema and each ruleset's engine version",
	usage:   "navarch version",
}

func init() { versionCmd.run = runVersion }

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := versionCmd.flags(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	build := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		build = bi.Main.Version + " " + bi.GoVersion
	}
	fmt.Fprintf(stdout, "navarch (build %s)\ndice and log format %s\nstore schema %d\n", build, dice.Version, store.SchemaVersion)
	for _, rs := range rulesets {
		fmt.Fprintf(stdout, "ruleset %s engine %s\n", rs.ID(), rs.Version())
	}
	return 0
}
