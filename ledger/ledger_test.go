package ledger_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

func newStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var spec = ledger.Spec{Ruleset: "lepanto1571", Scenario: "13.1", Engine: "test", MaxTurns: 4,
	Players: []ledger.Player{{ID: "alice", Side: "venice"}, {ID: "bob", Side: "ottoman"}}, Created: ledgertest.Clock}

func create(t *testing.T, s *store.Store) ledger.Created {
	t.Helper()
	var c ledger.Created
	if err := s.Update(func(tx *store.Tx) error {
		var err error
		c, err = ledger.Create(tx, spec, ledgertest.Rand(t.Name()))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCreateRefusesBadSpecs(t *testing.T) {
	s := newStore(t)
	bad := []func(*ledger.Spec){
		func(sp *ledger.Spec) { sp.Ruleset = "Lepanto 1571" },
		func(sp *ledger.Spec) { sp.Players = nil },
		func(sp *ledger.Spec) { sp.Players = append(sp.Players, ledger.Player{ID: "alice", Side: "x"}) },
		func(sp *ledger.Spec) { sp.Players = []ledger.Player{{ID: "al ice", Side: "venice"}} },
		func(sp *ledger.Spec) { sp.MaxTurns = 0 },
		func(sp *ledger.Spec) { sp.MaxTurns = gamelog.MaxTurns },
	}
	for i, mod := range bad {
		sp := spec
		sp.Players = append([]ledger.Player(nil), spec.Players...)
		mod(&sp)
		err := s.Update(func(tx *store.Tx) error { _, err := ledger.Create(tx, sp, ledgertest.Rand("x")); return err })
		if err == nil {
			t.Errorf("bad spec %d accepted: %+v", i, sp)
		}
	}
}

func TestGenesisCommitsAndSigns(t *testing.T) {
	s := newStore(t)
	c := create(t, s)
	if !c.Checkpoint.Valid(c.Verifier) || c.Checkpoint.Size != 1 {
		t.Errorf("genesis checkpoint %+v does not verify", c.Checkpoint)
	}
	s.View(func(tx *store.Tx) error {
		g, _ := store.Record(tx, c.Game, 0)
		if g.Hash32("commitment") != c.Commitment || g.Get("turns") != "20" || g.All("player")[0] != "alice venice" {
			t.Errorf("genesis record:\n%s", g.Raw)
		}
		var buf bytes.Buffer
		ledger.Export(tx, c.Game, ledger.View{Full: true}, &buf)
		top, _ := store.Secret(tx, c.Game, "x-top")
		if len(top) != 32 || bytes.Contains(buf.Bytes(), []byte(strings.ToLower(string(top)))) ||
			strings.Contains(buf.String(), hexs(top)) {
			t.Error("the top seed is missing or exported")
		}
		return nil
	})
}

func hexs(b []byte) string {
	const digits = "0123456789abcdef"
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&15])
	}
	return sb.String()
}

func TestJoinAndStart(t *testing.T) {
	s := newStore(t)
	c := create(t, s)
	id := c.Game
	try := func(f func(tx *store.Tx) error) error { return s.Update(f) }
	if err := try(func(tx *store.Tx) error { return ledger.Join(tx, id, "mallory", nil, ledgertest.Clock, "") }); !errors.Is(err, ledger.ErrNotPlayer) {
		t.Errorf("stranger's join: %v", err)
	}
	if err := try(func(tx *store.Tx) error { return ledger.Join(tx, id, "alice", []byte("x"), ledgertest.Clock, "") }); err != nil {
		t.Fatal(err)
	}
	if err := try(func(tx *store.Tx) error { return ledger.Join(tx, id, "alice", nil, ledgertest.Clock, "") }); !errors.Is(err, ledger.ErrJoined) {
		t.Errorf("second join: %v", err)
	}
	if err := try(func(tx *store.Tx) error { _, err := ledger.Start(tx, id, false); return err }); !errors.Is(err, ledger.ErrMissingJoins) {
		t.Errorf("start with bob missing: %v", err)
	}
	if err := try(func(tx *store.Tx) error {
		return ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: 1})
	}); !errors.Is(err, ledger.ErrNotStarted) {
		t.Errorf("activation before start: %v", err)
	}
	var sHash ident.Hash
	if err := try(func(tx *store.Tx) error { var err error; sHash, err = ledger.Start(tx, id, true); return err }); err != nil {
		t.Fatalf("referee start: %v", err)
	}
	if err := try(func(tx *store.Tx) error { return ledger.Join(tx, id, "bob", nil, ledgertest.Clock, "") }); !errors.Is(err, ledger.ErrStarted) {
		t.Errorf("join after start: %v", err)
	}
	s.View(func(tx *store.Tx) error {
		r, _ := store.Record(tx, id, 3)
		if r.Type != gamelog.TypeStart || r.Get("by") != "referee" || r.Get("missing") != "bob" || r.Hash32("start-hash") != sHash {
			t.Errorf("start record:\n%s", r.Raw)
		}
		return nil
	})
}

