package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestHealthIMAPLoginRefused: while the mailbox refuses navarch's password, the daemon keeps
// retrying, its metrics show the intake failing with the kind and the server's answer, and
// navarch health fails past its threshold saying that the IMAP login is refused and what to
// check (within the threshold it is alive, with a warning). navarch serve does not start on
// such a setting.
func TestHealthIMAPLoginRefused(t *testing.T) {
	ts := startTestServers(t)
	cfg, _, addr, logs := daemon(t, ts, func(c string) string {
		return strings.Replace(c, fmt.Sprintf(`"password": %q`, testPassword), `"password": "wrong-secret"`, 1)
	})
	var text string
	waitFor(t, 20*time.Second, "the intake failing in the metrics", func() bool {
		text = get(t, "http://"+addr+"/metrics")
		return strings.Contains(text, `navarch_intake_error{error="imap login as navarch@host.example: login refused: `) && !strings.Contains(text, "navarch_intake_failing_seconds 0\n")
	}, func() string { return text })
	for _, want := range []string{`kind="auth"} 1`, "navarch_send_failing_seconds 0\n", "navarch_intake_failures_total{kind=\"connection\"} 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the metrics:\n%s", want, text)
		}
	}
	v, _ := readFigures(text)
	if v["navarch_intake_failures_total"] < 1 || v["navarch_intake_last_success_age_seconds"] != 0 {
		t.Errorf("intake failures %g, last success age %g: want failures and no success", v["navarch_intake_failures_total"], v["navarch_intake_last_success_age_seconds"])
	}
	waitFor(t, 10*time.Second, "a heartbeat", func() bool { c, _, _ := navarch("health", "-config", cfg); return c == 0 })
	code, out, _ := navarch("health", "-config", cfg)
	if code != 0 || !strings.Contains(out, "alive") || !strings.Contains(out, "but the mailbox (IMAP) has failed for") {
		t.Errorf("health within the threshold: exit %d, want 0 and a warning:\n%s", code, out)
	}
	code, out, _ = navarch("health", "-config", cfg, "-failing", "1ms")
	for _, want := range []string{"not healthy: the mailbox (IMAP) has failed for", "(auth: imap login as navarch@host.example: login refused:",
		"the operator's to fix: check imap.username and imap.password", "outbox: 0 queued"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("health past the threshold: exit %d, no %q:\n%s", code, want, out)
		}
	}
	if n := strings.Count(logs.String(), "the IMAP server refuses navarch's login: check imap.username and imap.password"); n != 1 {
		t.Errorf("%d error lines for the refused login, want 1 while it lasts:\n%s", n, logs)
	}
	c, err := loadConfig(cfg)
	if err == nil {
		err = c.credentials()
	}
	if err != nil {
		t.Fatal(err)
	}
	err = checkServers(context.Background(), c, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), `config: imap.password: the server refuses the login of imap.username "navarch@host.example"`) {
		t.Errorf("the check at start: %v, want the IMAP password named", err)
	}
	// navarch serve itself does not start on it (before it opens the database).
	if code, _, e := navarch("serve", "-config", cfg); code != 2 || !strings.Contains(e, "navarch serve: config: imap.password: the server refuses the login") {
		t.Errorf("navarch serve with a refused password: exit %d, want 2 naming imap.password:\n%s", code, e)
	}
}

