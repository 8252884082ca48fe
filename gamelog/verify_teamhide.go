package gamelog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The rules of log format v5 that keep from the other side which of a team's players each
// step asks (docs/LOG-FORMAT.md 3, "What a team game shows the other side"). A team side is
// a side of several players in the genesis record. An activation names the asked players of
// one-player sides in act and gives each team side asked a count (team-asks); an orders
// record of a team side's player names the side, not him, and the sender record sealed for
// the side right after it names him, his mail and whom he answered for.

// teamHide is what verify knows of v5's hidden asking.
type teamHide struct {
	size   map[string]int             // side → its players in the genesis record
	asks   map[turnAct]map[string]int // each activation's team-asks
	owed   *Entry                     // a team side's orders record whose sender record is next
	owedSt *Entry                     // a team side's sealed standing record whose sender record is next
	noted  map[string]bool            // sides whose sender records this copy lacks, noted
	latest map[turnAct]map[string]uint64
	// replaced are the team records a later one replaces; live counts, by activation and
	// side, the team records no later one replaces (those a close must use).
	replaced map[uint64]bool
	live     map[turnAct]map[string]int
}

// teamSide reports whether side has several players (v5's rules hide which of them acts).
func (v *verifier) teamSide(side string) bool { return v.th.size[side] > 1 }

// checkTeamAsks: in v5 act names no player of a team side, and each team side asked has one
// team-asks line "<side> <n>", sorted by side, 1 ≤ n ≤ its players; before v5 none.
func (v *verifier) checkTeamAsks(e *Entry, ta turnAct) error {
	r := e.Record
	lines := r.All("team-asks")
	if !v.v5 {
		if len(lines) > 0 {
			return v.fail(e, "team-asks belong to %s and later, not %s", FormatV5, v.f.Format)
		}
		return nil
	}
	for _, p := range strings.Fields(r.Get("act")) {
		if side := v.players[p]; v.teamSide(side) {
			return v.fail(e, "act names %s, a player of team side %s: %s gives a team side's count (team-asks), not its players", p, side, v.f.Format)
		}
	}
	asks := map[string]int{}
	prev := ""
	for _, l := range lines {
		side, num, _ := strings.Cut(l, " ")
		n, err := strconv.Atoi(num)
		switch {
		case !v.teamSide(side):
			return v.fail(e, "team-asks %q: %s is not a side of several players", l, side)
		case err != nil || n < 1 || n > v.th.size[side] || num != strconv.Itoa(n):
			return v.fail(e, "team-asks %q: want 1..%d players of side %s", l, v.th.size[side], side)
		case side <= prev:
			return v.fail(e, "team-asks not sorted by side or repeated at %s", side)
		}
		prev, asks[strings.Clone(side)] = side, n
	}
	if v.th.asks == nil {
		v.th.asks = map[turnAct]map[string]int{}
	}
	v.th.asks[ta] = asks
	return nil
}

// checkOrdersNaming: an orders record names its player (and its time) before v5, and in v5
// where his side has one player; in v5 a team side's record names its side only, without
// time, mail or stand-in, which its sender record holds.
func (v *verifier) checkOrdersNaming(e *Entry) (team bool, err error) {
	r := e.Record
	p, side := r.Get("player"), r.Get("side")
	switch {
	case !v.v5 && (!r.Has("player") || !r.Has("received")):
		return false, v.fail(e, "an orders record of %s names its player and when it came", v.f.Format)
	case !v.v5 && r.Has("replaces"):
		return false, v.fail(e, "replaces belongs to %s and later, not %s", FormatV5, v.f.Format)
	case !v.v5:
		return false, nil
	case r.Has("player") && v.teamSide(v.players[p]):
		return false, v.fail(e, "names %s, a player of team side %s, publicly: in %s a team side's orders record names its side, and the sender record sealed for it the player", p, v.players[p], v.f.Format)
	case r.Has("player") && (r.Has("side") || !r.Has("received")):
		return false, v.fail(e, "an orders record of a one-player side names its player and when it came, not a side")
	case r.Has("player") && r.Has("replaces"):
		return false, v.fail(e, "replaces: only a team side's orders record names the record it replaces")
	case r.Has("player"):
		return false, nil
	case !r.Has("side"):
		return false, v.fail(e, "an orders record names its player, or in %s a team side", v.f.Format)
	case !v.teamSide(side):
		return false, v.fail(e, "orders of side %s without its player's name: only a side of several players keeps it sealed", side)
	case r.Has("received") || r.Has("message-id") || r.Has("for"):
		return false, v.fail(e, "an orders record of team side %s shows no time, mail or stand-in: its sender record holds them", side)
	}
	return true, nil
}

