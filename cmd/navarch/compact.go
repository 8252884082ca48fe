package main

import (
	"errors"
	"fmt"

	"navarch/store"
)

var compactCmd = command{
	name:    "compact",
	summary: "give a stopped daemon's database back the space it no longer uses",
	usage: `navarch compact [-config FILE | -db FILE]

Rewrites the database without its free pages: the file never shrinks by itself (bbolt keeps
its pages), so one that once held many queued mails (the welcomes of many new games) stays
as large as it was. The daemon must be stopped. The copy is checked before it takes the
database's place; the file as it was is kept as FILE.before-compact, to remove once the
daemon runs well on the new one.`,
}

func init() { compactCmd.runIn = runCompact }

func runCompact(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := compactCmd.flags(stderr)
	dbPath := c.dbFlags(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	db, err := dbPath()
	if err != nil {
		fmt.Fprintf(stderr, "navarch compact: %v\n", err)
		return 2
	}
	before, after, err := store.Compact(c.path(db))
	if err != nil {
		if errors.Is(err, store.ErrInUse) {
			err = fmt.Errorf("%w: stop the daemon first", err)
		}
		fmt.Fprintf(stderr, "navarch compact: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "compacted %s from %d to %d bytes; the file as it was is %s.before-compact\n", db, before, after, db)
	return 0
}
