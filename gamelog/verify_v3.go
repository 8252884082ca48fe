package gamelog

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"navarch/beacon"
)

// The rules of log format v3 (docs/LOG-FORMAT.md 3): a beacon game keys each step with a
// round nobody knew when its inputs were fixed, and a mail's Message-ID feeds one orders
// record unless it holds advance orders.

type beaconState struct {
	chain  *beacon.Chain // nil: the game has no beacon
	named  map[turnAct]namedRound
	rounds map[turnAct]beacon.Round
	steps  []beaconStep
	mids   map[string]midUse
}

// namedRound is the latest round record of a step: the round and the record's index.
type namedRound struct{ round, index uint64 }

// beaconStep is a step keyed by a round: where the round was named, and the round.
type beaconStep struct {
	ta      turnAct
	namedAt uint64
	round   uint64
}

// midUse is the first orders record that named a Message-ID, and the activations its held
// records were used in.
type midUse struct {
	index uint64
	held  bool
	acts  map[turnAct]bool
}

// readBeacon reads a v3 genesis's beacon (chain hash, key, period in seconds, genesis time in
// Unix seconds): all four or none, and the key pinned: the auditor's (--beacon-key), or
// else drand quicknet's, whose chain hash, period and genesis the record must then name.
func (v *verifier) readBeacon(e *Entry) error {
	g := e.Record
	fields := []string{"beacon-chain", "beacon-key", "beacon-period", "beacon-genesis"}
	n := 0
	for _, f := range fields {
		if g.Has(f) {
			n++
		}
	}
	switch {
	case n == 0:
		return nil
	case !v.v3:
		return v.fail(e, "a beacon belongs to %s and later, not %s", FormatV3, v.f.Format)
	case n != len(fields):
		return v.fail(e, "a beacon is named by all of %v", fields)
	}
	c := *BeaconOf(g)
	if c.Period <= 0 || g.Uint("beacon-genesis") > 1<<40 {
		return v.fail(e, "beacon period %s, genesis %s out of range", g.Get("beacon-period"), g.Get("beacon-genesis"))
	}
	q := beacon.Quicknet
	switch {
	case v.opts.BeaconKey != nil && !bytes.Equal(v.opts.BeaconKey, c.Key):
		return v.fail(e, "the genesis record's beacon key %x is not the pinned beacon key %x", c.Key, v.opts.BeaconKey)
	case v.opts.BeaconKey == nil && !bytes.Equal(c.Key, q.Key):
		return v.fail(e, "the genesis record's beacon key %.16x… is not drand quicknet's: pin the beacon's key with --beacon-key", c.Key)
	case v.opts.BeaconKey == nil && (!bytes.Equal(c.Hash, q.Hash) || c.Period != q.Period || !c.Genesis.Equal(q.Genesis)):
		return v.fail(e, "the beacon has quicknet's key but not its chain hash, period or genesis")
	}
	v.b3 = beaconState{chain: &c, named: map[turnAct]namedRound{}, rounds: map[turnAct]beacon.Round{}}
	return nil
}

// openStep is the turn and activation of a round or beacon record, which must be those of the
// open activation, not yet closed.
func (v *verifier) openStep(e *Entry) (turnAct, error) {
	if v.b3.chain == nil {
		return turnAct{}, v.fail(e, "a %s record in a game without a beacon", e.Record.Type)
	}
	ta, err := v.turnAct(e)
	if err != nil {
		return ta, err
	}
	if !v.activations[ta] || v.closes[ta] || ta != v.lastAct {
		return ta, v.fail(e, "%s record for turn %d activation %d, which is not the open activation", e.Record.Type, ta.t, ta.a)
	}
	return ta, nil
}

// checkRound: a round named for the open step, before its beacon round is read.
func (v *verifier) checkRound(e *Entry) error {
	ta, err := v.openStep(e)
	if err != nil {
		return err
	}
	r := e.Record.Uint("round")
	if _, ok := v.b3.rounds[ta]; ok {
		return v.fail(e, "round %d named for turn %d activation %d after its beacon round was read", r, ta.t, ta.a)
	}
	if r < 1 {
		return v.fail(e, "round 0: rounds start at 1")
	}
	v.b3.named[ta] = namedRound{round: r, index: e.Index}
	return nil
}

