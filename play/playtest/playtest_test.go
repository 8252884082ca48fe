package playtest_test

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/adjudicator/duel"
	"navarch/gamelog"
	"navarch/play/playtest"
)

// failures runs fn against a recorder and returns what it reported.
func failures(t *testing.T, fn func(tb testing.TB)) string { return adjtest.Failures(t, fn) }

// rules wraps the duel, its games made by wrap.
type rules struct {
	adjudicator.Ruleset
	wrap func(*duel.Game) adjudicator.Game
}

func (r rules) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	g, err := r.Ruleset.New(cfg)
	if err != nil {
		return nil, err
	}
	return r.wrap(g.(*duel.Game)), nil
}

// flaky encodes differently each time it is asked.
type flaky struct {
	*duel.Game
	n int
}

func (f *flaky) Encode() []byte { f.n++; return append(f.Game.Encode(), byte(f.n)) }

// misprinted prints its orders in words its own Parse does not read.
type misprinted struct{ *duel.Game }

type shout struct{ adjudicator.Order }

func (shout) String() string { return "SHOOT" }

func (m misprinted) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	orders, errs := m.Game.Parse(side, text)
	for i := range orders {
		orders[i] = shout{orders[i]}
	}
	return orders, errs
}

// botless has no bot.
type botless struct{ adjudicator.Game }

func conform(rs adjudicator.Ruleset, o adjudicator.Config, maxSteps int) func(testing.TB) {
	return func(tb testing.TB) {
		playtest.Conformance(tb, rs, playtest.Options{Config: o, Seed: "harness", MaxSteps: maxSteps})
	}
}

// TestConformanceCatches: each property the harness checks fails for a ruleset that breaks it.
func TestConformanceCatches(t *testing.T) {
	short := adjudicator.Config{Scenario: "short"}
	for _, c := range []struct {
		name string
		run  func(testing.TB)
		want string
	}{
		{"sound", conform(duel.Ruleset, short, 0), ""},
		{"encode", conform(rules{duel.Ruleset, func(g *duel.Game) adjudicator.Game { return &flaky{Game: g} }}, short, 0), "differs"},
		{"round trip", conform(rules{duel.Ruleset, func(g *duel.Game) adjudicator.Game { return misprinted{g} }}, short, 0), "do not survive Parse(String())"},
		{"bot", conform(rules{duel.Ruleset, func(g *duel.Game) adjudicator.Game { return botless{g} }}, short, 0), "no bot"},
		{"end", conform(duel.Ruleset, adjudicator.Config{Scenario: "long"}, 2), "has not ended after 2 steps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := failures(t, c.run)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("reported %q, want %q", got, c.want)
			}
		})
	}
}

// TestKindsAreTheLogs: the kinds the engine gives its events are those the log format lets
// an event record name (gamelog.EventKinds, docs/LOG-FORMAT.md 3), in the same order.
func TestKindsAreTheLogs(t *testing.T) {
	var kinds []string
	for _, k := range adjudicator.Kinds {
		kinds = append(kinds, string(k))
	}
	if !slices.Equal(kinds, gamelog.EventKinds) {
		t.Errorf("adjudicator.Kinds %v, gamelog.EventKinds %v", kinds, gamelog.EventKinds)
	}
}
