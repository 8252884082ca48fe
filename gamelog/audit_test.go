package gamelog_test

import (
	"os"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestV1RefusedUnlessAllowed: a log of format v1 (the README's old example) fails without
// --allow-v1, so that a daemon patched to create new games as v1 cannot bring back v1's
// grinding of the dice (docs/LOG-FORMAT.md 9); with it, the log verifies with a note.
func TestV1RefusedUnlessAllowed(t *testing.T) {
	data, err := os.ReadFile("../docs/example/v1/game.log")
	if err != nil {
		t.Fatal(err)
	}
	idx, why := failure(t, data, gamelog.VerifyOptions{TrustLogKey: true})
	if idx != 0 || !strings.Contains(why, "--allow-v1") {
		t.Errorf("failure at %d: %s; want the genesis refused, naming --allow-v1", idx, why)
	}
	idx, why = failure(t, data, gamelog.VerifyOptions{TrustLogKey: true, AllowV1: true, Format: gamelog.FormatV2})
	if idx != 0 || !strings.Contains(why, "--format") {
		t.Errorf("with --allow-v1 --format %s: failure at %d: %s; want the genesis refused", gamelog.FormatV2, idx, why)
	}
	rep, err := verifyData(t, data, gamelog.VerifyOptions{TrustLogKey: true, AllowV1: true})
	if err != nil || !rep.OK() || !strings.Contains(strings.Join(rep.Notes, "\n"), "--allow-v1") {
		t.Errorf("with --allow-v1: %v %v, notes %q", err, rep.Failure, rep.Notes)
	}
}

// TestUnsealBlocksRequiredAfterTheEnd: once the game has ended every view carries every
// unseal block (docs/LOG-FORMAT.md 4), so a side's copy (or the full view) without one
// fails; before the end a side's copy without the other side's seals verifies.
func TestUnsealBlocksRequiredAfterTheEnd(t *testing.T) {
	over := ledgertest.Small
	over.End = true
	for _, view := range []ledger.View{{Full: true}, {Side: "venice"}, {}} {
		g := newGame(t, over, view)
		b := forge.Blocks(g.Data)
		if !strings.Contains(string(g.Data), "\nunseal ") {
			t.Fatalf("view %s: no unseal block in the honest export", view.Name())
		}
		idx, why := failure(t, forge.Join(forge.Sealless(b)), gamelog.VerifyOptions{Key: g.Pub()})
		if idx < 1 || !strings.Contains(why, "the game is over") {
			t.Errorf("view %s: failure at %d: %s; want the first sealed record named", view.Name(), idx, why)
		}
	}
	g := newGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()})
	if err != nil || !rep.OK() || rep.Withheld == 0 {
		t.Errorf("venice's copy before the end: %v %v, %d withheld", err, rep.Failure, rep.Withheld)
	}
}

// TestHeldAdvanceOrdersVerify: a scripted game whose second activation of each turn uses
// advance orders held from the mail of the first ("held yes", one Message-ID for two
// records) verifies, with that mail among alice's sent mail; the same log with the marks
// taken off fails at the first record that reuses a Message-ID.
func TestHeldAdvanceOrdersVerify(t *testing.T) {
	sc := ledgertest.Script{Seed: "held", Turns: 3, Activations: 2, Rolls: 2, Reveal: -1, End: true, Held: true}
	g := newGame(t, sc, ledger.View{Full: true})
	if n := strings.Count(string(g.Data), "\nheld yes\n"); n != 2 {
		t.Fatalf("%d held records, want 2 (turns 2 and 3)", n)
	}
	rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()})
	if err != nil || !rep.OK() {
		t.Fatalf("%v %v", err, rep.Failure)
	}
	b := forge.Blocks(g.Data)
	for i := range b {
		b[i] = strings.Replace(b[i], "\nheld yes", "", 1)
	}
	idx, why := failure(t, forge.Resign(t, g.Key, forge.Rechain(t, g.Key, b)), gamelog.VerifyOptions{Key: g.Pub()})
	if idx < 1 || !strings.Contains(why, "already fed orders record") {
		t.Errorf("unmarked: failure at %d: %s", idx, why)
	}
}