func started(t *testing.T, s *store.Store) ident.GameID {
	t.Helper()
	c := create(t, s)
	if err := s.Update(func(tx *store.Tx) error { _, err := ledger.Start(tx, c.Game, true); return err }); err != nil {
		t.Fatal(err)
	}
	return c.Game
}

func TestSequenceIsEnforced(t *testing.T) {
	s := newStore(t)
	id := started(t, s)
	steps := []struct {
		name string
		f    func(tx *store.Tx) error
		ok   bool
	}{
		{"close before open", func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 1, 1, nil); return err }, false},
		{"turn 0", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 0, Act: 1}) }, false},
		{"beyond the chain", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 21, Act: 1}) }, false},
		{"stranger must act", func(tx *store.Tx) error {
			return ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: 1, Players: []string{"mallory"}})
		}, false},
		{"open 1.2", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: 2}) }, true},
		{"open 1.1 after 1.2", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: 1}) }, false},
		{"close 1.3", func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 1, 3, nil); return err }, false},
		{"close uses a non-orders record", func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 1, 2, []uint64{0}); return err }, false},
		{"close 1.2", func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 1, 2, nil); return err }, true},
		{"close 1.2 again", func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 1, 2, nil); return err }, false},
		{"end turn 1", func(tx *store.Tx) error { _, err := ledger.EndTurn(tx, id, 1); return err }, true},
		{"end turn 1 again", func(tx *store.Tx) error { _, err := ledger.EndTurn(tx, id, 1); return err }, false},
		{"open in revealed turn 1", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: 9}) }, false},
		{"open 2.1", func(tx *store.Tx) error { return ledger.Open(tx, id, ledger.Activation{Turn: 2, Act: 1}) }, true},
		{"disclose a non-commit", func(tx *store.Tx) error { return ledger.Disclose(tx, id, 1) }, false},
	}
	for _, st := range steps {
		err := s.Update(st.f)
		if (err == nil) != st.ok {
			t.Errorf("%s: %v (want ok=%v)", st.name, err, st.ok)
		}
	}
	var buf bytes.Buffer
	s.View(func(tx *store.Tx) error { return ledger.Export(tx, id, ledger.View{Full: true}, &buf) })
	f, err := gamelog.ParseFile(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Errorf("what the ledger accepted does not verify: %v", rep.Failure)
	}
}

func TestHiddenSetup(t *testing.T) {
	s := newStore(t)
	id := started(t, s)
	var commit uint64
	data := []byte("leader Don Juan on HL-12\n")
	s.Update(func(tx *store.Tx) error {
		var err error
		commit, err = ledger.CommitHidden(tx, id, "venice", "hidden-leaders", data, nil)
		return err
	})
	export := func(v ledger.View) string {
		var buf bytes.Buffer
		s.View(func(tx *store.Tx) error { return ledger.Export(tx, id, v, &buf) })
		return buf.String()
	}
	secret := hexs(data)
	if !strings.Contains(export(ledger.View{Side: "venice"}), secret) {
		t.Error("venice's own copy lacks its hidden set-up")
	}
	for _, v := range []ledger.View{{Side: "ottoman"}, {}, {Full: true}} {
		if strings.Contains(export(v), secret) {
			t.Errorf("view %s shows venice's hidden set-up before it is revealed", v.Name())
		}
	}
	if err := s.Update(func(tx *store.Tx) error { return ledger.Disclose(tx, id, commit) }); err != nil {
		t.Fatal(err)
	}
	pub := export(ledger.View{})
	if !strings.Contains(pub, "data "+secret) || strings.Contains(export(ledger.View{Side: "venice"}), "private") {
		t.Error("after disclosure the public copy must show the data, and no private block remain")
	}
	f, _ := gamelog.ParseFile([]byte(pub))
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Errorf("disclosed set-up does not verify: %v", rep.Failure)
	}
}

