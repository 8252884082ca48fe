package main

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
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
database, which the daemon holds locked. When the configuration has metrics_listen, health
also reads the daemon's metrics there and reports the same figures Prometheus sees (the
outbox, deadlines, games by state, mails received, answered, parked and refused); a daemon
whose metrics do not answer is not alive.`,
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
	note := parkedNote(cfg.Database + ".alive")
	if cfg.MetricsListen != "" {
		figures, err := scrape(cfg.MetricsListen)
		if err != nil {
			fmt.Fprintf(stdout, "not alive: the metrics do not answer: %v\n", err)
			return 1
		}
		note = "\n" + figures
	}
	fmt.Fprintf(stdout, "alive: the last heartbeat is %v old%s\n", age, note)
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

// scrape reads the daemon's metrics at its metrics_listen address and sums up navarch's own.
func scrape(listen string) (string, error) {
	hostPart, port, _ := net.SplitHostPort(listen)
	if hostPart == "" || hostPart == "0.0.0.0" || hostPart == "::" {
		hostPart = "127.0.0.1"
	}
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + net.JoinHostPort(hostPart, port) + "/metrics")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", err
	}
	v, games := readFigures(string(data))
	return fmt.Sprintf("outbox: %g queued, the oldest %gs\ndeadlines: %g pending, %g overdue\ngames: %s\n"+
		"mails: %g received, %g answered, %g parked (%g waiting), %g refused, %g failed",
		v["navarch_outbox_depth"], v["navarch_outbox_oldest_age_seconds"], v["navarch_deadlines_pending"], v["navarch_deadlines_overdue"],
		games, v["navarch_mails_received_total"], v["navarch_mails_answered_total"], v["navarch_mails_parked_total"],
		v["navarch_mails_parked_waiting"], v["navarch_mails_refused_total"], v["navarch_mails_failed_total"]), nil
}

// readFigures sums navarch's samples in Prometheus's text format by name over their labels,
// and lists the games by state.
func readFigures(text string) (map[string]float64, string) {
	v := map[string]float64{}
	var games []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "navarch_") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		x, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		name, labels, _ := strings.Cut(line[:i], "{")
		v[name] += x
		if state, ok := strings.CutPrefix(labels, `state="`); ok && name == "navarch_games" && x > 0 {
			games = append(games, fmt.Sprintf("%s %g", strings.TrimSuffix(state, `"}`), x))
		}
	}
	if len(games) == 0 {
		games = []string{"none"}
	}
	return v, strings.Join(games, ", ")
}
