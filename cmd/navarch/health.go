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

	"navarch/host"
	navmail "navarch/mail"
)

var healthCmd = command{
	name:    "health",
	summary: "exit 0 if the daemon is alive and reads and sends its mail (for container health checks and monitoring)",
	usage: `navarch health -config FILE [-max DURATION] [-failing DURATION]

The running daemon writes DATABASE.alive about once a minute, after each pass of its
deadline loop in which the database answered, with the number of mails parked after its
own failures and the state of its mailbox (IMAP) and of its sending (SMTP). health exits 0
when that file is younger than -max (default 3m) and neither the mailbox nor the sending has
been failing for longer than -failing (default 10m), 1 otherwise, saying which and why (a
refused login, a certificate, a connection) and what to check; a failure not yet that old
is reported as a warning. It does not open the database, which the daemon holds locked.
When the configuration has metrics_listen, health also reads the daemon's metrics there (the
mailbox's and the sending's state among them, fresher than the file) and reports the same
figures Prometheus sees (the outbox, deadlines, games by state, mails received, answered,
parked, rejected and refused); a daemon whose metrics do not answer is not alive.`,
}

func init() { healthCmd.run = runHealth }

func runHealth(args []string, stdout, stderr io.Writer) int {
	fs := healthCmd.flags(stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	maxAge := fs.Duration("max", 3*time.Minute, "the oldest heartbeat that counts as alive")
	failing := fs.Duration("failing", 10*time.Minute, "how long the mailbox or the sending may fail before the daemon counts as unhealthy")
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
	beat, _ := os.ReadFile(cfg.Database + ".alive")
	note := parkedNote(string(beat))
	conns := readBeatHealth(string(beat), time.Now())
	if cfg.MetricsListen != "" {
		text, err := scrapeText(cfg.MetricsListen)
		if err != nil {
			fmt.Fprintf(stdout, "not alive: the metrics do not answer: %v\n", err)
			return 1
		}
		note = "\n" + figuresSummary(text)
		conns = readMetricsHealth(text)
	}
	bad, warn := judge(conns, *failing)
	if bad != "" {
		fmt.Fprintf(stdout, "not healthy: %s%s%s\n", bad, warn, note)
		return 1
	}
	fmt.Fprintf(stdout, "alive: the last heartbeat is %v old%s%s\n", age, warn, note)
	return 0
}

// connHealth is what health knows of one connection: how long it has failed (0: it works)
// and the latest failure with its kind.
type connHealth struct {
	failing   time.Duration
	kind, err string
}

// The connections health judges, in the order it reports them.
var conns = []struct{ key, name, fields string }{
	{"intake", "the mailbox (IMAP)", "imap"},
	{"send", "the sending (SMTP)", "smtp"},
}

// judge says which connection has failed past the threshold and why (bad), or which fails
// but not yet for so long (warn).
func judge(h map[string]connHealth, threshold time.Duration) (bad, warn string) {
	var bads, warns []string
	for _, c := range conns {
		s := h[c.key]
		if s.failing <= 0 {
			continue
		}
		took := s.failing.Round(time.Second)
		if took == 0 {
			took = s.failing.Round(time.Millisecond)
		}
		line := fmt.Sprintf("%s has failed for %v (%s: %s)%s", c.name, took, s.kind, s.err, advice(c.fields, s.kind))
		if s.failing > threshold {
			bads = append(bads, line)
		} else {
			warns = append(warns, line)
		}
	}
	if len(warns) > 0 {
		warn = "; but " + strings.Join(warns, "; ")
	}
	return strings.Join(bads, "; "), warn
}

// advice is what the operator should check for a kind of failure.
func advice(fields, kind string) string {
	switch kind {
	case navmail.KindAuth:
		return fmt.Sprintf(": the operator's to fix: check %[1]s.username and %[1]s.password", fields)
	case navmail.KindTLS:
		return fmt.Sprintf(": the operator's to fix: check %[1]s.host, %[1]s.tls and %[1]s.ca_file", fields)
	case navmail.KindConnection:
		return fmt.Sprintf(": is the server at %s.host and %s.port up?", fields, fields)
	}
	return ""
}

// heartbeat writes DATABASE.alive for navarch health: the time, how many mails are parked,
// and each connection that fails: since when, its kind and its latest failure.
func heartbeat(database string, log *slog.Logger, health func() host.Health) func(parked int) {
	path := database + ".alive"
	return func(parked int) {
		h := health()
		text := fmt.Sprintf("%s\nparked %d\n", time.Now().UTC().Format(time.RFC3339), parked)
		for _, c := range []struct {
			key string
			s   navmail.HealthStatus
		}{{"intake", h.Intake}, {"send", h.Send}} {
			if !c.s.FailingSince.IsZero() {
				text += fmt.Sprintf("%s failing %s %s %s\n", c.key, c.s.FailingSince.UTC().Format(time.RFC3339), c.s.Kind, oneLine(c.s.Err))
			}
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			log.Warn("heartbeat", "err", err)
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// readBeatHealth reads the failing connections of a heartbeat file.
func readBeatHealth(text string, now time.Time) map[string]connHealth {
	out := map[string]connHealth{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.SplitN(line, " ", 5)
		if len(f) < 4 || f[1] != "failing" {
			continue
		}
		since, err := time.Parse(time.RFC3339, f[2])
		if err != nil {
			continue
		}
		c := connHealth{failing: max(now.Sub(since), time.Second), kind: f[3]}
		if len(f) == 5 {
			c.err = f[4]
		}
		out[f[0]] = c
	}
	return out
}

// parkedNote reads the parked count of a heartbeat file: a note for the operator, or "".
func parkedNote(text string) string {
	for _, line := range strings.Split(text, "\n") {
		v, ok := strings.CutPrefix(line, "parked ")
		if n, err := strconv.Atoi(v); ok && err == nil && n > 0 {
			return fmt.Sprintf("; %d mails parked after our own failures (see navarch parked)", n)
		}
	}
	return ""
}

// scrapeText reads the daemon's metrics at its metrics_listen address.
func scrapeText(listen string) (string, error) {
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
	return string(data), err
}

// figuresSummary sums up navarch's own metrics for the operator.
func figuresSummary(text string) string {
	v, games := readFigures(text)
	return fmt.Sprintf("outbox: %g queued, the oldest %gs\ndeadlines: %g pending, %g overdue\ngames: %s\n"+
		"mails: %g received, %g answered, %g parked (%g waiting), %g rejected, %g refused, %g failed",
		v["navarch_outbox_depth"], v["navarch_outbox_oldest_age_seconds"], v["navarch_deadlines_pending"], v["navarch_deadlines_overdue"],
		games, v["navarch_mails_received_total"], v["navarch_mails_answered_total"], v["navarch_mails_parked_total"],
		v["navarch_mails_parked_waiting"], v["navarch_mails_rejected_total"], v["navarch_mails_refused_total"], v["navarch_mails_failed_total"])
}

// readMetricsHealth reads each connection's failing time and latest failure from the
// metrics (navarch_intake_failing_seconds, navarch_intake_error{kind,error}, and send's).
func readMetricsHealth(text string) map[string]connHealth {
	out := map[string]connHealth{}
	for _, line := range strings.Split(text, "\n") {
		for _, c := range conns {
			prefix := "navarch_" + c.key + "_"
			rest, ok := strings.CutPrefix(line, prefix)
			if !ok {
				continue
			}
			s := out[c.key]
			if v, ok := strings.CutPrefix(rest, "failing_seconds "); ok {
				if x, err := strconv.ParseFloat(v, 64); err == nil && x > 0 && x < 1e12 {
					s.failing = max(time.Duration(x*float64(time.Second)), time.Nanosecond)
				}
			} else if v, ok := strings.CutPrefix(rest, "error{"); ok {
				labels := readLabels(v)
				s.kind, s.err = labels["kind"], labels["error"]
			}
			out[c.key] = s
		}
	}
	return out
}

// readLabels reads the labels of a sample in Prometheus's text format (after its "{"):
// name="value" pairs, the values with \\, \" and \n escaped. It stops at what it cannot read.
func readLabels(s string) map[string]string {
	out := map[string]string{}
	for {
		name, rest, ok := strings.Cut(s, `="`)
		if !ok {
			return out
		}
		name = strings.TrimLeft(name, ", ")
		var b strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				if rest[i] == 'n' {
					b.WriteByte('\n')
					continue
				}
			}
			b.WriteByte(rest[i])
		}
		if i >= len(rest) {
			return out
		}
		out[name] = b.String()
		s = rest[i+1:]
	}
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
