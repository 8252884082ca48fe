package main

import (
	"log/slog"
	"strings"
	"testing"

	"navarch/host"
	"navarch/store"
)

// TestDroppedCommand: mail the daemon dropped unanswered (an auto-reply naming a game, a
// stranger's bulk mail) is listed by navarch dropped, with -game by game, and by navarch
// game mail among the game's mail.
func TestDroppedCommand(t *testing.T) {
	_, cfg, db := testConfig(t)
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 0 {
		t.Fatalf("game new: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	if code, out, _ := navarch("dropped", "-config", cfg); code != 0 || out != "no dropped mail\n" {
		t.Errorf("dropped with none: exit %d, %q", code, out)
	}
	s, err := store.Open(db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(s, rulesets, host.Config{Maps: maps, Address: "navarch@host.example", Domain: "navarch.host.example"}, slog.New(slog.DiscardHandler))
	for _, raw := range []string{
		"From: alice@example.org\r\nSubject: Out of office: [navarch " + tag + "] welcome\r\nMessage-ID: <ooo@example.org>\r\nAuto-Submitted: auto-replied\r\n\r\nAway.\r\n",
		"From: eve@example.net\r\nSubject: news\r\nMessage-ID: <news@example.net>\r\nPrecedence: bulk\r\n\r\nBuy.\r\n",
	} {
		if err := h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"dropped"}, []string{"1  ", "automatic  " + tag + "  alice@example.org", "auto-submitted (RFC 3834)", "2  ", "bulk       -  eve@example.net", "Precedence: bulk"}},
		{[]string{"dropped", "-game", tag}, []string{"alice@example.org"}},
		{[]string{"game", "mail"}, []string{"dropped  ", "alice@example.org", "ooo@example.org", "automatic: auto-submitted"}},
	} {
		args := append(append([]string{}, c.args...), "-config", cfg)
		if c.args[0] == "game" {
			args = append(args, tag)
		}
		code, out, e := navarch(args...)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, out, e)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in:\n%s", c.args, w, out)
			}
		}
		if c.args[0] != "dropped" || len(c.args) > 1 {
			if strings.Contains(out, "eve@example.net") {
				t.Errorf("%v lists mail naming no game:\n%s", c.args, out)
			}
		}
	}
}
