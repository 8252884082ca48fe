package main

import (
	"fmt"
	"io"
	"log/slog"

	"navarch/store"
)

var checkCmd = command{
	name:    "check",
	summary: "check the database: every game's records and hash chain (fsck)",
	usage:   "navarch check [-db FILE]",
}

func init() { checkCmd.run = runCheck }

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := checkCmd.flags(stderr)
	db := fs.String("db", "navarch.db", "the database file")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	s, err := store.Open(*db, slog.New(slog.NewTextHandler(stderr, nil)), store.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(stderr, "navarch check: %v\n", err)
		return 1
	}
	defer s.Close()
	var problems []string
	var games int
	s.View(func(tx *store.Tx) error {
		games = len(store.Games(tx))
		problems = store.Check(tx)
		return nil
	})
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "FAIL: %d problems in %s\n", len(problems), *db)
		return 1
	}
	fmt.Fprintf(stdout, "OK: %s, %d games\n", *db, games)
	return 0
}
