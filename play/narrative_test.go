package play_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/play"
)

// TestReplayRederivesNarrative: a log whose readable account was rewritten (a roll's result,
// the item a draw reads as, an event's words), with every hash left consistent as a
// re-signing operator would leave it, is refused by replay at that record,
// finding 6): replay compares every record the engine writes, byte for byte.
func TestReplayRederivesNarrative(t *testing.T) {
	s, id, g := newHiddenGame(t)
	for n := 0; n < 12; n++ {
		stepBots(t, s, id, g, nil, false)
	}
	f, err := gamelog.ParseFile(export(t, s, id, ledger.View{Full: true}))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := play.Replay(f, rulesets)
	if err != nil || rep.Records == 0 || rep.Incomplete != "" {
		t.Fatalf("honest replay: %v, %d records re-derived, %q", err, rep.Records, rep.Incomplete)
	}
	edits := []struct {
		name, typ, field string
		edit             func(string) string
	}{
		{"a roll's result", gamelog.TypeRoll, "result", func(v string) string { return v + " (2M)" }},
		{"a draw's reading", gamelog.TypeRoll, "shown", func(v string) string { return strings.ToLower(v) }},
		{"an event's words", gamelog.TypeEvent, "text", func(v string) string { return "nothing happens" }},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			f, _ := gamelog.ParseFile(export(t, s, id, ledger.View{Full: true}))
			i := rewrite(t, f, e.typ, e.field, e.edit)
			_, err := play.Replay(f, rulesets)
			if err == nil || !regexp.MustCompile(`^record \d+ `).MatchString(err.Error()) || !strings.HasPrefix(err.Error(), "record "+strconv.FormatUint(i, 10)+" ") {
				t.Errorf("replay of a log with %s rewritten at record %d: %v", e.name, i, err)
			}
		})
	}
}

// rewrite changes the first record of typ that has field, as the readable log shows it, and
// returns its index.
func rewrite(t *testing.T, f *gamelog.File, typ, field string, edit func(string) string) uint64 {
	t.Helper()
	for i, e := range f.Entries {
		r := e.Record
		if r == nil || r.Type != typ || !r.Has(field) {
			continue
		}
		old := field + " " + r.Get(field) + "\n"
		raw := strings.Replace(string(r.Raw), old, field+" "+edit(r.Get(field))+"\n", 1)
		nr, err := gamelog.Parse([]byte(raw))
		if err != nil || raw == string(r.Raw) {
			continue
		}
		f.Entries[i].Record = &nr
		return e.Index
	}
	t.Fatalf("no %s record with %s to rewrite", typ, field)
	return 0
}
