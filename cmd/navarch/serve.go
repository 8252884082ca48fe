package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/signal"
	"syscall"

	"navarch/host"
	"navarch/metrics"
	"navarch/store"
)

var serveCmd = command{
	name:    "serve",
	summary: "run the daemon: read the mailbox, adjudicate, answer, keep deadlines",
	usage: `navarch serve -config FILE

Runs until SIGINT or SIGTERM. The configuration is described in docs/navarch.example.json;
passwords may come from NAVARCH_IMAP_PASSWORD and NAVARCH_SMTP_PASSWORD. While it runs, the
database commands (game, parked, check, render, backup) are run by the daemon for the
command line, through its control socket DATABASE.sock, and the mail they queue is sent at
once. With metrics_listen set, it serves Prometheus metrics at http://ADDRESS/metrics.

At start it tries each server once (the IMAP login and mailbox; the SMTP connection, TLS,
login and navarch's address as the sender) and does not start, naming the field, when a
server refuses a setting: a password, a certificate (imap.ca_file, smtp.ca_file), the
sender address. A server that does not answer is logged and retried while the daemon runs.`,
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
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if err := checkServers(ctx, cfg, log); err != nil {
		fmt.Fprintf(stderr, "navarch serve: %v\n", err)
		return 2
	}
	if err := serveDaemon(ctx, cfg, log); err != nil {
		fmt.Fprintf(stderr, "navarch serve: %v\n", err)
		return 1
	}
	return 0
}

// serveDaemon runs the daemon until ctx ends: the host's loops, the control socket, and the
// metrics when the configuration asks for them.
func serveDaemon(ctx context.Context, cfg *fileConfig, log *slog.Logger) error {
	s, err := store.Open(cfg.Database, log, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	hc := cfg.host()
	var h *host.Host
	hc.Heartbeat = heartbeat(cfg.Database, log, func() host.Health { return h.Health() })
	hc.Wake = make(chan struct{}, 1) // shared with the control socket: its commands' mail leaves at once
	var m *metrics.Metrics
	var ln net.Listener
	if cfg.MetricsListen != "" {
		if ln, err = net.Listen("tcp", cfg.MetricsListen); err != nil {
			return fmt.Errorf("metrics_listen: %w", err)
		}
		m = metrics.New(func() (host.Figures, error) { return h.Figures() }, log)
		hc.Metrics = m
	}
	h = host.New(s, rulesets, hc, log)
	if err := h.OwnAddressInUse(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if m != nil {
		m.WatchHealth(h.Health)
		go func() {
			if err := m.Serve(ctx, ln); err != nil {
				log.Error("metrics stopped", "err", err)
			}
		}()
		log.Info("metrics served", "url", "http://"+ln.Addr().String()+"/metrics")
	}
	if err := serveControl(ctx, cfg.Database+".sock", &daemonStore{path: cfg.Database, s: s, wake: hc.Wake}, log); err != nil {
		log.Warn("no control socket: the database commands need the daemon stopped", "err", err)
	}
	in := cfg.intake()
	in.Log = log
	log.Info("navarch serving", "database", cfg.Database, "imap", cfg.IMAP.Host, "smtp", cfg.SMTP.Host)
	h.Serve(ctx, in, cfg.smtp())
	log.Info("navarch stopped")
	return nil
}
