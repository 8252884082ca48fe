package main

import (
	"fmt"

	"navarch/store"
)

var backupCmd = command{
	name:    "backup",
	summary: "copy the database consistently (the daemon, which locks it, makes its own)",
	usage: `navarch backup [-config FILE | -db FILE] BACKUPFILE

Copies the database consistently; while the daemon runs, the daemon makes the copy (through
its control socket). The running daemon also takes its own backups,
every backup_every_hours (default 24) into backup_dir (default: "backups" beside the
database), keeping the newest backup_keep (default 7).`,
}

func init() { backupCmd.runIn = runBackup }

func runBackup(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	fs := backupCmd.flags(stderr)
	dbPath := c.dbFlags(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	db, err := dbPath()
	if err != nil {
		fmt.Fprintf(stderr, "navarch backup: %v\n", err)
		return 2
	}
	// Read-only, of any schema: a copy of the bytes, and of a damaged file an error, not a panic.
	s, done, code, ok := c.openOr("backup", db, store.Options{ReadOnly: true, AnySchema: true})
	if !ok {
		return code
	}
	defer done()
	n, err := s.BackupFile(c.path(fs.Arg(0)))
	if err != nil {
		fmt.Fprintf(stderr, "navarch backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", db, fs.Arg(0), n)
	return 0
}
