package gamelog

import (
	"fmt"
	"slices"
	"strings"
)

// The rules of log format v4 for standing orders (docs/LOG-FORMAT.md 3, "v4's standing
// orders"): a player's standing orders are a record of their own, sealed for his side, that
// never enters E or a dice key; each activation declares the sides whose pending standing
// orders it applies; its close uses every pending standing record of those sides written
// before its cut (its latest round record in a beacon game, else the close itself), in log
// order, so that the operator can neither leave one out, add one nor pick among them; and
// from that close on every view holds the records it used.

// standingState is what the verifier knows of a v4 game's standing records.
type standingState struct {
	sides   map[turnAct][]string // the sides each activation declared ("standing")
	side    map[uint64]string    // sealed standing record → the side it is sealed for
	pending []uint64             // standing records no close has used yet, in log order
	used    map[uint64]uint64    // standing record → the close that used it
	mids    map[string]uint64    // Message-ID → the standing record that named it
}

func (s *standingState) init() {
	if s.side == nil {
		s.sides, s.side, s.used, s.mids = map[turnAct][]string{}, map[uint64]string{}, map[uint64]uint64{}, map[string]uint64{}
	}
}

// checkActivationStanding: "standing" names genesis sides, sorted and once each, only in v4.
func (v *verifier) checkActivationStanding(e *Entry, ta turnAct) error {
	r := e.Record
	if !r.Has("standing") {
		return nil
	}
	if !v.v4 {
		return v.fail(e, "an activation declares the standing orders it applies only in %s and later", FormatV4)
	}
	sides := strings.Fields(r.Get("standing"))
	for i, s := range sides {
		if !v.sides[s] {
			return v.fail(e, "standing side %q is not in the genesis record", s)
		}
		if i > 0 && s <= sides[i-1] {
			return v.fail(e, "standing sides %v not sorted or repeated", sides)
		}
	}
	v.st.init()
	v.st.sides[ta] = sides
	return nil
}

// checkStandingSeal registers a sealed standing record (v4 only): pending until a close
// uses it.
func (v *verifier) checkStandingSeal(e *Entry, sf *sealedFields) error {
	if !v.v4 {
		return v.fail(e, "standing records belong to %s and later, not %s", FormatV4, v.f.Format)
	}
	v.st.init()
	v.st.side[e.Index] = sf.side
	v.st.pending = append(v.st.pending, e.Index)
	return nil
}

// checkStanding checks a standing record: only inside its seal, of a genesis player, in his
// side's view, and the one standing record of its mail.
func (v *verifier) checkStanding(e *Entry) error {
	r := e.Record
	if e != &v.inner {
		return v.fail(e, "a standing record is sealed for its player's side until a close uses it (%s)", v.f.Format)
	}
	p := r.Get("player")
	switch {
	case v.players[p] == "":
		return v.fail(e, "player %q is not in the genesis record", p)
	case v.players[p] != r.Get("side"):
		return v.fail(e, "standing orders of %s (side %s) sealed for side %s", p, v.players[p], r.Get("side"))
	}
	if mid := normalID(r.Get("message-id")); mid != "" {
		if prev, ok := v.st.mids[mid]; ok {
			return v.fail(e, "Message-ID %s already fed standing record %d: a mail feeds one standing record", mid, prev)
		}
		v.st.mids[mid] = e.Index
	}
	return nil
}

// checkCloseStanding: the close lists exactly the pending standing records of the sides its
// activation declared, written before its cut, in log order; each of them in this view (the
// file was exported after the close, and from the close on every view holds them).
func (v *verifier) checkCloseStanding(e *Entry, ta turnAct) error {
	listed := e.Record.All("standing")
	if !v.v4 {
		if len(listed) > 0 {
			return v.fail(e, "a close lists standing records only in %s and later", FormatV4)
		}
		return nil
	}
	v.st.init()
	cut := e.Index
	if v.b3.chain != nil {
		cut = v.b3.named[ta].index
	}
	var want []uint64
	for _, i := range v.st.pending {
		if i < cut && slices.Contains(v.st.sides[ta], v.st.side[i]) {
			want = append(want, i)
		}
	}
	var have []uint64
	for _, s := range listed {
		have = append(have, parseUint(s))
	}
	if !slices.Equal(have, want) {
		return v.fail(e, "uses standing records %v; by its activation's sides %v and its cut (record %d) it uses %v (every pending one, in log order)", have, v.st.sides[ta], cut, want)
	}
	for _, i := range want {
		if v.f.Entries[i].Inner == nil {
			return v.fail(e, "uses standing record %d, whose unseal block this copy lacks (from the close that uses it on, every view holds a standing record)", i)
		}
		v.st.used[i] = e.Index
	}
	v.st.pending = slices.DeleteFunc(v.st.pending, func(i uint64) bool { _, ok := v.st.used[i]; return ok })
	return nil
}

// sentStanding: with --sent, a standing record of the player that this view holds names one
// of his mails with orders.
func (v *verifier) sentStanding(e *Entry) string {
	in := e.Inner
	if in == nil || in.Type != TypeStanding || in.Get("player") != v.opts.Player {
		return ""
	}
	id := normalID(in.Get("message-id"))
	if id == "" {
		return "standing orders that name no mail of yours (no message-id)"
	}
	for _, m := range v.opts.Sent {
		if normalID(m.MessageID) == id {
			if m.Join {
				return fmt.Sprintf("your mail %s was not a mail with orders", id)
			}
			return ""
		}
	}
	return fmt.Sprintf("standing orders: none of your sent mails has Message-ID %s", id)
}
