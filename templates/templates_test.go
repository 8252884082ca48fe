package templates

import (
	"flag"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden mails")

var deadline = time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)

// samples are realistic mails of every kind.
func samples() map[string]Mail {
	base := func(body any) Mail {
		return Mail{Game: "lep-7f3a", Title: "Lion's at Sea", Player: "alice", Side: "christian", Zone: "Europe/Rome",
			Turn: 3, Act: 12, Deadline: deadline, LogSize: 214, LogHead: "4a9bc910cb93ee27", Body: body,
			Checkpoint: "-----BEGIN NAVARCH CHECKPOINT-----\ngame c646ef0e\nsize 214\nhead 4a9bc910\nsignature 77ab\n-----END NAVARCH CHECKPOINT-----\n"}
	}
	referee := func(m Mail) Mail { m.Player, m.Side = "", ""; return m }
	over := func(m Mail) Mail { m.Over = true; return m }
	block := "-----BEGIN NAVARCH CHECKPOINT-----\ngame c646ef0e\nsize 83\nhead 4a9b\nsignature c18f\n-----END NAVARCH CHECKPOINT-----\n"
	return map[string]Mail{
		"welcome": base(Welcome{Key: "k7q2-vv9d", Commitment: "ff2b261c", Verifier: "9826c82e", Checkpoint: block, Format: "navarch/v2",
			Players: []PlayerLine{{"alice", "christian"}, {"bob", "ottoman"}}, Help: "UNIT MOVE STEP...\nUNIT FIRE TARGET",
			ReplyTokens: true,
			Deadlines:   "You have 72 hours to answer each request for orders. If a side sends no orders in time, the game waits for the referee to decide."}),
		"refwelcome": referee(base(RefereeWelcome{Key: "m3xq-a7ty", Commitment: "ff2b261c", Verifier: "9826c82e", Checkpoint: block, Format: "navarch/v2",
			Players: []PlayerLine{{"alice", "christian"}, {"bob", "ottoman"}}, ReplyTokens: true,
			Deadlines: "You have 72 hours to answer each request for orders."})),
		"request": base(Request{What: "action phase of group BAR (Agostino Barbarigo)", Waiting: []string{"christian"},
			Units: []FormUnit{{ID: "BAR-LANT", Where: "0611", Facing: "N", Allowance: "4 MP (rowing)", May: []string{"PASS", "MOVE to 0610 0510", "FIRE at SIR-EGY1"}},
				{ID: "BAR-VEN1", Where: "0711", Facing: "N", Allowance: "4 MP (rowing)", May: []string{"PASS", "MOVE to 0710"}}},
			Default: "the group's units hold: no move, no fire, no repair", Lines: "BAR-LANT PASS\nBAR-VEN1 PASS\n", Map: "t3a12-christian.png"}),
		"receipt": base(Receipt{Record: 57, Hash: "855d8e29", Entropy: "the wind is fair", MessageID: "<1.2@alice.example>", Orders: "BAR-VEN1 MOVE 0610 FIRE SIR-EGY1\nBAR-VEN2 PASS\n",
			Held: "CAN-CAN1 MOVE 0812\n", Advance: true,
			Round: "The step's inputs are fixed. Its dice wait for round 28161742 of the public randomness beacon, published at 2026-12-01 09:05:00 UTC, which nobody, this server included, can know before."}),
		"errors": base(Errors{Lines: []ErrorLine{{Line: 2, Text: "BAR-VEN1 MOVE 0606 <script>", Reason: "not understood: \"<SCRIPT>\" is not a hex",
			Legal: "0609 0610"}}}),
		"report": base(Report{Lines: []ReportLine{{Index: 204, Rule: "5.5", Text: "Artillery fire: BAR-VEN1 at SIR-EGY1, fire value 0, d6 4: 1", Turn: 3, Act: 11},
			{Index: 201, Rule: "5.5", Text: "fire/BAR-VEN1>SIR-EGY1 d6 4", Roll: true, Turn: 3, Act: 11}},
			Next: "a draw from the cup", Summary: lepantoSummary("if the game ended now"), Map: "t3a12-christian.png",
			Used:    []string{"T3 A11, action phase of group CAN (Antonio da Canal): your advance orders were used, as record #198:\nCAN-CAN1 MOVE 0812"},
			TurnEnd: &TurnEnd{Turn: 2, Seed: "d442457884edd4e9", Checkpoint: block, Verifier: "9826c82e", LogFile: "lep-7f3a-christian.log"},
			Request: &Request{What: "action phase of group BAR (Agostino Barbarigo)", Waiting: []string{"christian"}}}),
		"reminder": base(Reminder{What: "the action phase of group BAR", Left: "12 hours"}),
		"late":     base(Late{What: "the action phase of group BAR", Default: "the group's units hold: no move, no fire, no repair"}),
		"nmr":      base(NMR{Side: "ottoman", Policy: "its units hold"}),
		"announcement": base(Announcement{By: "the referee (ref@example.net)", Text: []string{"The deadline for the action phase of group BAR is extended by 24 hours."},
			Deadline: deadline.Add(24 * time.Hour), What: "the action phase of group BAR"}),
		"turnend": base(TurnEnd{Turn: 2, Seed: "d442457884edd4e9", Checkpoint: block, Verifier: "9826c82e", LogFile: "lep-7f3a-christian.log"}),
		"gameend": over(base(GameEnd{Result: "Christian victory (40 VP)", Checkpoint: block, Export: "lep-7f3a.log", Verifier: "9826c82e", Format: "navarch/v2",
			Map: "lep-7f3a-christian.png", Summary: lepantoSummary("at the end")})),
		"history": base(History{Turns: []HistoryTurn{{Turn: 0, Events: []string{"Set-up: christian hides a leader."}},
			{Turn: 1, Events: []string{"BAR-VEN1 moves 0611→0711.", "Artillery fire: BAR-VEN1 at SIR-EGY1, fire value 0, d6 4: 1 hit, and a sentence long enough that it has to be wrapped at the width of plain-text mail."}}}}),
		"notice": base(Notice{Lines: []string{"You have joined the game.", "Waiting for: bob."}}),
	}
}

