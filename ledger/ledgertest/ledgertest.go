// Package ledgertest writes scripted games through the ledger, for tests and benchmarks of
// the log, the store and the verifier.
package ledgertest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"time"

	"navarch/beacon/beacontest"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/store"
)

// Rand is a deterministic byte stream for tests (SHA-256 in counter mode over seed); never
// use it for a real game.
func Rand(seed string) io.Reader { return &counterRand{seed: seed} }

type counterRand struct {
	seed string
	n    uint64
	buf  []byte
}

func (r *counterRand) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) {
		b := sha256.Sum256(binary.BigEndian.AppendUint64([]byte(r.seed), r.n))
		r.n++
		r.buf = append(r.buf, b[:]...)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Script shapes a scripted game.
type Script struct {
	Seed        string // for Rand: the game id, seeds and nonces
	Turns       int    // game turns played
	Activations int    // player activations per turn, after a draw
	Rolls       int    // rolls per player activation
	Reveal      int    // turns whose seed is revealed (≤ Turns); -1 for all
	End         bool   // write the end record
	// Beacon keys every step with a round of this local beacon (log format v3's beacon
	// game): each step names the first round at least BeaconDelay after its time
	// (StepTime), and its beacon record follows.
	Beacon *beacontest.Beacon
	// Held: alice's orders of each turn's second activation are advance orders held from
	// her mail of its first ("held yes", that mail's Message-ID).
	Held bool
	// Standing (log format v4): in each turn's first activation bob (not asked) and then
	// alice send standing orders; the first activation applies bob's side's (the other
	// side's, as a group's action phase does) and alice's of kind chit (v5: her mail's
	// LEADERS STAY is a record of its own), the second every side's, so alice's HOLD FIRE
	// waits one step. In a beacon game bob sends more after the first step's round was named:
	// past its cut, they wait for the second.
	Standing bool
}

// BeaconDelay is the delay from a step's inputs to its round in scripted beacon games.
const BeaconDelay = 5 * time.Minute

// StepTime is the time at which the inputs of step (t, a) of a scripted game are fixed.
func StepTime(t, a uint32) time.Time {
	return Clock.Add(time.Duration(t)*24*time.Hour + time.Duration(a)*time.Hour)
}

// fixRound names step (t, a)'s round and writes its beacon record, in a beacon game.
func fixRound(tx *store.Tx, id ident.GameID, sc Script, t, a uint32, uses []uint64) ([]uint64, error) {
	if sc.Beacon == nil {
		return uses, nil
	}
	uses, r, err := ledger.Complete(tx, id, t, a, uses, StepTime(t, a), BeaconDelay)
	if err != nil {
		return nil, err
	}
	return uses, ledger.PutRound(tx, id, t, a, sc.Beacon.Round(r))
}

// Small is a short game touching every record type.
var Small = Script{Seed: "small", Turns: 3, Activations: 2, Rolls: 3, Reveal: 2}

// HiddenCommit is the index of the scripted game's commit record (venice's hidden leaders).
const HiddenCommit = 4

// Clock is the fixed time of scripted games.
var Clock = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// Game writes a scripted game in one store transaction per step, the way the daemon will, and
// returns its id. The script's players are "alice" (side "venice") and "bob" (side "ottoman").
func Game(s *store.Store, sc Script) (ident.GameID, error) {
	rnd := Rand(sc.Seed)
	var id ident.GameID
	err := s.Update(func(tx *store.Tx) error {
		spec := ledger.Spec{Ruleset: "lepanto1571", Scenario: "test", Engine: "test",
			Players: []ledger.Player{{ID: "bob", Side: "ottoman"}, {ID: "alice", Side: "venice"}}, MaxTurns: sc.Turns, Created: Clock}
		if sc.Beacon != nil {
			spec.Beacon = &sc.Beacon.Chain
		}
		c, err := ledger.Create(tx, spec, rnd)
		id = c.Game
		return err
	})
	if err != nil {
		return id, err
	}
	steps := []func(*store.Tx) error{
		func(tx *store.Tx) error {
			return ledger.Join(tx, id, "alice", []byte("alice's own noise"), Clock, "alice-join@example.org")
		},
		func(tx *store.Tx) error { return ledger.Join(tx, id, "bob", nil, Clock, "bob-join@example.com") },
		func(tx *store.Tx) error {
			_, err := ledger.CommitHidden(tx, id, "venice", "hidden-leaders", []byte("VEN-A carries Barbarigo\n"), rnd)
			return err
		},
		func(tx *store.Tx) error { _, err := ledger.Start(tx, id, false); return err },
	}
	for _, step := range steps {
		if err := s.Update(step); err != nil {
			return id, err
		}
	}
	reveal := sc.Reveal
	if reveal < 0 {
		reveal = sc.Turns
	}
	for t := 1; t <= sc.Turns; t++ {
		if err := playTurn(s, id, sc, uint32(t), t <= reveal); err != nil {
			return id, fmt.Errorf("turn %d: %w", t, err)
		}
	}
	return id, finish(s, id, sc)
}

func finish(s *store.Store, id ident.GameID, sc Script) error {
	return s.Update(func(tx *store.Tx) error {
		if err := ledger.Note(tx, id, "referee", "deadline extended by 24h"); err != nil {
			return err
		}
		if !sc.End {
			return nil
		}
		if err := ledger.Disclose(tx, id, HiddenCommit); err != nil {
			return err
		}
		_, err := ledger.End(tx, id, uint32(sc.Turns), "holy league wins a decisive victory")
		return err
	})
}

func playTurn(s *store.Store, id ident.GameID, sc Script, t uint32, reveal bool) error {
	if err := s.Update(func(tx *store.Tx) error { return draw(tx, id, sc, t) }); err != nil {
		return err
	}
	for a := uint32(1); a <= uint32(sc.Activations); a++ {
		if err := playActivation(s, id, sc, t, a); err != nil {
			return err
		}
	}
	if !reveal {
		return nil
	}
	return s.Update(func(tx *store.Tx) error { _, err := ledger.EndTurn(tx, id, t); return err })
}

// draw is an automatic activation: a chit drawn from the cup, no orders.
func draw(tx *store.Tx, id ident.GameID, sc Script, t uint32) error {
	if err := ledger.Open(tx, id, ledger.Activation{Turn: t, Act: 0, What: "draw"}); err != nil {
		return err
	}
	if _, err := fixRound(tx, id, sc, t, 0, nil); err != nil {
		return err
	}
	act, err := ledger.Close(tx, id, t, 0, nil)
	if err != nil {
		return err
	}
	cup := []string{"HL-CENTRE", "HL-LEFT", "OT-CENTRE", "OT-RIGHT", "WIND-ROLL"}
	i, roll, err := dice.Draw(act, "draw", cup)
	if err != nil {
		return err
	}
	roll.Rule, roll.Note = "3.1", "drawn: "+cup[i]
	if _, err := ledger.AppendRolls(tx, id, act, 0); err != nil {
		return err
	}
	return ledger.AppendEvent(tx, id, ledger.Event{Turn: t, Act: 0, Rule: "3.1", Text: []string{cup[i] + " is drawn"}})
}

func playActivation(s *store.Store, id ident.GameID, sc Script, t, a uint32) error {
	var ordersIdx uint64
	err := s.Update(func(tx *store.Tx) error {
		if err := ledger.Open(tx, id, ledger.Activation{Turn: t, Act: a, Players: []string{"alice"}, What: "group HL-CENTRE", Deadline: Clock.Add(48 * time.Hour), Secret: secretStep(t, a),
			Standing: standingSides(sc, a)}); err != nil {
			return err
		}
		if err := sendStanding(tx, id, sc, t, a, "bob", "standing", "HOLD FIRE OTT-1 MOVE"); err != nil {
			return err
		}
		if err := sendStanding(tx, id, sc, t, a, "alice", "standing", fmt.Sprintf("HOLD FIRE VEN-%d", t)); err != nil {
			return err
		}
		if err := sendStandingKind(tx, id, sc, t, a, "alice", "standing", "chit", "LEADERS STAY"); err != nil { // the same mail's
			return err
		}
		var err error
		ordersIdx, _, err = ledger.RecordOrders(tx, id, ledger.Orders{Turn: t, Act: a, Player: "alice",
			Canonical: gamelog.CanonicalOrders(fmt.Sprintf("VEN-%d MOVE 1507 1407\nVEN-%d FIRE OTT-1\n", a, a)),
			Entropy:   []byte(fmt.Sprintf("t%da%d", t, mailOf(sc, t, a))), Received: Clock, MessageID: fmt.Sprintf("<%d.%d@alice.example>", t, mailOf(sc, t, a)),
			Private: secretStep(t, a), Held: mailOf(sc, t, a) != a})
		return err
	})
	if err != nil {
		return err
	}
	return s.Update(func(tx *store.Tx) error { return resolve(tx, id, sc, t, a, ordersIdx) })
}

// standingSides are the sides whose standing orders scripted activation a applies.
func standingSides(sc Script, a uint32) []string {
	switch {
	case !sc.Standing:
		return nil
	case a == 1:
		return []string{"ottoman", "venice/chit"}
	}
	return []string{"ottoman", "venice"}
}

// sendStanding records a mail of standing orders from player in each turn's first
// activation (Script.Standing); its Message-ID is <t.a.tag@player.example>.
func sendStanding(tx *store.Tx, id ident.GameID, sc Script, t, a uint32, player, tag, text string) error {
	return sendStandingKind(tx, id, sc, t, a, player, tag, "", text)
}

// sendStandingKind is sendStanding of a kind (v5; "" the plain kind).
func sendStandingKind(tx *store.Tx, id ident.GameID, sc Script, t, a uint32, player, tag, kind, text string) error {
	if !sc.Standing || a != 1 {
		return nil
	}
	_, err := ledger.RecordStanding(tx, id, ledger.StandingOrders{Player: player, Kind: kind, Lines: strings.Split(text, "\n"), Received: Clock,
		MessageID: fmt.Sprintf("<%d.%d.%s@%s.example>", t, a, tag, player)})
	return err
}

// mailOf is the activation of turn t in which alice sent the mail of step (t, a)'s orders:
// with Held, her second activation's come from the mail of her first (no secret step takes
// advance orders).
func mailOf(sc Script, t, a uint32) uint32 {
	if sc.Held && a == 2 && !secretStep(t, a) {
		return 1
	}
	return a
}

// secretStep is the scripted step whose orders are secret (hidden set-up): it rolls no dice.
func secretStep(t, a uint32) bool { return t == 1 && a == 2 }

// resolve is one activation's transaction: close, rolls of each kind, events, state.
func resolve(tx *store.Tx, id ident.GameID, sc Script, t, a uint32, ordersIdx uint64) error {
	uses, err := fixRound(tx, id, sc, t, a, []uint64{ordersIdx})
	if err != nil {
		return err
	}
	if sc.Beacon != nil { // past the cut: the next step that applies bob's side's uses it
		if err := sendStanding(tx, id, sc, t, a, "bob", "late", "REACT OTT-1"); err != nil {
			return err
		}
	}
	act, err := ledger.Close(tx, id, t, a, uses)
	if err != nil {
		return err
	}
	written := 0
	for r := 0; r < sc.Rolls && !secretStep(t, a); r++ {
		if err := rollKind(act, r); err != nil {
			return err
		}
		if written, err = ledger.AppendRolls(tx, id, act, written); err != nil {
			return err
		}
		ev := ledger.Event{Turn: t, Act: a, Rule: "9.5", Text: []string{fmt.Sprintf("roll %d resolved", r)}}
		if r%2 == 1 {
			ev.Side = "venice"
		} else { // log v4: a public event names the roll behind it and its kind
			rolls := act.Rolls()
			ev.Rolls, ev.Kind = []string{rolls[len(rolls)-1].Label}, "hit"
		}
		if err := ledger.AppendEvent(tx, id, ev); err != nil {
			return err
		}
	}
	if secretStep(t, a) {
		ev := ledger.Event{Turn: t, Act: a, Side: "venice", Rule: "4.5", Text: []string{"Barbarigo sets up hidden aboard VEN-A"}}
		if err := ledger.AppendEvent(tx, id, ev); err != nil {
			return err
		}
	}
	return ledger.AppendState(tx, id, t, a, sha256.Sum256(fmt.Appendf(nil, "state %d %d", t, a)), a == 2)
}

func rollKind(act *dice.Activation, r int) error {
	label := fmt.Sprintf("fire/VEN-%d>OTT-1/%d", act.Act, r)
	var err error
	switch r % 4 {
	case 0:
		var roll *dice.Roll
		roll, err = act.Roll(label, 6, 2)
		if err == nil {
			roll.Rule, roll.Note = "16.10", "fire value 3: hit"
		}
	case 1:
		_, _, err = dice.Average(act, label)
	case 2:
		_, _, err = dice.D10Zero(act, label)
	case 3:
		_, err = dice.Shuffle(act, label, []string{"A", "B", "C"})
	}
	return err
}

// Export returns a game's export for a view.
func Export(s *store.Store, id ident.GameID, v ledger.View) ([]byte, error) {
	var buf bytesBuffer
	err := s.View(func(tx *store.Tx) error { return ledger.Export(tx, id, v, &buf) })
	return buf.b, err
}

type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
