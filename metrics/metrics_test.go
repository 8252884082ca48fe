package metrics

import (
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"navarch/host"
	"navarch/mail"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

func wantLines(t *testing.T, text string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(text, "\n"+l+"\n") {
			t.Errorf("no %q in:\n%s", l, text)
		}
	}
}

// The outbox's age counts from the first scrape that saw each mail queued; a mail sent is
// forgotten, and the figures' failure is a figure of its own.
func TestGauges(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f := host.Figures{OutboxSeqs: []uint64{1, 2}, OutboxDepth: 2, Deadlines: 3, Overdue: 1, Parked: 1, BeaconWaiting: 2,
		Games: map[string]int{"playing": 3, "over": 2}, Dropped: map[string]int{host.DropOwn: 2, host.DropBulk: 1, "novel": 4}}
	var fail error
	m := New(func() (host.Figures, error) { return f, fail }, slog.New(slog.DiscardHandler))
	m.now = func() time.Time { return now }
	wantLines(t, scrape(t, m), "navarch_outbox_depth 2", "navarch_outbox_oldest_age_seconds 0", "navarch_deadlines_pending 3",
		"navarch_deadlines_overdue 1", "navarch_mails_parked_waiting 1", `navarch_games{state="playing"} 3`,
		`navarch_games{state="over"} 2`, `navarch_games{state="paused"} 0`, "navarch_beacon_steps_waiting 2", "navarch_figures_error 0",
		`navarch_mails_dropped_total{reason="own"} 2`, `navarch_mails_dropped_total{reason="bulk"} 1`,
		`navarch_mails_dropped_total{reason="rate"} 0`, `navarch_mails_dropped_total{reason="novel"} 4`)
	now = now.Add(30 * time.Second)
	f.OutboxSeqs, f.OutboxDepth = []uint64{2, 3}, 2
	wantLines(t, scrape(t, m), "navarch_outbox_oldest_age_seconds 30")
	now = now.Add(10 * time.Second)
	f.OutboxSeqs, f.OutboxDepth = []uint64{3}, 1
	wantLines(t, scrape(t, m), "navarch_outbox_oldest_age_seconds 10", "navarch_outbox_depth 1")
	fail = errors.New("store down")
	text := scrape(t, m)
	wantLines(t, text, "navarch_figures_error 1")
	if strings.Contains(text, "navarch_outbox_depth") {
		t.Error("figures shown although they could not be read")
	}
}

// The Observer's calls are the counters and the latency histogram.
func TestCounters(t *testing.T) {
	m := New(func() (host.Figures, error) { return host.Figures{}, nil }, slog.New(slog.DiscardHandler))
	m.Received()
	m.Received()
	m.Handled(20*time.Millisecond, nil)
	m.Handled(3*time.Second, errors.New("our bug"))
	m.Parked()
	m.Sent("receipt")
	m.Sent("receipt")
	m.Sent("report")
	m.Refused("welcome")
	m.Rejected(host.RejectDKIM)
	m.Rejected(host.RejectRate)
	m.Rejected(host.RejectRate)
	wantLines(t, scrape(t, m), `navarch_mails_rejected_total{reason="dkim"} 1`, `navarch_mails_rejected_total{reason="rate"} 2`,
		`navarch_mails_rejected_total{reason="key"} 0`, `navarch_mails_rejected_total{reason="forged"} 0`, `navarch_mails_rejected_total{reason="stranger"} 0`, "navarch_mails_received_total 2", "navarch_mails_failed_total 1", "navarch_mails_parked_total 1",
		`navarch_mails_answered_total{kind="receipt"} 2`, `navarch_mails_answered_total{kind="report"} 1`,
		`navarch_mails_refused_total{kind="welcome"} 1`, "navarch_mail_handling_seconds_count 2",
		`navarch_mail_handling_seconds_bucket{le="0.025"} 1`, `navarch_mail_handling_seconds_bucket{le="5"} 2`)
}

// The health of the mailbox and of the sending: the last success's age, how long a failure
// has lasted (0 while it works), failures by kind, and the latest failure as a label (made
// valid UTF-8: a server may answer anything).
func TestHealthFigures(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	var intake, send mail.Health
	m := New(func() (host.Figures, error) { return host.Figures{}, nil }, slog.New(slog.DiscardHandler))
	m.now = func() time.Time { return now }
	text := scrape(t, m)
	if strings.Contains(text, "navarch_intake_") {
		t.Errorf("health figures without WatchHealth:\n%s", text)
	}
	m.WatchHealth(func() host.Health { return host.Health{Intake: intake.Status(), Send: send.Status()} })
	intake.OK(now.Add(-90 * time.Second))
	intake.Fail(now.Add(-60*time.Second), mail.KindConnection, errors.New("dial tcp: connection refused"))
	intake.Fail(now.Add(-30*time.Second), mail.KindAuth, errors.New("imap login: login refused: \xff NO [AUTHENTICATIONFAILED]"))
	send.OK(now.Add(-5 * time.Second))
	wantLines(t, scrape(t, m), "navarch_intake_last_success_age_seconds 90", "navarch_intake_failing_seconds 60",
		`navarch_intake_failures_total{kind="auth"} 1`, `navarch_intake_failures_total{kind="connection"} 1`, `navarch_intake_failures_total{kind="tls"} 0`,
		`navarch_intake_error{error="imap login: login refused: ? NO [AUTHENTICATIONFAILED]",kind="auth"} 1`,
		"navarch_send_last_success_age_seconds 5", "navarch_send_failing_seconds 0", `navarch_send_failures_total{kind="auth"} 0`)
	intake.OK(now)
	if text := scrape(t, m); strings.Contains(text, "navarch_intake_error{") || !strings.Contains(text, "\nnavarch_intake_failing_seconds 0\n") {
		t.Errorf("the intake well again still shows its failure:\n%s", text)
	}
}