// checkTeamOrders: a v5 team side's orders record belongs to the open activation, which asks
// its side (team-asks); its sender record must follow it.
func (v *verifier) checkTeamOrders(e *Entry, ta turnAct) error {
	r := e.Record
	side := r.Get("side")
	if !v.started {
		return v.fail(e, "orders before the start record")
	}
	if !v.activations[ta] || v.closes[ta] || ta != v.lastAct {
		return v.fail(e, "orders for turn %d activation %d, which is not the open activation", ta.t, ta.a)
	}
	if v.th.asks[ta][side] == 0 {
		return v.fail(e, "orders of side %s, which turn %d activation %d does not ask", side, ta.t, ta.a)
	}
	def := r.Has("default")
	if def && (r.Get("default") != "yes" || len(r.Bytes("entropy")) > 0) {
		return v.fail(e, "a default orders record has no entropy and no mail (default yes, entropy empty)")
	}
	if err := v.checkHeld(e, ta); err != nil {
		return err
	}
	rep, err := v.checkReplaces(e, ta, side)
	if err != nil {
		return err
	}
	v.orders[e.Index] = ordersRec{side: side, team: true, hash: r.Hash32("commitment"), entropy: r.Bytes("entropy"), ta: ta,
		isDefault: def, held: r.Has("held"), replaces: rep}.kept()
	v.th.owed = e
	return nil
}

// checkReplaces: a team side's record that follows another of the same player in its
// activation names it (replaces), an earlier team record of its side and activation that
// nothing replaced yet; so every copy knows which records are current, those the close must
// use, without knowing whose they are (where the copy holds the sender records, checkSender
// checks that both are the same player's). A default replaces nothing.
func (v *verifier) checkReplaces(e *Entry, ta turnAct, side string) (uint64, error) {
	if v.th.live == nil {
		v.th.live, v.th.replaced = map[turnAct]map[string]int{}, map[uint64]bool{}
	}
	if v.th.live[ta] == nil {
		v.th.live[ta] = map[string]int{}
	}
	v.th.live[ta][strings.Clone(side)]++
	r := e.Record
	if !r.Has("replaces") {
		return 0, nil
	}
	j := r.Uint("replaces")
	o, ok := v.orders[j]
	switch {
	case r.Has("default"):
		return 0, v.fail(e, "a default replaces no record: it stands for a player who sent none")
	case !ok || !o.team || o.side != side || o.ta != ta:
		return 0, v.fail(e, "replaces record %d, not an earlier orders record of side %s in turn %d activation %d", j, side, ta.t, ta.a)
	case v.th.replaced[j]:
		return 0, v.fail(e, "replaces record %d, which a later record replaced already", j)
	}
	v.th.replaced[j] = true
	v.th.live[ta][side]--
	return j, nil
}

// checkSenderOwed: the record after a team side's orders record is its sender record, sealed
// for the side, in every view.
func (v *verifier) checkSenderOwed(e *Entry) error {
	if v.th.owedSt != nil {
		return v.checkStandingSenderOwed(e)
	}
	o := v.th.owed
	if o == nil {
		if r := e.Record; r.Type == TypeSealed && readSealed(r).what == TypeSender {
			return v.fail(e, "a sender record follows no orders record of a team side")
		}
		return nil
	}
	v.th.owed = nil
	r := e.Record
	sf := readSealed(r)
	rec := v.orders[o.Index]
	if r.Type != TypeSealed || sf.what != TypeSender || e.Index != o.Index+1 {
		return v.fail(o, "orders record of team side %s without its sender record right after it", rec.side)
	}
	if sf.side != rec.side || sf.turn != o.Record.Get("turn") || sf.act != o.Record.Get("activation") {
		return v.fail(e, "the sender record of orders record %d is sealed for side %q, turn %s activation %s (want side %s, its record's turn and activation)",
			o.Index, sf.side, sf.turn, sf.act, rec.side)
	}
	return nil
}

