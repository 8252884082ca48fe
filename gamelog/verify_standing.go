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
//
// v5 seals them by kind (docs/LOG-FORMAT.md 3, "v5's standing orders by kind"): a standing
// record and its seal carry the same kind (none for the plain kind), a mail feeds one
// standing record of each kind, and an activation's entry may be "side/kind", applying that
// kind of the side's alone.

// StandingTokens is a step's standing entries (adjudicator.Step.Standing: "side" or
// "side/kind") as a log of format records them: sorted, once each, a side's kinds left out
// where the side's every kind is named; before v5, whose steps apply every kind or none, its
// "side/kind" entries are left out.
func StandingTokens(format string, entries []string) []string {
	all := map[string]bool{}
	for _, e := range entries {
		if !strings.Contains(e, "/") {
			all[e] = true
		}
	}
	var out []string
	for _, e := range entries {
		side, kind, _ := strings.Cut(e, "/")
		if kind != "" && (all[side] || !AtLeast(format, FormatV5)) {
			continue
		}
		out = append(out, e)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// StandingApplies says whether an activation's standing entries apply a standing record of
// side and kind ("" the plain kind): an entry naming the side, or the side and that kind.
func StandingApplies(entries []string, side, kind string) bool {
	for _, e := range entries {
		s, k, cut := strings.Cut(e, "/")
		if s == side && (!cut || k == kind && kind != "") {
			return true
		}
	}
	return false
}

// validKind: a kind is a lower-case ASCII word.
func validKind(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// standingState is what the verifier knows of a v4 game's standing records.
type standingState struct {
	sides   map[turnAct][]string // the sides each activation declared ("standing")
	side    map[uint64]string    // sealed standing record → the side it is sealed for
	kind    map[uint64]string    // sealed standing record → its kind (v5; "" the plain kind)
	pending []uint64             // standing records no close has used yet, in log order
	used    map[uint64]uint64    // standing record → the close that used it
	mids    map[string]uint64    // Message-ID → the standing record that named it
	opened  map[uint64]bool      // sealed standing record → this copy holds its unseal block
}

func (s *standingState) init() {
	if s.side == nil {
		s.sides, s.side, s.used, s.mids = map[turnAct][]string{}, map[uint64]string{}, map[uint64]uint64{}, map[string]uint64{}
		s.kind, s.opened = map[uint64]string{}, map[uint64]bool{}
	}
}

// checkActivationStanding: "standing" names genesis sides, sorted and once each, only in v4;
// v5: an entry may be "side/kind", never beside the side's plain entry.
func (v *verifier) checkActivationStanding(e *Entry, ta turnAct) error {
	r := e.Record
	if !r.Has("standing") {
		return nil
	}
	if !v.v4 {
		return v.fail(e, "an activation declares the standing orders it applies only in %s and later", FormatV4)
	}
	sides := strings.Fields(r.Get("standing"))
	for i, tok := range sides {
		s, kind, cut := strings.Cut(tok, "/")
		switch {
		case cut && !v.v5:
			return v.fail(e, "standing entry %q: a step applies one kind of standing orders (side/kind) only in %s and later", tok, FormatV5)
		case cut && !validKind(kind):
			return v.fail(e, "standing entry %q: a kind is a lower-case word", tok)
		case !v.sides[s]:
			return v.fail(e, "standing side %q is not in the genesis record", s)
		case i > 0 && tok <= sides[i-1]:
			return v.fail(e, "standing sides %v not sorted or repeated", sides)
		case cut && slices.Contains(sides, s):
			return v.fail(e, "standing entry %q beside %q, which applies every kind of the side's already", tok, s)
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
	if sf.kind != "" && !v.v5 {
		return v.fail(e, "a sealed standing record carries its kind only in %s and later", FormatV5)
	}
	if sf.kind != "" && !validKind(sf.kind) {
		return v.fail(e, "standing kind %q: a kind is a lower-case word", sf.kind)
	}
	v.st.init()
	v.st.side[e.Index] = strings.Clone(sf.side) // kept past the record's bytes (stream.go)
	v.st.kind[e.Index] = strings.Clone(sf.kind)
	v.st.opened[e.Index] = e.Inner != nil
	v.st.pending = append(v.st.pending, e.Index)
	if v.v5 && v.teamSide(sf.side) {
		v.th.owedSt = e
	}
	return nil
}

// checkStanding checks a standing record: only inside its seal, of a genesis player, in his
// side's view, and the one standing record of its mail (v5: of its kind, the seal's).
func (v *verifier) checkStanding(e *Entry) error {
	r := e.Record
	if e != &v.inner {
		return v.fail(e, "a standing record is sealed for its player's side until a close uses it (%s)", v.f.Format)
	}
	team, err := v.checkStandingNaming(e)
	if err != nil {
		return err
	}
	p := r.Get("player")
	switch {
	case team && r.Get("side") != v.st.side[e.Index]:
		return v.fail(e, "standing orders of side %s sealed for side %s", r.Get("side"), v.st.side[e.Index])
	case team:
	case v.players[p] == "":
		return v.fail(e, "player %q is not in the genesis record", p)
	case v.players[p] != r.Get("side"):
		return v.fail(e, "standing orders of %s (side %s) sealed for side %s", p, v.players[p], r.Get("side"))
	}
	kind := r.Get("kind")
	switch {
	case r.Has("kind") && !v.v5:
		return v.fail(e, "a standing record carries its kind only in %s and later", FormatV5)
	case kind != v.st.kind[e.Index]:
		return v.fail(e, "a standing record of kind %q sealed as kind %q (the seal shows the record's kind)", kind, v.st.kind[e.Index])
	}
	if team {
		return nil // its Message-ID is its sender record's (checkStandingSender)
	}
	return v.standingMessageID(e, e.Index, r.Get("message-id"))
}

// standingMessageID: a mail (its Message-ID, of standing record i or of its sender record
// e) feeds one standing record, in v5 one of each kind.
func (v *verifier) standingMessageID(e *Entry, i uint64, messageID string) error {
	mid := normalID(messageID)
	if mid == "" {
		return nil
	}
	kind := v.st.kind[i]
	key := mid
	if v.v5 {
		key = kind + "\x00" + mid // no kind holds a NUL
	}
	if prev, ok := v.st.mids[key]; ok {
		if v.v5 {
			return v.fail(e, "Message-ID %s already fed standing record %d of kind %q: a mail feeds one standing record of each kind", mid, prev, kind)
		}
		return v.fail(e, "Message-ID %s already fed standing record %d: a mail feeds one standing record", mid, prev)
	}
	v.st.mids[strings.Clone(key)] = i
	return nil
}

// checkCloseStanding: the close lists exactly the pending standing records of the sides its
// activation declared (v5: of the side and kind an entry names), written before its cut, in
// log order; each of them in this view (the
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
		if i < cut && StandingApplies(v.st.sides[ta], v.st.side[i], v.st.kind[i]) {
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
		if !v.st.opened[i] {
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
	return v.sentStandingOf(in.Get("message-id"))
}

// sentStandingOf is sentStanding of a standing record with this Message-ID (v5: a team
// side's, whose sender record names it).
func (v *verifier) sentStandingOf(messageID string) string {
	id := normalID(messageID)
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
