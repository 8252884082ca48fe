package ledger_test

import (
	"bytes"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// TestStandingUsedTeamSender: in v5 a team side's standing record names its side only, and
// StandingUsed reads its player, time and mail back from the sender record sealed after it;
// a one-player side's record names its player itself (forge.StandingUsedGame). The public
// copy and the Ottoman one, which hold both standing records from the close that used them
// on, name the one-player side's player and not the team's; the Venetian one names bob.
func TestStandingUsedTeamSender(t *testing.T) {
	s, c := forge.StandingUsedGame(t)
	err := s.View(func(tx *store.Tx) error {
		used, err := ledger.StandingUsed(tx, c.Game)
		if err != nil {
			return err
		}
		if len(used) != 2 || used[0].Player != "bob" || used[0].MessageID != "<bob@example.org>" || !used[0].Received.Equal(ledgertest.Clock) ||
			used[1].Player != "carol" || used[1].MessageID != "<carol@example.org>" {
			t.Fatalf("StandingUsed: %+v", used)
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
	for _, v := range []ledger.View{{}, {Side: "ottoman"}, {Side: "venice"}} {
		data, err := ledgertest.Export(s, c.Game, v)
		if err != nil {
			t.Fatal(err)
		}
		f, err := gamelog.ParseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
			t.Fatalf("%s: %v", v.Name(), rep.Failure)
		}
		after := data[bytes.Index(data, []byte("type start\n")):]
		after = after[bytes.Index(after, []byte("\n\n")):] // the start record lists who joined
		bob, carol := bytes.Contains(after, []byte("bob")), bytes.Contains(after, []byte("player carol\n"))
		if bob != (v.Side == "venice") || !carol {
			t.Errorf("%s after the start names bob %v, carol %v", v.Name(), bob, carol)
		}
	}
}
