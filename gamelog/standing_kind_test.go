package gamelog

import (
	"slices"
	"testing"
)

// TestStandingTokens: a step's standing entries as a log records them (docs/LOG-FORMAT.md 3,
// v5's standing orders by kind): sorted, once each, a side's kinds dropped beside the side's
// every kind; before v5 no side/kind entry (a v4 step applies every kind or none).
func TestStandingTokens(t *testing.T) {
	for _, c := range []struct {
		format string
		in     []string
		want   []string
	}{
		{FormatV5, []string{"venice/chit", "ottoman/chit"}, []string{"ottoman/chit", "venice/chit"}},
		{FormatV4, []string{"venice/chit", "ottoman/chit"}, nil},
		{FormatV4, []string{"venice", "ottoman", "venice"}, []string{"ottoman", "venice"}},
		{FormatV5, []string{"venice/chit", "venice", "ottoman/chit"}, []string{"ottoman/chit", "venice"}},
		{FormatV5, nil, nil},
	} {
		if got := StandingTokens(c.format, c.in); !slices.Equal(got, c.want) {
			t.Errorf("StandingTokens(%s, %q) = %q, want %q", c.format, c.in, got, c.want)
		}
	}
}

// TestStandingApplies: an entry "side" applies every kind of the side's, "side/kind" that
// kind alone (never the plain kind).
func TestStandingApplies(t *testing.T) {
	for _, c := range []struct {
		entries    []string
		side, kind string
		want       bool
	}{
		{[]string{"venice"}, "venice", "", true},
		{[]string{"venice"}, "venice", "chit", true},
		{[]string{"venice/chit"}, "venice", "chit", true},
		{[]string{"venice/chit"}, "venice", "", false},
		{[]string{"venice/chit"}, "venice", "other", false},
		{[]string{"ottoman", "venice/chit"}, "ottoman", "chit", true},
		{[]string{"ottoman/chit"}, "venice", "chit", false},
		{nil, "venice", "", false},
	} {
		if got := StandingApplies(c.entries, c.side, c.kind); got != c.want {
			t.Errorf("StandingApplies(%q, %s, %q) = %v, want %v", c.entries, c.side, c.kind, got, c.want)
		}
	}
}
