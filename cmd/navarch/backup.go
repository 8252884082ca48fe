package main

import (
	"fmt"
	"io"
	"log/slog"

	"navarch/store"
)

var backupCmd = command{
	name:    "backup",
	summary: "copy the database consistently (the daemon, which locks it, makes its own)",
	usage: `navarch backup [-db FILE] BACKUPFILE

Copies the database while no daemon holds it. The running daemon takes its own backups,
every backup_every_hours (default 24) into backup_dir (default: "backups" beside the
database), keeping the newest backup_keep (default 7).`,
}

func init() { backupCmd.run = runBackup }

func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := backupCmd.flags(stderr)
	db := fs.String("db", "navarch.db", "the database file")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	s, err := store.Open(*db, slog.New(slog.NewTextHandler(stderr, nil)), store.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "navarch backup: %v\n", err)
		return 1
	}
	defer s.Close()
	n, err := s.BackupFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "navarch backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", *db, fs.Arg(0), n)
	return 0
}
