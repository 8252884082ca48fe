package play

import (
	"slices"
	"strconv"
	"strings"

	"navarch/adjudicator"
	"navarch/gamelog"
)

// Replay of v5's team sides (docs/LOG-FORMAT.md 3): an activation counts the players it asks
// of each team side (team-asks) instead of naming them, and an orders record of a team side
// names its player only in the sender record sealed for the side.

// teamReplay is what replay knows of v5's hidden asking.
type teamReplay struct {
	v5      bool
	size    map[string]int    // side → its players in the genesis record
	asks    map[string]int    // the open activation's team-asks
	sideOf  map[uint64]string // orders record → its side
	counted map[uint64]string // a team side's orders record → the player it counts for, where this view holds its sender
	want    []string          // the players the rules ask in the open step
}

func (tr *teamReplay) start(g *gamelog.Record, sides map[string]string) {
	tr.v5 = gamelog.AtLeast(g.Get("format"), gamelog.FormatV5)
	tr.size, tr.sideOf, tr.counted = map[string]int{}, map[uint64]string{}, map[uint64]string{}
	for _, s := range sides {
		tr.size[s]++
	}
}

func (tr *teamReplay) teamSide(side string) bool { return tr.v5 && tr.size[side] > 1 }

// activation reads an activation record's team-asks.
func (tr *teamReplay) activation(r *gamelog.Record) {
	tr.asks = map[string]int{}
	for _, l := range r.All("team-asks") {
		side, n, _ := strings.Cut(l, " ")
		tr.asks[side], _ = strconv.Atoi(n)
	}
}

// orders notes an orders record's side, and a sender record's player.
func (tr *teamReplay) record(e gamelog.Entry, sides map[string]string) {
	r := e.Record
	switch {
	case r.Type == gamelog.TypeOrders && r.Has("player"):
		tr.sideOf[e.Index] = sides[r.Get("player")]
	case r.Type == gamelog.TypeOrders:
		tr.sideOf[e.Index] = r.Get("side")
	case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeSender && e.Inner != nil:
		p := e.Inner.Get("player")
		if f := e.Inner.Get("for"); f != "" {
			p = f
		}
		tr.counted[e.Inner.Uint("orders")] = p
	}
}

// checkCounts: each team side's count is the number of its players the rules ask (want), by
// the assignments where this view holds them; a side whose assignments it lacks is counted
// exactly where the rules ask it. It returns want without the team sides' players, which
// act must list.
func (rp *replayer) checkCounts(st adjudicator.Step, want []string) ([]string, error) {
	tr := &rp.tr
	tr.want = want
	count := map[string]int{}
	var act []string
	for _, p := range want {
		if side := rp.sides[p]; tr.teamSide(side) {
			count[side]++
			continue
		}
		act = append(act, p)
	}
	sides := []string{}
	for s := range tr.size {
		if tr.teamSide(s) {
			sides = append(sides, s)
		}
	}
	slices.Sort(sides)
	for _, s := range sides {
		switch asked := st.Kind == adjudicator.NeedOrders && slices.Contains(st.Sides, s); {
		case rp.hidden[s] && asked != (tr.asks[s] > 0):
			return nil, rp.fail("turn %d activation %d (%s) asks %d players of side %s; the rules ask it %v", st.Turn, st.Act, st.What, tr.asks[s], s, asked)
		case !rp.hidden[s] && count[s] != tr.asks[s]:
			return nil, rp.fail("turn %d activation %d (%s) asks %d players of side %s; the rules ask %d", st.Turn, st.Act, st.What, tr.asks[s], s, count[s])
		}
	}
	return act, nil
}

// checkTeamPlayers: where this view holds a team side's sender records, the players the
// close's records of that side count for are the players the rules ask of it.
func (rp *replayer) checkTeamPlayers(st adjudicator.Step, cl *gamelog.Record) error {
	tr := &rp.tr
	if !tr.v5 {
		return nil
	}
	got, known := map[string][]string{}, map[string]bool{}
	for _, u := range cl.All("use") {
		i, _ := strconv.ParseUint(u, 10, 64)
		side := tr.sideOf[i]
		if !tr.teamSide(side) {
			continue
		}
		p, ok := tr.counted[i]
		if _, seen := known[side]; !seen {
			known[side] = true
		}
		known[side] = known[side] && ok
		got[side] = append(got[side], p)
	}
	for side, ps := range got {
		if !known[side] || rp.hidden[side] {
			continue
		}
		var want []string
		for _, p := range tr.want {
			if rp.sides[p] == side {
				want = append(want, p)
			}
		}
		slices.Sort(ps)
		if !slices.Equal(ps, want) {
			return rp.fail("turn %d activation %d (%s) uses orders of %v of side %s; the rules ask %v", st.Turn, st.Act, st.What, ps, side, want)
		}
	}
	return nil
}