func TestEveryMailRenders(t *testing.T) {
	s := samples()
	for _, kind := range Kinds {
		m, ok := s[kind]
		if !ok {
			t.Errorf("no sample for %s", kind)
			continue
		}
		p, err := Render(kind, m)
		if err != nil {
			t.Errorf("%s: %v", kind, err)
			continue
		}
		for name, part := range map[string]string{"text": p.Text, "html": p.HTML} {
			if strings.Contains(part, "<no value>") || !strings.Contains(part, "lep-7f3a") || !strings.Contains(part, "alice") {
				t.Errorf("%s %s is incomplete:\n%s", kind, name, part)
			}
		}
		if !strings.Contains(p.Text, "-----BEGIN NAVARCH INFO-----\ngame lep-7f3a\nturn 3\nactivation 12\ndeadline 2026-12-01T18:00:00Z") {
			t.Errorf("%s text lacks the info block:\n%s", kind, p.Text)
		}
		golden(t, kind+".txt", p.Text)
	}
	if len(s) != len(Kinds) {
		t.Errorf("%d samples for %d kinds", len(s), len(Kinds))
	}
}

// golden compares a rendered mail with testdata/KIND.golden (go test -update rewrites them).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := "testdata/" + name + ".golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from its golden file:\n%s", name, got)
	}
}

// TestTurnEndNamesItsTurn: the seed is labelled with the turn it
// belongs to, not the turn under way when the mail is sent; the verify command is whole.
func TestTurnEndNamesItsTurn(t *testing.T) {
	p, err := Render("turnend", samples()["turnend"]) // sent during turn 3, revealing X_2
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"game turn 2 is over", "seed X_2  d442457884edd4e9",
		"navarch verify --key 9826c82e --checkpoint turn-2.eml lep-7f3a-christian.log"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("turn-over mail lacks %q:\n%s", want, p.Text)
		}
	}
}

// TestHTMLEscapesPlayerText: what a player wrote cannot become markup in the HTML part.
func TestHTMLEscapesPlayerText(t *testing.T) {
	p, err := Render("errors", samples()["errors"])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.HTML, "<script>") || !strings.Contains(p.HTML, "&lt;script&gt;") {
		t.Errorf("player text not escaped:\n%s", p.HTML)
	}
}