// checkStandingSenderOwed: the record after a team side's sealed standing record (v5) is
// its sender record, sealed for the side at the same turn and activation, in every view.
func (v *verifier) checkStandingSenderOwed(e *Entry) error {
	s := v.th.owedSt
	v.th.owedSt = nil
	r := e.Record
	sf := readSealed(r)
	side := v.st.side[s.Index]
	if r.Type != TypeSealed || sf.what != TypeSender || e.Index != s.Index+1 {
		return v.fail(s, "standing record of team side %s without its sender record right after it", side)
	}
	if sf.side != side || sf.turn != s.Record.Get("turn") || sf.act != s.Record.Get("activation") {
		return v.fail(e, "the sender record of standing record %d is sealed for side %q, turn %s activation %s (want side %s, its record's turn and activation)",
			s.Index, sf.side, sf.turn, sf.act, side)
	}
	return nil
}

// checkStandingNaming: a standing record names its player and when it came, except in v5 a
// team side's, which names its side only: its sender record names the player, his mail and
// when it came (the standing record is unsealed for the other side once a close uses it).
func (v *verifier) checkStandingNaming(e *Entry) (team bool, err error) {
	r := e.Record
	team = v.v5 && v.teamSide(v.st.side[e.Index])
	switch {
	case team && (r.Has("player") || r.Has("received") || r.Has("message-id")):
		return true, v.fail(e, "a standing record of team side %s names no player, time or mail in %s: the sender record sealed for the side after it does", v.st.side[e.Index], v.f.Format)
	case !team && (!r.Has("player") || !r.Has("received")):
		return false, v.fail(e, "a standing record names its player and when it came (in %s a team side's alone leaves them to its sender record)", v.f.Format)
	}
	return team, nil
}

// checkStandingSender: the sender record of a team side's standing record (v5) names a
// player of its side, for no one else; its Message-ID feeds one standing record of the
// standing record's kind.
func (v *verifier) checkStandingSender(e *Entry, i uint64) error {
	r := e.Record
	p, side := r.Get("player"), r.Get("side")
	switch {
	case i+1 != e.Index || !v.teamSide(v.st.side[i]):
		return v.fail(e, "a sender record of standing record %d, not the team side's standing record right before it", i)
	case side != v.st.side[i] || v.players[p] != side:
		return v.fail(e, "the sender of standing record %d of side %s is %s, a player of side %q", i, v.st.side[i], p, v.players[p])
	case r.Has("for"):
		return v.fail(e, "standing orders are their sender's own: a sender record of standing record %d names no one he answers for", i)
	}
	if err := v.standingMessageID(e, i, r.Get("message-id")); err != nil {
		return err
	}
	return v.checkPlace(e)
}

