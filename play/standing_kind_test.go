package play

import (
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger"
)

// TestApplyStandingByKind: in a v5 log each standing record holds standing orders of its own
// kind (docs/LOG-FORMAT.md 3): replay refuses a plain record that holds Lepanto's chit choice
// LEADERS STAY (a step applying the chit kind alone would have passed it over), and a v4
// record, which has no kind, holds any.
func TestApplyStandingByKind(t *testing.T) {
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	rec := func(kind string, lines ...string) []ledger.StandingOrders {
		return []ledger.StandingOrders{{Player: "alice", Side: "christian", Kind: kind, Lines: lines, Index: 7}}
	}
	if err := applyStanding(g, rec("", "HOLD FIRE BAR", "LEADERS STAY"), true); err == nil || !strings.Contains(err.Error(), `standing record 7 of kind "" holds "LEADERS STAY"`) {
		t.Errorf("a plain v5 record with LEADERS STAY: %v", err)
	}
	if err := applyStanding(g, rec(lepanto.KindChit, "HOLD FIRE BAR"), true); err == nil || !strings.Contains(err.Error(), `of kind "chit" holds "HOLD FIRE BAR"`) {
		t.Errorf("a chit v5 record with HOLD FIRE: %v", err)
	}
	for _, c := range []struct {
		kind   string
		lines  []string
		byKind bool
	}{{lepanto.KindChit, []string{"LEADERS STAY", "LET BURN BAR"}, true}, {"", []string{"HOLD FIRE BAR"}, true}, {"", []string{"HOLD FIRE BAR", "LEADERS STAY"}, false}} {
		if err := applyStanding(g, rec(c.kind, c.lines...), c.byKind); err != nil {
			t.Errorf("%q of kind %q (by kind %v): %v", c.lines, c.kind, c.byKind, err)
		}
	}
}