// TestSimultaneousOrdersStaySecret: while both sides order in one step, the records of the
// orders that arrived show nothing that could be matched against guesses, not even of NONE:
// only a salted commitment, until the close discloses text and nonce.
func TestSimultaneousOrdersStaySecret(t *testing.T) {
	s := newStore(t)
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "both", Turns: 1, Activations: 0, Reveal: 0})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := ledger.Open(tx, id, ledger.Activation{Turn: 2, Act: 1, Players: []string{"alice", "bob"}, What: "leader move"}); err != nil {
			return err
		}
		_, _, err := ledger.RecordOrders(tx, id, ledger.Orders{Turn: 2, Act: 1, Player: "alice", Canonical: []byte("NONE\n"), Received: ledgertest.Clock})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Side: "ottoman"})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"NONE\n", "", "NONE"} {
		h := gamelog.OrdersHash([]byte(text))
		if bytes.Contains(data, []byte(hex.EncodeToString(h[:]))) {
			t.Errorf("bob's copy holds the hash of %q before the close", text)
		}
	}
	if !bytes.Contains(data, []byte("\ncommitment ")) {
		t.Error("no commitment to alice's orders in bob's copy")
	}
}

// TestOrdersFollowTheActivationsSecrecy: a new game declares secrecy in its genesis, a
// secret step says so in its activation record, and the ledger refuses orders whose privacy
// differs from the activation's (it would write a log verify refuses: the daemon choosing
// which texts enter E as zero bytes); a side that sent nothing in a secret step gets a
// sealed default.
func TestOrdersFollowTheActivationsSecrecy(t *testing.T) {
	s := newStore(t)
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "secrecy", Turns: 1, Activations: 0, Reveal: 0})
	if err != nil {
		t.Fatal(err)
	}
	orders := func(act uint32, private bool) error {
		return s.Update(func(tx *store.Tx) error {
			_, _, err := ledger.RecordOrders(tx, id, ledger.Orders{Turn: 2, Act: act, Player: "alice", Canonical: []byte("NONE\n"),
				Received: ledgertest.Clock, Private: private})
			return err
		})
	}
	open := func(act uint32, secret bool) {
		t.Helper()
		if err := s.Update(func(tx *store.Tx) error {
			return ledger.Open(tx, id, ledger.Activation{Turn: 2, Act: act, Players: []string{"alice", "bob"}, What: "set-up", Secret: secret})
		}); err != nil {
			t.Fatal(err)
		}
	}
	open(1, true)
	if err := orders(1, false); !errors.Is(err, ledger.ErrSequence) {
		t.Errorf("public orders in a secret step: %v", err)
	}
	if err := orders(1, true); err != nil {
		t.Fatalf("secret orders in a secret step: %v", err)
	}
	if err := s.Update(func(tx *store.Tx) error { _, err := ledger.Close(tx, id, 2, 1, nil); return err }); err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nsecrecy declared\n", "\nwhat set-up\ndeadline none\nsecret yes\n"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("no %q in the log", want)
		}
	}
	if n := bytes.Count(data, []byte("\nwhat orders-text\n")); n != 2 {
		t.Errorf("%d sealed orders texts, want both sides' defaults (the close used no orders)", n)
	}
	open(2, false)
	if err := orders(2, true); !errors.Is(err, ledger.ErrSequence) {
		t.Errorf("secret orders in a public step: %v", err)
	}
}

