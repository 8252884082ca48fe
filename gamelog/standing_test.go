package gamelog_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// standingScript is a v4 scripted game with standing orders (ledgertest.Script.Standing):
// bob's used by each turn's first step, alice's pending until its second.
func standingScript() ledgertest.Script {
	sc := ledgertest.Small
	sc.Seed, sc.Standing = "standing", true
	return sc
}

// standingBeacon is standingScript in a beacon game, where bob also sends standing orders
// after the first step's round was named (past its cut).
func standingBeacon() (ledgertest.Script, *beacontest.Beacon) {
	b := beacontest.New("standing", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := standingScript()
	sc.Beacon = b
	return sc, b
}

// TestStandingHonest: the honest standing games verify in every view, each close listing
// the standing records it uses (docs/LOG-FORMAT.md 3, v4's standing orders).
func TestStandingHonest(t *testing.T) {
	sc, b := standingBeacon()
	for _, c := range []struct {
		name string
		sc   ledgertest.Script
		key  []byte
	}{{"plain", standingScript(), nil}, {"beacon", sc, b.Chain.Key}} {
		for _, v := range []ledger.View{{Full: true}, {Side: "ottoman"}, {Side: "venice"}, {}} {
			g := newGame(t, c.sc, v)
			rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: c.key})
			if err != nil || !rep.OK() {
				t.Fatalf("%s %s: %v %v", c.name, v.Name(), err, rep.Failure)
			}
			if n := strings.Count(string(g.Data), "\nstanding "); n < 6 {
				t.Errorf("%s %s: %d standing fields, want the closes to list the standing records", c.name, v.Name(), n)
			}
		}
	}
}

// TestStandingTampered: an operator's changes to the standing orders' place in the log fail
// verify (the same cases run through the browser verifier in webverify).
func TestStandingTampered(t *testing.T) {
	for _, c := range StandingCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			idx, why := failure(t, c.Data, c.Opts)
			if idx != c.Index || !strings.Contains(why, c.Why) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, c.Index, c.Why)
			}
		})
	}
}

// standingCase is one forged standing log and the failure it must give.
type standingCase struct {
	Name  string
	Data  []byte
	Opts  gamelog.VerifyOptions
	Index int64
	Why   string
}

// StandingCases forges the standing logs: a close that leaves out a pending standing
// record, one that uses a record of a side its activation did not declare, one that uses a
// record past its cut, a used record without its unseal block in a later view, and a
// standing record whose commitment does not open.
func StandingCases(t *testing.T) []standingCase {
	full := newGame(t, standingScript(), ledger.View{Full: true})
	key := full.Key
	opts := gamelog.VerifyOptions{Key: full.Pub()}
	b := forge.Blocks(full.Data)
	close2 := forge.Find(t, b, "close", "turn 1\nactivation 2\n")
	close1 := forge.Find(t, b, "close", "turn 1\nactivation 1\n")
	alice := forge.Find(t, b, "sealed", "turn 1\nactivation 1\nside venice\nwhat standing")
	edit := func(b []string, i int, re, repl string) []string {
		c := append([]string(nil), b...)
		n := regexp.MustCompile(re).ReplaceAllString(c[i], repl)
		if n == c[i] {
			t.Fatalf("block %d: no %q", i, re)
		}
		c[i] = n
		return c
	}
	var out []standingCase
	out = append(out, standingCase{"close leaves out a pending standing record",
		forge.Rechain(t, key, edit(b, close2, `(?m)^standing \d+\n?`, "")), opts, int64(close2 - 1), "every pending one"})
	out = append(out, standingCase{"close uses a standing record of an undeclared side",
		forge.Rechain(t, key, edit(b, close1, `(?m)^(inputs-hash \w+)$`, "$1\nstanding "+itoa(alice-1))), opts, int64(close1 - 1), "every pending one"})

	// The record alice's mail gave, changed: its commitment does not open.
	out = append(out, standingCase{"standing record whose commitment does not open",
		forge.Join(edit(b, alice, `HOLD FIRE VEN-1`, "REACT VEN-1")), opts, int64(alice - 1), "does not open"})

	// bob's copy of the ended game's turn: alice's records used by the second steps must be
	// in it; without an unseal block, the copy hides what the close used.
	bob := newGame(t, standingScript(), ledger.View{Side: "ottoman"})
	bb := forge.Blocks(bob.Data)
	ba := forge.Find(t, bb, "sealed", "turn 1\nactivation 1\nside venice\nwhat standing")
	if !strings.Contains(bb[ba], "\n\nunseal ") {
		t.Fatalf("bob's copy lacks alice's used standing record %d", ba-1)
	}
	bc := forge.Find(t, bb, "close", "turn 1\nactivation 2\n")
	out = append(out, standingCase{"used standing record without its unseal block in a later view",
		forge.Join(append(append(append([]string(nil), bb[:ba]...), forge.Sealless(bb[ba:ba+1])...), bb[ba+1:]...)),
		gamelog.VerifyOptions{Key: bob.Pub()}, int64(bc - 1), "lacks"})

	// A beacon game: bob's standing record past the first step's cut (after its round
	// record) listed by that step's close.
	sc, beacon := standingBeacon()
	bg := newGame(t, sc, ledger.View{Full: true})
	gb := forge.Blocks(bg.Data)
	late := forge.Find(t, gb, "sealed", "turn 1\nactivation 1\nside ottoman\nwhat standing", "REACT OTT-1")
	c1 := forge.Find(t, gb, "close", "turn 1\nactivation 1\n")
	c2 := forge.Find(t, gb, "close", "turn 1\nactivation 2\n")
	moved := edit(gb, c1, `(?m)^(inputs-hash \w+)$`, "$1\nstanding "+itoa(late-1))
	moved = edit(moved, c2, `(?m)^standing `+itoa(late-1)+`\n?`, "")
	out = append(out, standingCase{"close uses a standing record after its cut",
		forge.Rechain(t, bg.Key, moved), gamelog.VerifyOptions{Key: bg.Pub(), BeaconKey: beacon.Chain.Key}, int64(c1 - 1), "every pending one"})
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

