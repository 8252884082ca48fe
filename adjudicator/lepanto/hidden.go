package lepanto

import (
	"fmt"
	"slices"

	"navarch/adjudicator"
)

// setUpOrder places a leader at the start (4.5): aboard a ship of his group, face up or
// hidden ("LEADER ON UNIT [HIDDEN]", or "LEADER HIDDEN" to stay aboard his ship face down).
type setUpOrder struct {
	line         int
	leader, unit string
	hidden       bool
}

func (o *setUpOrder) Line() int { return o.line }

func (o *setUpOrder) String() string {
	s := o.leader
	if o.unit != "" {
		s += " ON " + o.unit
	}
	if o.hidden {
		s += " HIDDEN"
	}
	return s
}

func parseSetUp(n int, f []string) (adjudicator.Order, error) {
	o := &setUpOrder{line: n, leader: f[0]}
	rest := f[1:]
	if len(rest) >= 2 && rest[0] == "ON" {
		o.unit, rest = rest[1], rest[2:]
	}
	if len(rest) == 1 && rest[0] == "HIDDEN" {
		o.hidden, rest = true, nil
	}
	if len(rest) > 0 || o.unit == "" && !o.hidden {
		return nil, fmt.Errorf("want LEADER ON UNIT [HIDDEN] or LEADER HIDDEN")
	}
	return o, nil
}

// Sealed reports whether the state holds hidden information: a leader in hidden mode
// (adjudicator.Sealer).
func (g *Game) Sealed() bool {
	return slices.ContainsFunc(g.Leaders, func(l *Leader) bool { return l.Hidden && l.Status == "" })
}

// validateSetUp: each of the side's leaders once, aboard a unit of his group, a single ship
// while the group has one (4.1, 4.5).
func (v *validation) setUp(orders []adjudicator.Order) {
	for _, o := range orders {
		so, ok := o.(*setUpOrder)
		if !ok {
			v.fail(o, nil, "only LEADER ON UNIT [HIDDEN] or LEADER HIDDEN orders are due at set-up (4.5)")
			continue
		}
		l := v.g.leader(so.leader)
		switch {
		case l == nil || l.Side != v.side || l.Status != "":
			v.fail(o, nil, "%s is not a leader of yours", so.leader)
		case v.seen[l.ID]:
			v.fail(o, nil, "%s has orders on an earlier line", l.ID)
		case so.unit != "" && !slices.Contains(v.g.leaderShips(l.Group), so.unit):
			v.fail(o, v.g.leaderShips(l.Group), "%s starts aboard a single ship of group %s (4.1)", l.ID, l.Group)
		}
		if l != nil {
			v.seen[l.ID] = true
		}
	}
}

// setUp places the leaders as ordered; a side that sends nothing keeps its leaders face up
// on the ships the orders of battle give (4.5). Where a hidden leader went is told only to
// his own side.
func (rs *resolver) setUp(orders map[string][]adjudicator.Order) error {
	g := rs.g
	g.SetUp = true
	for _, side := range g.sc.Sides {
		hidden := 0
		for _, o := range orders[side] {
			so, ok := o.(*setUpOrder)
			if !ok {
				continue
			}
			l := g.leader(so.leader)
			if so.unit != "" {
				l.Unit = so.unit
			}
			l.Hidden = so.hidden
			if l.Hidden {
				hidden++
				rs.private(side, "4.5", "%s sets up hidden aboard %s", l.Name, l.Unit)
			} else {
				rs.event("4.5", "%s sets up aboard %s", l.Name, l.Unit)
			}
		}
		if hidden > 0 {
			rs.event("4.5", "The %s player sets up %s in hidden mode", side, count(hidden, "leader", "leaders"))
		}
	}
	return nil
}

// private records an event only the side may see, of the kind its rule's section gives.
func (rs *resolver) private(side, rule, format string, args ...any) {
	rs.privateAs(adjudicator.KindOf(kinds, rule), side, rule, format, args...)
}

// privateAs records an event only the side may see, of a kind its place knows.
func (rs *resolver) privateAs(kind adjudicator.Kind, side, rule, format string, args ...any) {
	rs.events = append(rs.events, adjudicator.Event{Rule: rule, Side: side, Text: fmt.Sprintf(format, args...), Rolls: rs.notes.Take(), Kind: kind})
}

// reveal turns face up the hidden leaders aboard u (4.5): when they lead an attack, or when
// a casualty check is rolled for them (the check is in the public log).
func (rs *resolver) reveal(u *Unit, why string) {
	for _, l := range rs.g.leadersAboard(u) {
		if l.Hidden {
			l.Hidden = false
			rs.eventAs(adjudicator.KindAction, "4.5", "%s is revealed aboard %s (%s)", l.Name, u.ID, why)
		}
	}
}
