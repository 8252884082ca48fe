package ledger_test

import (
	"bytes"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// TestStandingUsedTeamSender: in v5 a team side's standing record names its side only, and
// StandingUsed reads its player, time and mail back from the sender record sealed after it;
// a one-player side's record names its player itself. The public copy, once the close has
// unsealed both standing records, names the one-player side's player and not the team's.
func TestStandingUsedTeamSender(t *testing.T) {
	s := newStore(t)
	sp := spec
	sp.Players = []ledger.Player{{ID: "alice", Side: "venice"}, {ID: "bob", Side: "venice"}, {ID: "carol", Side: "ottoman"}}
	sp.Commands = []ledger.Assignment{{Side: "venice", Player: "alice", Commander: true}, {Side: "ottoman", Player: "carol", Commander: true}}
	var c ledger.Created
	err := s.Update(func(tx *store.Tx) error {
		var err error
		if c, err = ledger.Create(tx, sp, ledgertest.Rand(t.Name())); err != nil {
			return err
		}
		if _, err := ledger.Start(tx, c.Game, true); err != nil {
			return err
		}
		if err := ledger.Open(tx, c.Game, ledger.Activation{Turn: 1, Act: 1, What: "draw", Standing: []string{"ottoman", "venice"}}); err != nil {
			return err
		}
		for _, p := range []string{"bob", "carol"} {
			if _, err := ledger.RecordStanding(tx, c.Game, ledger.StandingOrders{Player: p, Lines: []string{"HOLD FIRE X"}, Received: ledgertest.Clock,
				MessageID: "<" + p + "@example.org>"}); err != nil {
				return err
			}
		}
		if _, err := ledger.Close(tx, c.Game, 1, 1, nil); err != nil {
			return err
		}
		used, err := ledger.StandingUsed(tx, c.Game)
		if err != nil {
			return err
		}
		if len(used) != 2 || used[0].Player != "bob" || used[0].MessageID != "<bob@example.org>" || !used[0].Received.Equal(ledgertest.Clock) ||
			used[1].Player != "carol" || used[1].MessageID != "<carol@example.org>" {
			t.Errorf("StandingUsed: %+v", used)
		}
		for i, want := range map[uint64]uint64{used[0].Index: used[0].Index + 1, used[1].Index: 0} {
			if got, err := ledger.SenderRecord(tx, c.Game, i); err != nil || got != want {
				t.Errorf("SenderRecord(%d) = %d, %v; want %d", i, got, err, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, c.Game, ledger.View{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Fatalf("public copy: %v", rep.Failure)
	}
	after := data[bytes.Index(data, []byte("type start\n")):]
	after = after[bytes.Index(after, []byte("\n\n")):] // the start record lists who joined
	if bytes.Contains(after, []byte("bob")) || !bytes.Contains(after, []byte("player carol\n")) {
		t.Errorf("the public copy after the start names bob %v, carol %v", bytes.Contains(after, []byte("bob")), bytes.Contains(after, []byte("player carol\n")))
	}
}