// TestEveryTemplateFileIsUsed: each file is a kind's mail or a partial the kinds call.
func TestEveryTemplateFileIsUsed(t *testing.T) {
	names, err := fs.Glob(files, "mail/*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{"mail/common.txt.tmpl": true, "mail/common.html.tmpl": true, "mail/help.html.tmpl": true}
	for _, k := range Kinds {
		used["mail/"+k+".txt.tmpl"], used["mail/"+k+".html.tmpl"] = true, true
	}
	for _, n := range names {
		if !used[n] {
			t.Errorf("template %s belongs to no kind of mail", n)
		}
		delete(used, n)
	}
	for n := range used {
		t.Errorf("template %s is missing", n)
	}
}

// TestWhenAcrossDaylightSaving: the same UTC hour reads 19:00 in a Roman winter and 20:00 in
// its summer.
func TestWhenAcrossDaylightSaving(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		zone string
		want string
	}{
		{deadline, "Europe/Rome", "Tue 1 Dec 2026 18:00 UTC (Tue 19:00 CET in Europe/Rome)"},
		{time.Date(2026, 7, 1, 18, 0, 0, 0, time.UTC), "Europe/Rome", "Wed 1 Jul 2026 18:00 UTC (Wed 20:00 CEST in Europe/Rome)"},
		{deadline, "America/New_York", "Tue 1 Dec 2026 18:00 UTC (Tue 13:00 EST in America/New_York)"},
		{deadline, "", "Tue 1 Dec 2026 18:00 UTC"},
		{deadline, "Not/AZone", "Tue 1 Dec 2026 18:00 UTC"},
		{time.Time{}, "Europe/Rome", "no deadline"},
	} {
		if got := when(c.t, c.zone); got != c.want {
			t.Errorf("when(%v, %q) = %q, want %q", c.t, c.zone, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	long := strings.Repeat("word ", 30)
	cases := []struct{ in, want string }{
		{"short line", "short line"},
		{"  " + long, "  " + long}, // indented: an example, left alone
		{strings.Repeat("x", 100), strings.Repeat("x", 100)},
		{"a\n" + strings.TrimSpace(long), "a\n" + strings.TrimSpace(strings.Repeat("word ", 15)) + "\n" + strings.TrimSpace(strings.Repeat("word ", 15))},
	}
	for _, c := range cases {
		if got := wrap(c.in); got != c.want {
			t.Errorf("wrap(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, line := range strings.Split(wrap(strings.TrimSpace(long)+" "+strings.Repeat("y", 20)), "\n") {
		if len(line) > wrapAt {
			t.Errorf("a wrapped line of %d characters: %q", len(line), line)
		}
	}
}

// TestReportCarriesRequest: a report with the turn's end and the next request is
// one mail with one greeting, one info block and one HTML page, which opens with the move
// asked for and its deadline.
func TestReportCarriesRequest(t *testing.T) {
	p, err := Render("report", samples()["report"])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		part, s string
		n       int
	}{
		{p.Text, "Dear alice", 1}, {p.Text, "-----BEGIN NAVARCH INFO-----", 1}, {p.Text, "Orders are due by", 1},
		{p.Text, "seed X_2  d442457884edd4e9", 1}, {p.HTML, "<html>", 1}, {p.HTML, "</html>", 1}, {p.HTML, "Orders are due by", 1},
	} {
		if got := strings.Count(c.part, c.s); got != c.n {
			t.Errorf("%q %d times, want %d:\n%s", c.s, got, c.n, c.part)
		}
	}
	// The move asked for is told at the top, before what happened (a phone shows the top).
	for _, part := range []string{p.Text, p.HTML} {
		if i, j := strings.Index(part, "Your move, by "), strings.Index(strings.ToLower(part), "what happened"); i < 0 || i > j {
			t.Errorf("the report does not open with the move asked for (at %d, what happened at %d):\n%s", i, j, part)
		}
	}
	if strings.Index(p.Text, "Artillery fire") > strings.Index(p.Text, "roll #201") {
		t.Errorf("the roll comes before its event:\n%s", p.Text)
	}
}

// lepantoSummary is a summary as Lepanto gives it: the positions, and the victory points as
// they stand (10.1) in a section of their own.
func lepantoSummary(when string) []Section {
	return []Section{
		{Heading: "Positions", Lines: []string{"BAR-VEN1  0610 NE HV 4 FV 4, fired, leader BARBARIGO", "SIR-EGY1  0609 S  HV 2 FV 3, Mast Down"}},
		{Heading: "Victory points (10.1)", Lines: []string{"Christian victory points " + when + ": 28, a Christian victory (21 or more)",
			"  +10 × 2 Christian groups with no damage", "  +2 × 4 Ottoman counters out of play"}},
		{Heading: "Empty", Lines: nil}, // not shown
	}
}

// TestSummarySections: a report and the game-over mail show each section of the ruleset's
// summary under its own heading, in both parts: Lepanto's victory points are not among the
// positions; a section without lines is left out.
func TestSummarySections(t *testing.T) {
	for _, kind := range []string{"report", "gameend"} {
		p, err := Render(kind, samples()[kind])
		if err != nil {
			t.Fatal(err)
		}
		heading := map[string]string{"report": "h4", "gameend": "h5"}[kind]
		html := p.HTML
		pos, vp := strings.Index(html, ">Positions</"+heading+">"), strings.Index(html, ">Victory points (10.1)</"+heading+">")
		if pos < 0 || vp < pos || strings.Contains(html[pos:vp], "victory points") || !strings.Contains(html[vp:], "<li>Christian victory points") {
			t.Errorf("%s html: the victory points are not a section of their own after the positions:\n%s", kind, html)
		}
		text := p.Text
		pos, vp = strings.Index(text, "\nPositions:\n  BAR-VEN1"), strings.Index(text, "\n\nVictory points (10.1):\n  Christian victory points")
		if pos < 0 || vp < pos || strings.Contains(text[pos:vp], "victory points") {
			t.Errorf("%s text: the victory points are not a section of their own after the positions:\n%s", kind, text)
		}
		if strings.Contains(html, "Empty") || strings.Contains(text, "Empty") {
			t.Errorf("%s: a section without lines is shown", kind)
		}
	}
}

// TestKeepWhole: an id in a page's text is kept on one line; tags, attributes, the style
// and the title are left as they are.
func TestKeepWhole(t *testing.T) {
	in := `<title>navarch BAR-LANT</title><style>p { font-family: sans-serif }</style><p><a href="cid:t3-BAR-X.png">BAR-LANT moves, set-up</a></p>`
	want := `<title>navarch BAR-LANT</title><style>p { font-family: sans-serif }</style><p><a href="cid:t3-BAR-X.png"><span style="white-space: nowrap">BAR-LANT</span> moves, set-up</a></p>`
	if got := keepWhole(in); got != want {
		t.Errorf("keepWhole:\n%s\nwant\n%s", got, want)
	}
}

// TestHelpEntries: the order help's two columns become an order's syntax with its
// description, continued lines joined; sentences stay sentences.
func TestHelpEntries(t *testing.T) {
	help := "Orders:\n" +
		"  UNIT MOVE STEP...     move (3). A STEP is\n" +
		"                        an adjacent hex.\n" +
		"  UNIT MOVE STEP... RAM TARGET [ONCE]\n" +
		"                        ram the enemy (6).\n" +
		"  CAPTAIN GROUP ON UNIT a captain goes aboard (4.4).\n" +
		"  A line may combine the segments in order: UNIT MOVE 1507 FIRE X.\n" +
		"  BAR-LANT MOVE 0611\n"
	want := []HelpEntry{{Text: "Orders:"}, {Code: "UNIT MOVE STEP...", Desc: "move (3). A STEP is an adjacent hex."},
		{Code: "UNIT MOVE STEP... RAM TARGET [ONCE]", Desc: "ram the enemy (6)."},
		{Code: "CAPTAIN GROUP ON UNIT", Desc: "a captain goes aboard (4.4)."},
		{Text: "A line may combine the segments in order: UNIT MOVE 1507 FIRE X."}, {Code: "BAR-LANT MOVE 0611"}}
	got := helpEntries(help)
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRequestWithReplyTokens: a request whose reply carries the key asks for no key.
func TestRequestWithReplyTokens(t *testing.T) {
	m := samples()["request"]
	m.ReplyTokens = true
	p, err := Render("request", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{p.Text, p.HTML} {
		if strings.Contains(part, "your key") || !strings.Contains(part, "needs no KEY line") {
			t.Errorf("a request with a tokenized reply asks for the key:\n%s", part)
		}
	}
}
