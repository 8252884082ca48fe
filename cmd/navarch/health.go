package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"
)

var healthCmd = command{
	name:    "health",
	summary: "exit 0 if the daemon is alive (for container health checks and monitoring)",
	usage: `navarch health -config FILE [-max DURATION]

The running daemon writes DATABASE.alive about once a minute, after each pass of its
deadline loop in which the database answered, with the number of mails parked after its
own failures, which health reports (see navarch parked). health exits 0 when that file
is younger than -max (default 3m), 1 otherwise, saying why. It does not open the
database, which the daemon holds locked.`,
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
	fmt.Fprintf(stdout, "alive: the last heartbeat is %v old%s\n", age, parkedNote(cfg.Database+".alive"))
	return 0
}

// heartbeat writes DATABASE.alive for navarch health: the time, and how many mails are
// parked.
func heartbeat(database string, log *slog.Logger) func(parked int) {
	path := database + ".alive"
	return func(parked int) {
		text := fmt.Sprintf("%s\nparked %d\n", time.Now().UTC().Format(time.RFC3339), parked)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			log.Warn("heartbeat", "err", err)
		}
	}
}

// parkedNote reads the parked count of a heartbeat file: a note for the operator, or "".
func parkedNote(path string) string {
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		v, ok := strings.CutPrefix(line, "parked ")
		if n, err := strconv.Atoi(v); ok && err == nil && n > 0 {
			return fmt.Sprintf("; %d mails parked after our own failures (see navarch parked)", n)
		}
	}
	return ""
}
