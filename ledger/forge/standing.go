package forge

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// StandingScript is a v4 scripted game with standing orders (ledgertest.Script.Standing):
// bob's used by each turn's first step, alice's pending until its second.
func StandingScript() ledgertest.Script {
	sc := ledgertest.Small
	sc.Seed, sc.Standing = "standing", true
	return sc
}

// StandingBeacon is StandingScript in a beacon game, where bob also sends standing orders
// after the first step's round was named (past its cut).
func StandingBeacon() (ledgertest.Script, *beacontest.Beacon) {
	b := beacontest.New("standing", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := StandingScript()
	sc.Beacon = b
	return sc, b
}

// StandingCase is one forged standing log and the failure navarch verify gives it.
type StandingCase struct {
	Name  string
	Data  []byte
	Opts  gamelog.VerifyOptions // the pinned keys
	Index int64                 // the record the failure names
	Why   string                // words of navarch verify's reason
}

// StandingCases forges the standing logs: a close that leaves out a pending standing
// record, one that uses a record of a side its activation did not declare, one that uses a
// record past its cut, a used record without its unseal block in a later view, and a
// standing record whose commitment does not open; v5's kinds: a side/kind close that uses a
// record of another kind or leaves out one of its kind, a seal whose kind is not its
// record's, a mail that feeds two records of one kind, and kinds in a v4 log.
func StandingCases(t testing.TB) []StandingCase {
	full := NewGame(t, StandingScript(), ledger.View{Full: true})
	key := full.Key
	opts := gamelog.VerifyOptions{Key: full.Pub()}
	b := Blocks(full.Data)
	close2 := Find(t, b, "close", "turn 1\nactivation 2\n")
	close1 := Find(t, b, "close", "turn 1\nactivation 1\n")
	alice := Find(t, b, "sealed", "turn 1\nactivation 1\nside venice\nwhat standing")
	edit := func(b []string, i int, re, repl string) []string {
		c := append([]string(nil), b...)
		n := regexp.MustCompile(re).ReplaceAllString(c[i], repl)
		if n == c[i] {
			t.Fatalf("block %d: no %q", i, re)
		}
		c[i] = n
		return c
	}
	var out []StandingCase
	out = append(out, StandingCase{"close leaves out a pending standing record",
		Rechain(t, key, edit(b, close2, `(?m)^standing \d+\n?`, "")), opts, int64(close2 - 1), "every pending one"})
	// v5: the first step applies alice's standing orders of kind chit alone (venice/chit).
	act1 := Find(t, b, "activation", "turn 1\nactivation 1\n", "\nstanding ottoman venice/chit")
	chit := Find(t, b, "sealed", "turn 1\nactivation 1\nside venice\nwhat standing", "\nkind chit\n", "LEADERS STAY")
	out = append(out, StandingCase{"side/kind close uses a standing record of another kind",
		Rechain(t, key, edit(b, close1, `(?m)^(inputs-hash \w+)$`, "$1\nstanding "+strconv.Itoa(alice-1))), opts, int64(close1 - 1), "every pending one"})
	out = append(out, StandingCase{"close uses a standing record of an undeclared side",
		Rechain(t, key, edit(b, act1, `(?m) venice/chit$`, "")), opts, int64(close1 - 1), "every pending one"})
	out = append(out, StandingCase{"chit step's close leaves out a pending chit record",
		Rechain(t, key, edit(b, close1, `(?m)^standing `+strconv.Itoa(chit-1)+`\n?`, "")), opts, int64(close1 - 1), "every pending one"})
	// The seal shows the record's kind: one that hides it (a chit record passed off as plain,
	// so that a chit step need not list it) fails where the view holds the record.
	out = append(out, StandingCase{"seal's kind differs from its standing record's",
		Rechain(t, key, edit(b, chit, `(?m)^kind chit\n(\nunseal )`, "$1")), opts, int64(chit - 1), "sealed as kind"})
	// A mail feeds one standing record of each kind: alice's HOLD FIRE made a second chit
	// record of her mail fails there (the operator's addition under her Message-ID).
	twice := edit(b, alice, `(?m)^(commitment \w+)$`, "$1\nkind chit")
	twice = edit(twice, alice, `(?m)^(message-id .*)$`, "$1\nkind chit")
	out = append(out, StandingCase{"a mail feeds two standing records of one kind",
		Rechain(t, key, twice), opts, int64(chit - 1), "of each kind"})
	// A v4 log knows no kinds: neither side/kind entries nor kind fields.
	v4 := edit(b, 1, `\nformat `+gamelog.FormatV5+`\n`, "\nformat "+gamelog.FormatV4+"\n")
	out = append(out, StandingCase{"side/kind entry in a v4 log",
		Resign(t, key, Rechain(t, key, v4)), opts, int64(act1 - 1), "only in " + gamelog.FormatV5})
	out = append(out, StandingCase{"kind on a standing record in a v4 log",
		Resign(t, key, Rechain(t, key, edit(v4, act1, `(?m) venice/chit$`, " venice"))), opts, int64(chit - 1), "only in " + gamelog.FormatV5})

	// The record alice's mail gave, changed: its commitment does not open.
	out = append(out, StandingCase{"standing record whose commitment does not open",
		Join(edit(b, alice, `HOLD FIRE VEN-1`, "REACT VEN-1")), opts, int64(alice - 1), "does not open"})

	// bob's copy of the ended game's turn: alice's records used by the second steps must be
	// in it; without an unseal block, the copy hides what the close used.
	bob := NewGame(t, StandingScript(), ledger.View{Side: "ottoman"})
	bb := Blocks(bob.Data)
	ba := Find(t, bb, "sealed", "turn 1\nactivation 1\nside venice\nwhat standing")
	if !strings.Contains(bb[ba], "\n\nunseal ") {
		t.Fatalf("bob's copy lacks alice's used standing record %d", ba-1)
	}
	bc := Find(t, bb, "close", "turn 1\nactivation 2\n")
	out = append(out, StandingCase{"used standing record without its unseal block in a later view",
		Join(append(append(append([]string(nil), bb[:ba]...), Sealless(bb[ba:ba+1])...), bb[ba+1:]...)),
		gamelog.VerifyOptions{Key: bob.Pub()}, int64(bc - 1), "lacks"})

	// A beacon game: bob's standing record past the first step's cut (after its round
	// record) listed by that step's close.
	sc, beacon := StandingBeacon()
	bg := NewGame(t, sc, ledger.View{Full: true})
	gb := Blocks(bg.Data)
	late := Find(t, gb, "sealed", "turn 1\nactivation 1\nside ottoman\nwhat standing", "REACT OTT-1")
	c1 := Find(t, gb, "close", "turn 1\nactivation 1\n")
	c2 := Find(t, gb, "close", "turn 1\nactivation 2\n")
	moved := edit(gb, c1, `(?m)^(inputs-hash \w+)$`, "$1\nstanding "+strconv.Itoa(late-1))
	moved = edit(moved, c2, `(?m)^standing `+strconv.Itoa(late-1)+`\n?`, "")
	out = append(out, StandingCase{"close uses a standing record after its cut",
		Rechain(t, bg.Key, moved), gamelog.VerifyOptions{Key: bg.Pub(), BeaconKey: beacon.Chain.Key}, int64(c1 - 1), "every pending one"})
	return out
}
