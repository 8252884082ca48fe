package main

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"navarch/host"
	navmail "navarch/mail"
	"navarch/store"
)

func TestParkedCommand(t *testing.T) {
	_, cfg, db := testConfig(t)
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 0 {
		t.Fatalf("game new: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	if code, out, _ := navarch("parked", "-config", cfg); code != 0 || out != "no parked mail\n" {
		t.Errorf("parked with none: exit %d, %q", code, out)
	}

	// The daemon parked a STATUS mail of alice's after a fault since mended.
	s, err := store.Open(db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(s, rulesets, host.Config{Maps: maps, Address: "navarch@host.example", Domain: "navarch.host.example"}, slog.New(slog.DiscardHandler))
	raw := "From: alice@example.org\r\nSubject: [navarch " + tag + "] where are we\r\nMessage-ID: <st@example.org>\r\n\r\nSTATUS\r\n"
	if err := h.Park([]byte(raw), errors.New("game settings: unexpected end\nwith detail")); err != nil {
		t.Fatal(err)
	}
	s.Close()

	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"list"}, 0, `tried 1× since parked  alice@example.org  "[navarch ` + tag + `] where are we"` + "\n    game settings: unexpected end\n"},
		{[]string{"show", "1"}, 0, "failure     game settings: unexpected end\nwith detail\n\nFrom: alice@example.org"},
		{[]string{"show", "2"}, 1, "no parked mail 2"},
		{[]string{"drop", "x"}, 2, "give the number"},
		{[]string{"nosuch"}, 2, "unknown subcommand"},
		{[]string{"retry"}, 0, "1 handled (their answers are queued for the daemon), 0 still parked"},
		{[]string{"list"}, 0, "no parked mail"},
		{[]string{"drop", "1"}, 1, "no parked mail 1"},
	}
	for _, st := range steps {
		code, out, e := navarch(append([]string{"parked", st.args[0], "-config", cfg}, st.args[1:]...)...)
		if code != st.code || !strings.Contains(out+e, st.want) {
			t.Errorf("parked %v: exit %d, want %d and %q:\n%s%s", st.args, code, st.code, st.want, out, e)
		}
	}
	// The mail is kept raw in the game, once, and readable by the operator.
	mails := []struct {
		args []string
		code int
		want string
	}{
		{[]string{tag}, 0, `1  `},
		{[]string{tag, "1"}, 0, raw},
		{[]string{tag, "2"}, 1, "has no mail 2"},
		{[]string{tag, "x"}, 2, "usage"},
		{[]string{"xyz-0000"}, 1, "xyz-0000"},
	}
	for _, m := range mails {
		code, out, e := navarch(append([]string{"game", "mail", "-config", cfg}, m.args...)...)
		if code != m.code || !strings.Contains(out+e, m.want) || m.code == 0 && m.args[0] == tag && len(m.args) == 1 &&
			(strings.Count(out, "\n") != 1 || !strings.Contains(out, `alice@example.org  "[navarch `+tag+`] where are we"  st@example.org`)) {
			t.Errorf("game mail %v: exit %d, want %d and %q:\n%s%s", m.args, code, m.code, m.want, out, e)
		}
	}
	// Parking told alice once; the retry answered her STATUS: two mails in reply to hers.
	s, err = store.Open(db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var replies []string
	s.View(func(tx *store.Tx) error {
		for _, e := range store.Outbox(tx) {
			if o, err := navmail.UnmarshalOutgoing(e.Mail); err == nil && o.InReplyTo == "st@example.org" {
				replies = append(replies, o.To[0]+" "+o.Subject)
			}
		}
		return nil
	})
	if len(replies) != 2 || !strings.HasPrefix(replies[0], "alice@example.org [navarch] your mail") || !strings.HasPrefix(replies[1], "alice@example.org [navarch "+tag+"]") {
		t.Errorf("replies to the parked mail: %q", replies)
	}
}
