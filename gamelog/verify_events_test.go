package gamelog_test

import (
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestEventLinks: a v4 event names the rolls behind it and its kind, and verify holds the
// operator to them: a roll of another step, one not yet rolled or not rolled at all, a roll
// behind two events, a kind not in the list, and either field in a log before v4 each fail
// at the event; the honest log passes (TestHonestLogsVerify).
func TestEventLinks(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	first := forge.Find(t, b, "event", "turn 2\nactivation 1\n", "roll fire/VEN-1>OTT-1/0\n")
	second := forge.Find(t, b, "event", "turn 2\nactivation 1\n", "roll fire/VEN-1>OTT-1/2\n")
	edit := func(c []string, i int, old, new string) []string {
		c = forge.Clone(c)
		if !strings.Contains(c[i], old) {
			t.Fatalf("record %d has no %q", i-1, old)
		}
		c[i] = strings.Replace(c[i], old, new, 1)
		return c
	}
	v3 := edit(b, 1, "\nformat "+gamelog.FormatV5+"\n", "\nformat "+gamelog.FormatV3+"\n")
	for _, c := range []struct {
		name string
		b    []string
		at   int
		why  string
	}{
		{"a roll of another step", edit(b, first, "roll fire/VEN-1>OTT-1/0", "roll fire/VEN-2>OTT-1/0"), first, "did not roll before it"},
		{"a roll made after the event", edit(b, first, "roll fire/VEN-1>OTT-1/0", "roll fire/VEN-1>OTT-1/1"), first, "did not roll before it"},
		{"a roll behind two events", edit(b, second, "roll fire/VEN-1>OTT-1/2", "roll fire/VEN-1>OTT-1/0"), second, "behind two events"},
		{"the same roll twice in an event", edit(b, first, "roll fire/VEN-1>OTT-1/0\n", "roll fire/VEN-1>OTT-1/0\nroll fire/VEN-1>OTT-1/0\n"), first, "behind two events"},
		{"a kind not in the list", edit(b, first, "kind hit", "kind victory"), first, "not an event kind"},
		{"the fields in a v3 log", v3, forge.Find(t, v3, "event", "roll "), "belong to navarch/v4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := verifyData(t, forge.Resign(t, g.Key, forge.Rechain(t, g.Key, c.b)), gamelog.VerifyOptions{TrustLogKey: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failure == nil || rep.Failure.Index != int64(c.at-1) || !strings.Contains(rep.Failure.Reason, c.why) {
				t.Fatalf("verify: %+v; want the failure %q at record %d", rep.Failure, c.why, c.at-1)
			}
		})
	}
}