// TestBeaconGame: a beacon game names its beacon in the genesis record, writes a round and a
// beacon record before each close, and verifies with the beacon's key pinned; a close
// without its round waits (ErrNoRound) and never falls back to a key without the beacon.
func TestBeaconGame(t *testing.T) {
	b := beacontest.New("ledger", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := ledgertest.Small
	sc.Beacon = b
	s := newStore(t)
	id, err := ledgertest.Game(s, sc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var key ed25519.PrivateKey
	s.View(func(tx *store.Tx) error { key, err = store.InstallationKey(tx); return err })
	rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key.Public().(ed25519.PublicKey), BeaconKey: b.Chain.Key})
	if !rep.OK() || rep.BeaconSteps != 3*3 || rep.RollsChecked == 0 {
		t.Fatalf("verify: %v, %d beacon steps, %d rolls checked", rep.Failure, rep.BeaconSteps, rep.RollsChecked)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key.Public().(ed25519.PublicKey)}); rep.OK() || !strings.Contains(rep.Failure.Reason, "quicknet") {
		t.Errorf("without --beacon-key: %v", rep.Failure)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := ledger.Open(tx, id, ledger.Activation{Turn: 3, Act: 9, What: "draw"}); err != nil {
			return err
		}
		// Read once a transaction with the genesis (ledger.Open read it), each caller's own.
		c, err := ledger.Beacon(tx, id)
		if err != nil || c == nil || !bytes.Equal(c.Key, b.Chain.Key) || c.Period != b.Chain.Period {
			t.Fatalf("Beacon: %+v, %v; want the genesis's %+v", c, err, b.Chain)
		}
		c.Period = 0
		if again, err := ledger.Beacon(tx, id); err != nil || again.Period != b.Chain.Period {
			t.Errorf("Beacon after a caller changed its copy: %+v, %v", again, err)
		}
		if _, err := ledger.Close(tx, id, 3, 9, nil); !errors.Is(err, ledger.ErrNoRound) {
			t.Errorf("close without a round named: %v, want ErrNoRound", err)
		}
		_, r, err := ledger.Complete(tx, id, 3, 9, nil, ledgertest.Clock, time.Minute)
		if err != nil {
			return err
		}
		if _, err := ledger.Close(tx, id, 3, 9, nil); !errors.Is(err, ledger.ErrNoRound) {
			t.Errorf("close before the round's beacon record: %v, want ErrNoRound", err)
		}
		bad := b.Round(r)
		bad.Signature[3] ^= 1
		if err := ledger.PutRound(tx, id, 3, 9, bad); err == nil {
			t.Error("a round whose signature does not verify is written")
		}
		if err := ledger.PutRound(tx, id, 3, 9, b.Round(r+1)); err == nil {
			t.Error("another round than the one named is written")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBeaconEndWhileWaiting: a game ended while a step waits for its round (a referee's
// ENDGAME) waits no more: no round is named any longer, and the round cannot be written
// after the end.
func TestBeaconEndWhileWaiting(t *testing.T) {
	b := beacontest.New("ledger end", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := ledgertest.Small
	sc.Beacon = b
	s := newStore(t)
	id, err := ledgertest.Game(s, sc)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := ledger.Open(tx, id, ledger.Activation{Turn: 3, Act: 9, What: "draw"}); err != nil {
			return err
		}
		_, r, err := ledger.Complete(tx, id, 3, 9, nil, ledgertest.Clock, time.Minute)
		if err != nil {
			return err
		}
		if _, err := ledger.End(tx, id, 3, "ended by the referee"); err != nil {
			return err
		}
		if named, _, _, err := ledger.Named(tx, id); err != nil || named != 0 {
			t.Errorf("after the end, round %d still named (%v)", named, err)
		}
		if err := ledger.PutRound(tx, id, 3, 9, b.Round(r)); err == nil {
			t.Error("a beacon record written after the end")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeldOrdersShareTheirMail: a mail whose orders are recorded as it comes and whose
// advance orders are held and used in two later steps feeds three records, the later two
// "held yes", and verifies; a record of that Message-ID not marked held, or held twice in
// one step, fails (docs/LOG-FORMAT.md 3).
func TestHeldOrdersShareTheirMail(t *testing.T) {
	for _, c := range []struct {
		name  string
		held  []bool // the records after the first, by step
		same  bool   // the last in the step of the one before it
		fails string
	}{
		{"held in two later steps", []bool{true, true}, false, ""},
		{"a second record not held", []bool{true, false}, false, "already fed orders record"},
		{"held twice in one step", []bool{true, true}, true, "used twice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			id := started(t, s)
			act := uint32(1)
			record := func(held bool, open bool) {
				err := s.Update(func(tx *store.Tx) error {
					if open {
						if err := ledger.Open(tx, id, ledger.Activation{Turn: 1, Act: act, Players: []string{"alice"}}); err != nil {
							return err
						}
					}
					_, _, err := ledger.RecordOrders(tx, id, ledger.Orders{Turn: 1, Act: act, Player: "alice", Canonical: []byte("A MOVE\n"),
						Entropy: []byte("e"), Received: ledgertest.Clock, MessageID: "<one@alice.example>", Held: held})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			record(false, true)
			for i, h := range c.held {
				if !(c.same && i == len(c.held)-1) {
					act++
				}
				record(h, !(c.same && i == len(c.held)-1))
			}
			var buf bytes.Buffer
			s.View(func(tx *store.Tx) error { return ledger.Export(tx, id, ledger.View{Full: true}, &buf) })
			f, err := gamelog.ParseFile(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true})
			switch {
			case c.fails == "" && !rep.OK():
				t.Errorf("verify: %v", rep.Failure)
			case c.fails != "" && (rep.OK() || !strings.Contains(rep.Failure.Reason, c.fails)):
				t.Errorf("verify: %v, want a failure mentioning %q", rep.Failure, c.fails)
			}
		})
	}
}
