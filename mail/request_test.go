package mail

import (
	"errors"
	"strings"
	"testing"
)

func TestReadRequest(t *testing.T) {
	r, err := ReadRequest("Re: [navarch LEP-7f3a] T3 A5", "KEY k7q2-vv9d\n\nBAR-VEN1 MOVE 0610  # first\nENTROPY dice please\nBAR-VEN2 PASS\nEND\nignored")
	if err != nil {
		t.Fatal(err)
	}
	if r.Game != "lep-7f3a" || r.Key != "k7q2-vv9d" || r.Command != CmdOrders || r.Entropy != "dice please" {
		t.Errorf("request %+v", r)
	}
	if len(r.Orders) != 2 || r.Orders[0] != (Line{3, "BAR-VEN1 MOVE 0610"}) || r.Orders[1].N != 5 {
		t.Errorf("orders %+v", r.Orders)
	}
	if got := r.OrderText(); got != "\n\nBAR-VEN1 MOVE 0610\n\nBAR-VEN2 PASS" {
		t.Errorf("OrderText = %q: line numbers must stay the mail's", got)
	}
	for text, want := range map[string]Request{
		"JOIN  my random words\nKEY k": {Command: CmdJoin, Entropy: "my random words", Key: "k"},
		"help":                         {Command: CmdHelp},
		"STATUS FULL\nGAME lep-1":      {Command: CmdStatus, Args: []string{"FULL"}, Game: "lep-1"},
		"GAME Lep-1 t1 a2\nSTATUS":     {Command: CmdStatus, Game: "lep-1", At: "T1 A2"}, // the step meant
		"ABSENT 2026-12-01 2026-12-05": {Command: CmdAbsent, Args: []string{"2026-12-01", "2026-12-05"}},
		"EXTEND 24\n# the referee":     {Command: CmdExtend, Args: []string{"24"}},
		"history\nKEY k":               {Command: CmdHistory, Key: "k"},
		"DIGEST on":                    {Command: CmdDigest, Args: []string{"on"}},
	} {
		got, err := ReadRequest("", text)
		if err != nil || got.Command != want.Command || got.Entropy != want.Entropy || got.Game != want.Game ||
			strings.Join(got.Args, " ") != strings.Join(want.Args, " ") || got.Key != want.Key {
			t.Errorf("ReadRequest(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	check, err := ReadRequest("", "CHECK\nBAR-VEN1 MOVE 0610")
	if err != nil || check.Command != CmdCheck || len(check.Orders) != 1 {
		t.Errorf("CHECK with orders: %+v, %v", check, err)
	}
}

func TestReadRequestRefuses(t *testing.T) {
	for _, text := range []string{"", "KEY k\n# nothing else", "HELP\nBAR-VEN1 MOVE 0610", "STATUS\nJOIN"} {
		if _, err := ReadRequest("", text); !errors.Is(err, ErrRequest) {
			t.Errorf("ReadRequest(%q) = %v, want ErrRequest", text, err)
		}
	}
}

func TestReadNewGame(t *testing.T) {
	r, err := ReadRequest("new game", "NEWGAME lions-at-sea\nPLAYER a christian a@x.org\n# a comment\nDEADLINE 48\n")
	if err != nil || r.Command != CmdNewGame || len(r.Args) != 1 || r.Args[0] != "lions-at-sea" || len(r.Orders) != 2 ||
		r.Orders[0] != (Line{2, "PLAYER a christian a@x.org"}) || r.Orders[1] != (Line{4, "DEADLINE 48"}) {
		t.Errorf("NEWGAME request: %+v, %v", r, err)
	}
}

// A command with a signature under it counts; any other line after a command refuses the
// mail, naming the line and how to end a mail.
func TestReadRequestAfterCommand(t *testing.T) {
	for _, text := range []string{"JOIN\nSent from my iPhone", "JOIN dice\nThanks,", "STATUS\n-- ", "JOIN\nViele Grüße"} {
		if r, err := ReadRequest("", text); err != nil || r.Command == "" || r.Command == CmdOrders {
			t.Errorf("ReadRequest(%q) = %+v, %v; want the command", text, r, err)
		}
	}
	_, err := ReadRequest("", "JOIN\n\nDI lunedì 30 novembre")
	if err == nil || !strings.Contains(err.Error(), `line 3, "DI lunedì 30 novembre"`) || !strings.Contains(err.Error(), "END") {
		t.Errorf("stray line after JOIN: %v", err)
	}
}

// Look-alike letters in order lines and header words are read as Latin, and said so.
func TestReadRequestLookalikes(t *testing.T) {
	r, err := ReadRequest("", "КЕY k7q2\nВАR-VЕN1 МОVЕ 0610\nBAR-LANT PASS")
	if err != nil || r.Key != "k7q2" || len(r.Orders) != 2 || r.Orders[0].Text != "BAR-VEN1 MOVE 0610" || len(r.Folded) != 1 || r.Folded[0] != 2 {
		t.Errorf("request %+v, %v", r, err)
	}
}

// What phones and players add around request lines: a colon after a header word, a list
// bullet before a line.
func TestReadRequestLenient(t *testing.T) {
	r, err := ReadRequest("", "Key: k7q2\nGAME: lep-1\n• BAR-LANT PASS\n- BAR-VEN1 MOVE 0610\n* BAR-VEN2 PASS")
	if err != nil || r.Key != "k7q2" || r.Game != "lep-1" || len(r.Orders) != 3 || r.Orders[0].Text != "BAR-LANT PASS" ||
		r.Orders[1].Text != "BAR-VEN1 MOVE 0610" || r.Orders[2].Text != "BAR-VEN2 PASS" {
		t.Errorf("request %+v, %v", r, err)
	}
	if r, _ := ReadRequest("", "- -- x\nBAR: PASS"); len(r.Orders) != 2 || r.Orders[0].Text != "- -- x" || r.Orders[1].Text != "BAR: PASS" {
		t.Errorf("a dash line or a unit with a colon changed: %+v", r.Orders)
	}
}
