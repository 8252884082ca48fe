package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"
)

var healthCmd = command{
	name:    "health",
	summary: "exit 0 if the daemon is alive (for container health checks and monitoring)",
	usage: `navarch health -config FILE [-max DURATION]

The running daemon touches DATABASE.alive about once a minute, after each pass of its
deadline loop in which the database answered. health exits 0 when that file is younger than
-max (default 3m), 1 otherwise, saying why. It does not open the database, which the daemon
holds locked.`,
}

func init() { healthCmd.run = runHealth }

func runHealth(args []string, stdout, stderr io.Writer) int {
	fs := healthCmd.flags(stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	maxAge := fs.Duration("max", 3*time.Minute, "the oldest heartbeat that counts as alive")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintf(stderr, "navarch health: %v\n", err)
		return 2
	}
	st, err := os.Stat(cfg.Database + ".alive")
	if err != nil {
		fmt.Fprintf(stdout, "not alive: no heartbeat (%v)\n", err)
		return 1
	}
	age := time.Since(st.ModTime()).Round(time.Second)
	if age > *maxAge {
		fmt.Fprintf(stdout, "not alive: the last heartbeat is %v old\n", age)
		return 1
	}
	fmt.Fprintf(stdout, "alive: the last heartbeat is %v old\n", age)
	return 0
}

// heartbeat touches DATABASE.alive for navarch health.
func heartbeat(database string, log *slog.Logger) func() {
	path := database + ".alive"
	return func() {
		if err := os.WriteFile(path, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
			log.Warn("heartbeat", "err", err)
		}
	}
}
