package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"navarch/gamelog"
)

// TestReportLines: each event comes before the rolls logged for it.
func TestReportLines(t *testing.T) {
	raw := []string{
		"type roll\nindex 40\nturn 2\nactivation 1\nseq 0\nlabel fire/BAR-VEN1>SIR-EGY1\ndice 1d6\nvalues 4\nrule 5.5\nresult fire value 0 (FV 4, - HV 4): 1\n",
		"type roll\nindex 41\nturn 2\nactivation 1\nseq 1\nlabel draw\ndice 1d3\nvalues 2\nas draw\nitems A B C\nshown B\nrule 2.1\n",
		"type event\nindex 42\nturn 2\nactivation 1\nrule 5.5\ntext Artillery fire: BAR-VEN1 at SIR-EGY1\n",
		"type event\nindex 43\nturn 2\nactivation 2\ntext another activation\n",
	}
	recs := parseRecords(t, raw)
	got := ReportLines(recs, 2, 1)
	want := []ReportLine{
		{Index: 42, Rule: "5.5", Text: "Artillery fire: BAR-VEN1 at SIR-EGY1", Turn: 2, Act: 1},
		{Index: 40, Rule: "5.5", Roll: true, Text: "fire/BAR-VEN1>SIR-EGY1 1d6 = 4: fire value 0 (FV 4, - HV 4): 1", Turn: 2, Act: 1},
		{Index: 41, Rule: "2.1", Roll: true, Text: "draw 1d3 = 2 (read as B)", Turn: 2, Act: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines: %+v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestReportLineWithoutRule: a roll or event that cites no rule (a card drawn in the medieval
// game's engine 0.2.0) shows no empty brackets, in the text and the HTML.
func TestReportLineWithoutRule(t *testing.T) {
	m := samples()["report"]
	m.Body = Report{Lines: []ReportLine{
		{Index: 8, Rule: "Sequence.2", Text: "card E-REAR/CC drawn"},
		{Index: 7, Roll: true, Text: "deck/1/0 1d18 = 9 (read as E-REAR/CC)"},
		{Index: 9, Text: "an event of no rule"},
	}}
	p, err := Render("report", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{p.Text, shown(p.HTML)} {
		if strings.Contains(part, "[]") {
			t.Errorf("empty brackets:\n%s", part)
		}
		for _, want := range []string{"#8 [Sequence.2] card E-REAR/CC drawn", "roll #7 deck/1/0 1d18", "#9 an event of no rule"} {
			if !strings.Contains(part, want) {
				t.Errorf("no %q in\n%s", want, part)
			}
		}
	}
}

// TestReportLinesPlaceEachRoll: the ledger logs all of a step's rolls before its events; in
// a v4 log each event names the rolls behind it, and each roll goes beneath its event, in
// the order the event names them; rolls no event names (a withheld event's, or a step's
// last rolls) follow the step's events. The events' words are never read for it.
func TestReportLinesPlaceEachRoll(t *testing.T) {
	raw := []string{
		"type roll\nindex 10\nturn 1\nactivation 1\nseq 0\nlabel event/athens\ndice 1d6\nvalues 1\nrule Event.table\n",
		"type roll\nindex 11\nturn 1\nactivation 1\nseq 1\nlabel initiative/1/athens\ndice 1d6\nvalues 6\nrule Initiative\n",
		"type roll\nindex 12\nturn 1\nactivation 1\nseq 2\nlabel fire/A1>S2\ndice 1d6\nvalues 4\nrule 5.5\n",
		"type roll\nindex 13\nturn 1\nactivation 1\nseq 3\nlabel fire/A2>S1\ndice 1d6\nvalues 2\nrule 5.5\n",
		"type roll\nindex 14\nturn 1\nactivation 1\nseq 4\nlabel deck/1/3\ndice 1d15\nvalues 2\nas draw\nitems E-VAN/SF1 E-VAN/SF2\nshown E-VAN/SF2\n",
		"type event\nindex 15\nturn 1\nactivation 1\nrule Event.navarch\ntext Standing order: NAVARCH A1\nkind told\n",
		"type event\nindex 16\nturn 1\nactivation 1\nrule Event.table\ntext Event roll\nroll event/athens\nkind change\n",
		"type event\nindex 17\nturn 1\nactivation 1\nrule 5.5\ntext A volley: both fire\nroll fire/A2>S1\nroll fire/A1>S2\nkind attack\n",
		"type event\nindex 18\nturn 1\nactivation 1\nrule Initiative\ntext Initiative athens fire/A1>S2\nkind routine\n",
		"type event\nindex 20\nturn 1\nactivation 1\nrule Sequence.2\ntext card E-VAN/SF2 drawn\nroll deck/1/3\nkind note\n",
	}
	recs := parseRecords(t, raw)
	var got []uint64
	lines := ReportLines(recs, 1, 1)
	for _, l := range lines {
		got = append(got, l.Index)
	}
	// 11 is behind an event withheld from this view (19): it follows the step's events.
	want := []uint64{15, 16, 10, 17, 13, 12, 18, 20, 14, 11}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines %v, want %v", got, want)
	}
	if lines[0].Kind != "told" || lines[3].Kind != "attack" || lines[2].Kind != "" {
		t.Errorf("kinds: %+v", lines)
	}
	// A log before v4: its events name no rolls; every roll follows the step's events, in
	// the order rolled, whatever the events say.
	var old []string
	for _, r := range raw {
		old = append(old, regexp.MustCompile(`(?m)^(roll|kind) .*\n`).ReplaceAllString(r, ""))
	}
	got = nil
	for _, l := range ReportLines(parseRecords(t, old), 1, 1) {
		got = append(got, l.Index)
	}
	if want := []uint64{15, 16, 17, 18, 20, 10, 11, 12, 13, 14}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a v3 step's lines %v, want %v", got, want)
	}
}

func parseRecords(t *testing.T, raw []string) []gamelog.Record {
	t.Helper()
	var recs []gamelog.Record
	for _, s := range raw {
		r, err := gamelog.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// shown is the text of an HTML page without its tags, as a reader sees it.
func shown(html string) string { return tagRE.ReplaceAllString(html, "") }

var tagRE = regexp.MustCompile(`<[^>]*>`)

// TestReportHeadedByItsSteps: a report is headed with the steps its records were resolved
// in, each step under its own heading in both parts, not with the step the game waits for
// next (the mail's own turn and activation).
func TestReportHeadedByItsSteps(t *testing.T) {
	m := samples()["report"] // the game waits for turn 3, activation 12
	m.Body = Report{Lines: []ReportLine{
		{Index: 30, Rule: "6.1", Text: "QUE-ELB rams SIR-EGY1", Turn: 1, Act: 3},
		{Index: 29, Rule: "6.1", Roll: true, Text: "ram/QUE-ELB>SIR-EGY1 1d6 = 5", Turn: 1, Act: 3},
		{Index: 33, Rule: "2.1", Text: "Game turn 2 begins", Turn: 2, Act: 0},
	}, Next: "a draw from the cup"}
	p, err := Render("report", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ part, first, second string }{
		{p.Text, "what happened in turn 1, activation 3:\n\n  #30", "then in turn 2, activation 0:\n\n  #33"},
		{shown(p.HTML), "What happened in turn 1, activation 3", "What happened in turn 2, activation 0"},
	} {
		i, j := strings.Index(c.part, c.first), strings.Index(c.part, c.second)
		if i < 0 || j < i || strings.Contains(c.part[j:], "#30") || !strings.Contains(c.part[i:j], "roll #29") {
			t.Errorf("the report is not headed by its steps:\n%s", c.part)
		}
		if strings.Contains(strings.ToLower(c.part), "happened in turn 3, activation 12") {
			t.Errorf("the report is headed with the step awaited:\n%s", c.part)
		}
	}
}

// TestReportLedByItsReceipt: the report of the step a player's orders completed leads with
// their receipt (one mail for the moment), in both parts, once: one greeting and one info
// block.
func TestReportLedByItsReceipt(t *testing.T) {
	m := samples()["report"]
	body := m.Body.(Report)
	body.Receipt = &Receipt{Record: 57, Hash: "855d8e29", MessageID: "<1.2@alice.example>", Orders: "BAR-VEN1 MOVE 0610\n"}
	m.Body = body
	p, err := Render("report", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ part, receipt, report string }{
		{p.Text, "your orders are accepted", "what happened in turn"},
		{shown(p.HTML), "Your orders are accepted", "What happened in turn"},
	} {
		i, j := strings.Index(c.part, c.receipt), strings.Index(c.part, c.report)
		if i < 0 || j < i || !strings.Contains(c.part[i:j], "BAR-VEN1 MOVE 0610") || !strings.Contains(c.part[i:j], "1.2@alice.example") {
			t.Errorf("the report does not lead with the receipt:\n%s", c.part)
		}
	}
	if n := strings.Count(p.Text, "Dear "); n != 1 || strings.Count(p.Text, "BEGIN NAVARCH INFO") != 1 {
		t.Errorf("%d greetings, %d info blocks in one mail:\n%s", n, strings.Count(p.Text, "BEGIN NAVARCH INFO"), p.Text)
	}
}
