package main

import (
	"fmt"
	"log/slog"

	"navarch/host"
	"navarch/store"
)

var checkCmd = command{
	name:    "check",
	summary: "check the database: every game's records and hash chain (fsck)",
	usage:   "navarch check [-config FILE | -db FILE]",
}

func init() { checkCmd.runIn = runCheck }

func runCheck(c *cli, args []string) int {
	stdout := c.stdout
	fs := checkCmd.flags(c.stderr)
	dbPath := c.dbFlags(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	path, err := dbPath()
	if err != nil {
		fmt.Fprintf(c.stderr, "navarch check: %v\n", err)
		return 2
	}
	db := &path
	s, done, code, ok := c.openOr("check", *db, store.Options{ReadOnly: true})
	if !ok {
		return code
	}
	defer done()
	var problems []string
	var games int
	err = s.View(func(tx *store.Tx) error { // a damaged file: what Check could read, and ErrDamaged
		problems = store.Check(tx)
		games = len(store.Games(tx))
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	// Games under way this navarch's engines cannot continue: run on a copy of the
	// database before an upgrade, the new navarch's check names the games it would strand.
	stranded, err := host.New(s, rulesets, host.Config{}, slog.New(slog.DiscardHandler)).Stranded()
	if err != nil {
		problems = append(problems, err.Error())
	}
	for _, l := range stranded {
		problems = append(problems, "stranded game "+l)
	}
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
