package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"navarch/host"
	"navarch/store"
)

var serveCmd = command{
	name:    "serve",
	summary: "run the daemon: read the mailbox, adjudicate, answer, keep deadlines",
	usage: `navarch serve -config FILE

Runs until SIGINT or SIGTERM. The configuration is described in docs/navarch.example.json;
passwords may come from NAVARCH_IMAP_PASSWORD and NAVARCH_SMTP_PASSWORD. While it runs, the
database commands (game, parked, check) are run by the daemon for the command line, through
its control socket DATABASE.sock.`,
}

func init() { serveCmd.run = runServe }

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := serveCmd.flags(stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	cfg, err := loadConfig(*path)
	if err == nil {
		err = cfg.credentials()
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch serve: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	s, err := store.Open(cfg.Database, log, store.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "navarch serve: %v\n", err)
		return 1
	}
	defer s.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	hc := cfg.host()
	hc.Heartbeat = heartbeat(cfg.Database, log)
	h := host.New(s, rulesets, hc, log)
	if err := serveControl(ctx, cfg.Database+".sock", &daemonStore{path: cfg.Database, s: s}, log); err != nil {
		log.Warn("no control socket: the database commands need the daemon stopped", "err", err)
	}
	in := cfg.intake()
	in.Log = log
	log.Info("navarch serving", "database", cfg.Database, "imap", cfg.IMAP.Host, "smtp", cfg.SMTP.Host)
	h.Serve(ctx, in, cfg.smtp())
	log.Info("navarch stopped")
	return 0
}