// checkBeacon: the round named for the open step, its signature verified under the
// genesis's (pinned) beacon key.
func (v *verifier) checkBeacon(e *Entry) error {
	ta, err := v.openStep(e)
	if err != nil {
		return err
	}
	r := beacon.Round{Number: e.Record.Uint("round"), Signature: e.Record.Bytes("signature")}
	n, ok := v.b3.named[ta]
	switch {
	case !ok:
		return v.fail(e, "beacon round %d for turn %d activation %d, which named no round", r.Number, ta.t, ta.a)
	case n.round != r.Number:
		return v.fail(e, "beacon round %d, but turn %d activation %d named round %d (record %d)", r.Number, ta.t, ta.a, n.round, n.index)
	}
	if _, dup := v.b3.rounds[ta]; dup {
		return v.fail(e, "a second beacon round for turn %d activation %d", ta.t, ta.a)
	}
	if err := v.b3.chain.Verify(r); err != nil {
		return v.fail(e, "round %d's signature does not verify under the beacon's key", r.Number)
	}
	v.b3.rounds[ta] = r
	return nil
}

// checkCloseBeacon: a beacon game's close follows the round named after its last input and
// that round's beacon record.
func (v *verifier) checkCloseBeacon(e *Entry, ta turnAct, uses []uint64) error {
	if v.b3.chain == nil {
		return nil
	}
	n, ok := v.b3.named[ta]
	if !ok {
		return v.fail(e, "turn %d activation %d is keyed without a beacon round: no round record names one", ta.t, ta.a)
	}
	for _, u := range uses {
		if u > n.index {
			return v.fail(e, "uses orders record %d, written after round %d was named (record %d): the round must be named once the inputs are fixed", u, n.round, n.index)
		}
	}
	if _, ok := v.b3.rounds[ta]; !ok {
		return v.fail(e, "turn %d activation %d is keyed without its beacon round %d: no beacon record holds it", ta.t, ta.a, n.round)
	}
	v.b3.steps = append(v.b3.steps, beaconStep{ta: ta, namedAt: n.index, round: n.round})
	return nil
}

// checkHeld: in v3 a mail's Message-ID feeds one orders record recorded as it came, the
// first that names it, and besides it only records of its advance orders held and used
// later ("held yes"), each in another step; so that neither a second record with the
// player's Message-ID (the operator's entropy) nor his real record copied into a later step
// passes as his mail (verify --sent). In v2, which does not mark held orders, a shared
// Message-ID is noted.
func (v *verifier) checkHeld(e *Entry, ta turnAct) error {
	r := e.Record
	held := r.Has("held")
	if held && (!v.v3 || r.Get("held") != "yes" || r.Has("default")) {
		return v.fail(e, "held %q: \"held yes\" marks held advance orders, only in %s and later", r.Get("held"), FormatV3)
	}
	return v.checkHeldOf(e, ta, held, r.Get("message-id"))
}

// checkHeldOf is checkHeld's rule of a Message-ID, of a record whose held mark and
// Message-ID are given (v5: a team side's orders record and its sender record).
func (v *verifier) checkHeldOf(e *Entry, ta turnAct, held bool, messageID string) error {
	mid := normalID(messageID)
	if mid == "" {
		return nil
	}
	if v.b3.mids == nil {
		v.b3.mids = map[string]midUse{}
	}
	u, seen := v.b3.mids[mid]
	if !seen {
		v.b3.mids[strings.Clone(mid)] = midUse{index: e.Index, held: held, acts: map[turnAct]bool{ta: true}}
		return nil
	}
	switch {
	case !v.v3:
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("orders records %d and %d name one Message-ID %s (advance orders used twice, or a copy: %s does not mark held orders)", u.index, e.Index, mid, v.f.Format))
	case !held:
		return v.fail(e, "Message-ID %s already fed orders record %d: a mail feeds one orders record, and besides it only its advance orders held for later steps (held yes)", mid, u.index)
	case u.acts[ta]:
		return v.fail(e, "held advance orders of Message-ID %s used twice in turn %d activation %d", mid, ta.t, ta.a)
	}
	u.acts[ta] = true
	return nil
}

// checkBeaconMail: every checkpoint from mail whose last record names a round (the receipt
// of the orders that fixed a step's inputs) was received before the round's time; and a
// step is proven where some mail that covers its round record was.
func (v *verifier) checkBeaconMail() error {
	c := v.b3.chain
	if c == nil {
		return nil
	}
	v.rep.BeaconSteps = len(v.b3.steps)
	for _, s := range v.b3.steps {
		at := c.Time(s.round)
		proven := false
		for _, m := range v.opts.Checkpoints {
			if m.Mailed.IsZero() || m.Size <= s.namedAt {
				continue
			}
			if m.Size == s.namedAt+1 && !m.Mailed.Before(at) {
				e := v.entry(s.namedAt)
				return v.fail(e, "the mail that named round %d (checkpoint of size %d) was received at %s, not before the round was published at %s",
					s.round, m.Size, m.Mailed.UTC().Format(time.RFC3339), at.Format(time.RFC3339))
			}
			proven = proven || m.Mailed.Before(at)
		}
		if proven {
			v.rep.BeaconProven++
		}
	}
	return nil
}
