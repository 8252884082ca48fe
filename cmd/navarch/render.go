package main

import (
	"fmt"
	"os"

	"navarch/host"
	"navarch/ident"
	"navarch/play"
	"navarch/render"
	"navarch/store"
)

var renderCmd = command{
	name:    "render",
	summary: "draw a game's map as a side sees it, to a PNG file",
	usage: `navarch render [-config FILE | -db FILE] [-side SIDE] [-full] -o FILE.png GAME

GAME is the game's tag (or its hex id, or a unique prefix of it). Without -side the map is
the referee's view, hidden leaders included; -full draws the whole map instead of the area
around the last activation. While the daemon runs, it draws the map for the command line
(through its control socket).`,
}

func init() { renderCmd.runIn = runRender }

func runRender(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := renderCmd.flags(stderr)
	dbPath := c.dbFlags(fs)
	side := fs.String("side", "", "the side whose view to draw (default: the referee's)")
	full := fs.Bool("full", false, "the whole map")
	out := fs.String("o", "", "the PNG file to write")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 || *out == "" {
		fs.Usage()
		return 2
	}
	db, err := dbPath()
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 2
	}
	s, done, code, ok := c.openOr("render", db, store.Options{ReadOnly: true})
	if !ok {
		return code
	}
	defer done()
	var rep *play.ReplayReport
	var id ident.GameID
	var tag string
	err = s.View(func(tx *store.Tx) error {
		if id, tag, err = host.ResolveGame(tx, fs.Arg(0)); err != nil {
			return err
		}
		rep, err = play.LoadReport(tx, id, rulesets)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 1
	}
	data, err := render.Game(maps[rep.Ruleset], rep.Game, tag, *side, *full)
	if err == nil {
		err = os.WriteFile(c.path(*out), data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, len(data))
	return 0
}