// TestHealthSMTPLoginRefused: while the SMTP server refuses navarch's login (535), the queued
// welcomes wait, the metrics show the sending failing as auth, navarch health fails past its
// threshold saying so, the log says once that the SMTP login is refused and which settings to
// check, and the check at start names smtp.password; once the server takes the login again
// the mail leaves and health is well.
func TestHealthSMTPLoginRefused(t *testing.T) {
	ts := startTestServers(t)
	ts.refuseLogin.Store(true)
	cfg, _, addr, logs := daemon(t, ts, func(c string) string {
		return strings.Replace(c, `"tls": "none"}}`, `"tls": "none", "username": "navarch", "password": "smtp-secret"}}`, 1)
	})
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-referee", "ref@example.net",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 0 {
		t.Fatalf("game new: exit %d\n%s%s", code, out, errs)
	}
	var text string
	waitFor(t, 20*time.Second, "the sending failing in the metrics", func() bool {
		text = get(t, "http://"+addr+"/metrics")
		return strings.Contains(text, `navarch_send_error{error="`) && !strings.Contains(text, "navarch_send_failing_seconds 0\n")
	}, func() string { return text })
	for _, want := range []string{"535", `kind="auth"} 1`, "navarch_outbox_depth 3\n", "navarch_intake_failing_seconds 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the metrics:\n%s", want, text)
		}
	}
	waitFor(t, 10*time.Second, "a heartbeat", func() bool { c, _, _ := navarch("health", "-config", cfg); return c == 0 })
	code, out, _ = navarch("health", "-config", cfg, "-failing", "1ms")
	for _, want := range []string{"not healthy: the sending (SMTP) has failed for", "(auth: ", "535",
		"the operator's to fix: check smtp.username and smtp.password", "outbox: 3 queued"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("health past the threshold: exit %d, no %q:\n%s", code, want, out)
		}
	}
	if len(ts.taken()) != 0 {
		t.Errorf("mail taken while the login is refused: %v", ts.taken())
	}
	c, err := loadConfig(cfg)
	if err == nil {
		err = c.credentials()
	}
	if err != nil {
		t.Fatal(err)
	}
	err = checkServers(context.Background(), c, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), `config: smtp.password: the server refuses the login of smtp.username "navarch"`) || !strings.Contains(err.Error(), "535") {
		t.Errorf("the check at start: %v, want the SMTP password named", err)
	}
	ts.refuseLogin.Store(false) // the operator mends the server's side
	waitFor(t, 40*time.Second, "the welcomes sent once the login is taken", func() bool { return len(ts.taken()) == 3 })
	waitFor(t, 10*time.Second, "the sending well again", func() bool {
		return strings.Contains(get(t, "http://"+addr+"/metrics"), "navarch_send_failing_seconds 0\n")
	})
	if code, out, _ := navarch("health", "-config", cfg, "-failing", "1ms"); code != 0 || strings.Contains(out, "failed for") {
		t.Errorf("health once mended: exit %d\n%s", code, out)
	}
	if n := strings.Count(logs.String(), "the SMTP server refuses navarch's login: check smtp.username and smtp.password"); n != 1 {
		t.Errorf("%d error lines for the refused login, want 1 while it lasts:\n%s", n, logs)
	}
	if err := checkServers(context.Background(), c, slog.New(slog.DiscardHandler)); err != nil {
		t.Errorf("the check at start once mended: %v", err)
	}
}

// The labels of a failure as Prometheus escapes them come back as the daemon wrote them.
func TestReadMetricsHealth(t *testing.T) {
	text := "# HELP navarch_send_error x\nnavarch_send_error{error=\"smtp: \\\"535\\\" bad\\\\creds\\nline two\",kind=\"auth\"} 1\n" +
		"navarch_send_failing_seconds 725.5\nnavarch_intake_failing_seconds 0\nnavarch_intake_failures_total{kind=\"auth\"} 3\n"
	h := readMetricsHealth(text)
	s := h["send"]
	if s.kind != "auth" || s.err != "smtp: \"535\" bad\\creds\nline two" || s.failing != 725500*time.Millisecond {
		t.Errorf("send: %+v", s)
	}
	if h["intake"].failing != 0 {
		t.Errorf("intake: %+v", h["intake"])
	}
	bad, warn := judge(h, 10*time.Minute)
	if !strings.Contains(bad, "the sending (SMTP) has failed for 12m6s (auth: smtp: ") || warn != "" {
		t.Errorf("judged: %q, %q", bad, warn)
	}
}

// health's readers of the metrics and of the heartbeat file take any text without panicking
// and never report a failing time out of range.
func FuzzReadHealth(f *testing.F) {
	f.Add("navarch_intake_error{error=\"x\\\"y\",kind=\"auth\"} 1\nnavarch_intake_failing_seconds 3\n")
	f.Add("navarch_send_error{error=\"\\\nnavarch_send_failing_seconds 1e300\n")
	f.Add("2026-12-01T09:00:00Z\nparked 2\nintake failing 2026-12-01T08:00:00Z auth imap login: refused\nsend failing x")
	f.Fuzz(func(t *testing.T, text string) {
		now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		for _, h := range []map[string]connHealth{readMetricsHealth(text), readBeatHealth(text, now)} {
			for k, c := range h {
				if k != "intake" && k != "send" && !strings.HasPrefix(text, k) && !strings.Contains(text, "\n"+k) {
					t.Fatalf("a connection %q out of nowhere", k)
				}
				if c.failing < 0 {
					t.Fatalf("%s: failing %v", k, c.failing)
				}
			}
			judge(h, time.Minute)
		}
		readLabels(text)
		parkedNote(text)
	})
}
