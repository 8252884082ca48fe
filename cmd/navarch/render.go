package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"navarch/ident"
	"navarch/play"
	"navarch/render"
	"navarch/store"
)

var renderCmd = command{
	name:    "render",
	summary: "draw a game's map as a side sees it, to a PNG file",
	usage: `navarch render [-db FILE] [-side SIDE] [-full] -o FILE.png GAME

GAME is the game id (hex; a unique prefix will do). Without -side the map is the
referee's view, hidden leaders included; -full draws the whole map instead of the
area around the last activation.`,
}

func init() { renderCmd.run = runRender }

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := renderCmd.flags(stderr)
	db := fs.String("db", "navarch.db", "the database file")
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
	s, err := store.Open(*db, slog.New(slog.NewTextHandler(stderr, nil)), store.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 1
	}
	defer s.Close()
	var rep *play.ReplayReport
	var id ident.GameID
	err = s.View(func(tx *store.Tx) error {
		if id, err = findGame(tx, fs.Arg(0)); err != nil {
			return err
		}
		rep, err = play.LoadReport(tx, id, rulesets)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 1
	}
	data, err := render.Game(maps[rep.Ruleset], rep.Game, hex.EncodeToString(id[:4]), *side, *full)
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, len(data))
	return 0
}

// findGame resolves a game id or a unique prefix of it.
func findGame(tx *store.Tx, prefix string) (ident.GameID, error) {
	var found []ident.GameID
	for _, id := range store.Games(tx) {
		if strings.HasPrefix(hex.EncodeToString(id[:]), strings.ToLower(prefix)) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return ident.GameID{}, fmt.Errorf("no game %q", prefix)
	}
	return ident.GameID{}, fmt.Errorf("%d games start with %q", len(found), prefix)
}
