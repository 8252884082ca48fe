package host

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
)

// TestStandingBetweenStepsEachRuleset: in Oi Navarcoi! and the medieval rules too, a standing
// order mailed while only the other side is asked is taken at once, sealed from the other
// side's copy, and in force after the next step that applies its side's standing orders
// (docs/OINAVARCOI.md, docs/MEDIEVAL.md "Standing orders and the steps that use them").
func TestStandingBetweenStepsEachRuleset(t *testing.T) {
	for _, c := range []struct {
		rs       adjudicator.Ruleset
		scenario string
		line     func(g adjudicator.Game, side string) string
		inForce  func(g adjudicator.Game, side string) bool
	}{
		{oinavarcoi.Ruleset, "clash", func(g adjudicator.Game, side string) string {
			for _, s := range g.(*oinavarcoi.Game).Squadrons {
				if s.Side == side && !s.Freighter {
					return "OMEN " + s.ID
				}
			}
			return ""
		}, func(g adjudicator.Game, side string) bool {
			return len(g.(*oinavarcoi.Game).OmenPrefer[0]) > 0
		}},
		{medieval.Ruleset, "", func(g adjudicator.Game, side string) string {
			for _, s := range g.(*medieval.Game).Ships {
				if s.Side == side && !s.NoGrapple {
					return s.ID + " NOGRAPPLE"
				}
			}
			return ""
		}, func(g adjudicator.Game, side string) bool {
			for _, s := range g.(*medieval.Game).Ships {
				if s.Side == side && s.NoGrapple {
					return true
				}
			}
			return false
		}},
	} {
		t.Run(c.rs.ID(), func(t *testing.T) {
			f, keys := joinedFixture(t, c.rs, c.scenario)
			sides := c.rs.Scenarios()[0].Sides
			for _, sc := range c.rs.Scenarios() {
				if sc.ID == c.scenario {
					sides = sc.Sides
				}
			}
			alice, bob := sides[0], sides[1]
			f.playUntil(keys, func(st adjudicator.Step) bool {
				return st.Kind == adjudicator.NeedOrders && slices.Equal(st.Sides, []string{bob}) && !st.Secret
			})
			line := c.line(f.engineNow(), alice)
			if line == "" || c.inForce(f.engineNow(), alice) {
				t.Fatalf("no standing order to give (%q), or one in force already", line)
			}
			f.outbox()
			f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\n"+line)
			mails := f.outbox()
			if len(mails) != 1 || !strings.Contains(mails[0].Text, "Your standing orders are accepted as record") {
				t.Fatalf("want the receipt of standing orders, got %v:\n%s", subjects(mails), texts(mails))
			}
			if bytes.Contains(f.sideExport(bob), []byte(line)) {
				t.Errorf("%s's copy holds %s's standing order before its use", bob, alice)
			}
			f.playUntil(keys, func(adjudicator.Step) bool { return c.inForce(f.engineNow(), alice) })
			if !bytes.Contains(f.sideExport(bob), []byte("line "+line)) {
				t.Errorf("%s's copy lacks the standing record after the step that used it", bob)
			}
			f.checkLog()
		})
	}
}
