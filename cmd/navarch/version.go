package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
	"navarch/store"
)

var versionCmd = command{
	name:    "version",
	summary: "print the version, dice scheme and store schema",
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
	fmt.Fprintf(stdout, "navarch %s (build %s)\ndice and log format %s\nstore schema %d\n",
		adjudicator.EngineVersion, build, dice.Version, store.SchemaVersion)
	return 0
}