// checkSender: the sender record (in a view that holds it) names a player of the orders
// record's side, once the latest of his own; "for" only from the side's commander, for
// another player of his side, never with a default; its Message-ID by v3's rules. The
// sender record of a standing record: checkStandingSender.
func (v *verifier) checkSender(e *Entry) error {
	r := e.Record
	i := r.Uint("orders")
	o, ok := v.orders[i]
	p, side := r.Get("player"), r.Get("side")
	_, standing := v.st.side[i]
	switch {
	case !v.v5:
		return v.fail(e, "sender records belong to %s and later, not %s", FormatV5, v.f.Format)
	case standing:
		return v.checkStandingSender(e, i)
	case !ok || !o.team || i+1 != e.Index:
		return v.fail(e, "a sender record of record %d, not the team side's orders record right before it", i)
	case side != o.side || v.players[p] != side:
		return v.fail(e, "the sender of orders record %d of side %s is %s, a player of side %q", i, o.side, p, v.players[p])
	case o.isDefault && (r.Has("message-id") || r.Has("for")):
		return v.fail(e, "a default is no one's mail, and no one's orders for another")
	}
	counts := p
	if r.Has("for") {
		f := r.Get("for")
		switch {
		case f == p || v.players[f] != side:
			return v.fail(e, "orders of %s for %s, who is not another player of his side", p, f)
		case v.team.commander[side] != "" && v.team.commander[side] != p:
			return v.fail(e, "orders of %s for %s: only the side's commander (%s) answers for another player", p, f, v.team.commander[side])
		}
		counts = f
	}
	if err := v.checkHeldOf(e, o.ta, o.held, r.Get("message-id")); err != nil {
		return err
	}
	prev, had := v.th.latest[o.ta][counts]
	switch {
	case o.replaces == 0 && had:
		return v.fail(e, "orders record %d is %s's second of turn %d activation %d and names no record it replaces (his %d)", i, counts, o.ta.t, o.ta.a, prev)
	case o.replaces != 0 && (!had || prev != o.replaces):
		return v.fail(e, "orders record %d of %s replaces record %d, not his latest of the activation", i, counts, o.replaces)
	}
	o.player, o.forP, o.messageID = p, "", r.Get("message-id")
	if counts != p {
		o.forP = counts
	}
	v.orders[i] = o.kept()
	if v.th.latest == nil {
		v.th.latest = map[turnAct]map[string]uint64{}
	}
	if v.th.latest[o.ta] == nil {
		v.th.latest[o.ta] = map[string]uint64{}
	}
	v.th.latest[o.ta][strings.Clone(counts)] = i
	return v.checkPlace(e)
}

// checkTeamUses: a close uses, of each team side its activation asks, exactly its count of
// orders records, each once, each one no later record replaces and every such one, none of
// another side; where this copy holds the side's sender records,
// one per player, the latest of each. A copy without them cannot tell whose each record is
// before the game's end: the report says so.
func (v *verifier) checkTeamUses(e *Entry, ta turnAct, uses []uint64) error {
	got := map[string]int{}
	players := map[string]bool{}
	seen := map[uint64]bool{}
	for _, i := range uses {
		o := v.orders[i]
		if !o.team {
			continue
		}
		if seen[i] { // in a copy without the sender records the count alone would pass it
			return v.fail(e, "uses orders record %d of team side %s twice", i, o.side)
		}
		if v.th.replaced[i] {
			return v.fail(e, "uses orders record %d of team side %s, which a later record replaces", i, o.side)
		}
		seen[i] = true
		got[o.side]++
		if o.player == "" {
			if v.th.noted == nil {
				v.th.noted = map[string]bool{}
			}
			if !v.th.noted[o.side] {
				v.th.noted[o.side] = true
				v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("this copy holds no sender records of team side %s: each close's count of its orders records, and that they are its current ones, are checked, not whose each is (checked in that side's copy, and in every copy once the game has ended)", o.side))
			}
			continue
		}
		k := o.player
		if o.forP != "" {
			k = o.forP
		}
		switch {
		case players[k]:
			return v.fail(e, "uses two orders records of player %s", k)
		case v.th.latest[ta][k] != i:
			return v.fail(e, "uses orders record %d of player %s, not its latest (%d)", i, k, v.th.latest[ta][k])
		}
		players[k] = true
	}
	asks := v.th.asks[ta]
	var sides []string
	for s := range got {
		sides = append(sides, s)
	}
	for s := range asks {
		if !slices.Contains(sides, s) {
			sides = append(sides, s)
		}
	}
	slices.Sort(sides)
	for _, s := range sides {
		if got[s] != asks[s] {
			return v.fail(e, "uses %d orders records of team side %s; turn %d activation %d asked %d of its players (one record each)", got[s], s, ta.t, ta.a, asks[s])
		}
		if live := v.th.live[ta][s]; live != got[s] {
			return v.fail(e, "uses %d orders records of team side %s, which has %d that no later record replaces: a close uses every current one", got[s], s, live)
		}
	}
	return nil
}

// inputID is the id an orders record enters E under: its player's, or in v5 for a team
// side's record its side's, so that E is computable in every view (docs/DICE.md 3).
func (o ordersRec) inputID() string {
	if o.team {
		return o.side
	}
	return o.player
}
