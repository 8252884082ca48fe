package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// engagedPairs lists every pair of engaged units once, in canonical order.
func (g *Game) engagedPairs() [][2]*Unit {
	var out [][2]*Unit
	for i, u := range g.Units {
		for _, o := range g.Units[i+1:] {
			if u.InPlay() && o.InPlay() && contains(u.Engaged, o.ID) {
				out = append(out, [2]*Unit{u, o})
			}
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// boardingChit: every grappled pair must board; "the drawing player chooses the boardings'
// resolution order" (8), so with two or more pairs the step waits for his BOARD orders.
func (rs *resolver) boardingChit() error {
	g := rs.g
	pairs := g.engagedPairs()
	if len(pairs) == 0 {
		rs.event("8", "Boarding chit: no units are engaged: no effect")
	}
	if len(pairs) >= 2 && g.Drawer != "" {
		g.Wait, g.WaitSides, g.WaitGroup = waitBoarding, []string{g.Drawer}, ChitBoarding
		rs.event("8", "Boarding chit: %d boardings; the drawing player (%s) chooses their order", len(pairs), g.Drawer)
		return nil
	}
	return rs.boardings(pairs)
}

// boardings resolves the pairs in the order given, each once.
func (rs *resolver) boardings(pairs [][2]*Unit) error {
	for _, p := range pairs {
		if !p[0].InPlay() || !p[1].InPlay() {
			continue
		}
		if err := rs.board(p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// orderedPairs puts the pairs the BOARD orders name first, in their order, then the others
// in canonical order (8).
func (g *Game) orderedPairs(orders []adjudicator.Order) [][2]*Unit {
	pairs := g.engagedPairs()
	var out [][2]*Unit
	for _, o := range orders {
		bo, ok := o.(*boardOrder)
		if !ok {
			continue
		}
		if i := pairIndex(pairs, bo.units); i >= 0 {
			out = append(out, pairs[i])
			pairs = slices.Delete(pairs, i, i+1)
		}
	}
	return append(out, pairs...)
}

// pairIndex finds the one pair holding the named units, or -1.
func pairIndex(pairs [][2]*Unit, units []string) int {
	found := -1
	for i, p := range pairs {
		has := func(id string) bool { return p[0].ID == id || p[1].ID == id }
		if has(units[0]) && (len(units) == 1 || has(units[1])) {
			if found >= 0 {
				return -2 // ambiguous: the unit is in two pairs
			}
			found = i
		}
	}
	return found
}

// validateBoard: each BOARD line names one pending boarding, once (8).
func (v *validation) board(orders []adjudicator.Order) {
	pairs := v.g.engagedPairs()
	var names []string
	for _, p := range pairs {
		names = append(names, p[0].ID+" "+p[1].ID)
	}
	done := map[int]bool{}
	for _, o := range orders {
		bo, ok := o.(*boardOrder)
		if !ok {
			v.fail(o, nil, "only BOARD orders are due for the Boarding chit")
			continue
		}
		switch i := pairIndex(pairs, bo.units); {
		case i == -2:
			v.fail(o, names, "%s is in more than one boarding: name both units", bo.units[0])
		case i < 0:
			v.fail(o, names, "no pending boarding between %s", strings.Join(bo.units, " and "))
		case done[i]:
			v.fail(o, nil, "that boarding is ordered on an earlier line")
		default:
			done[i] = true
		}
	}
}

// board resolves one boarding (8.1, 8.2): both roll d6 plus HV and the higher boards (a tie
// goes to the Christian unit); the boarding party rolls on the Boarding Table, -2 with an
// admiral aboard, -1 with a captain.
func (rs *resolver) board(x, y *Unit) error {
	label := fmt.Sprintf("board/%s+%s", x.ID, y.ID)
	dx, _, err := rs.roll(label+"/"+x.ID, 6, "8.1")
	if err != nil {
		return err
	}
	dy, _, err := rs.roll(label+"/"+y.ID, 6, "8.1")
	if err != nil {
		return err
	}
	att, def := x, y
	if dy+y.HV > dx+x.HV || dy+y.HV == dx+x.HV && y.Side == "christian" {
		att, def = y, x
	}
	rs.reveal(att, "leads an attack")
	drm := 0
	for _, l := range rs.g.leadersAboard(att) {
		drm = min(drm, map[string]int{"admiral": -2, "captain": -1}[l.Kind])
	}
	d6, roll, err := rs.roll(label+"/party", 6, "8.1")
	if err != nil {
		return err
	}
	res, _ := rs.g.tables.Get("boarding").IntCol(d6+drm, "result")
	roll.Note = fmt.Sprintf("%d%+d: %s", d6, drm, res)
	rs.event("8.1", "Boarding: %s %d+%d against %s %d+%d; %s boards %s, d6 %d%+d: %s%s", x.ID, dx, x.HV, y.ID, dy, y.HV, att.ID, def.ID, d6, drm, res, rs.substitute("boarding"))
	return rs.boardingResult(att, def, res, label)
}

func (rs *resolver) boardingResult(att, def *Unit, res, label string) error {
	switch res {
	case "A":
		return rs.capture(att, def, label)
	case "R":
		rs.event("8.2", "%s's boarding party is repulsed", att.ID)
		return nil
	}
	need := int(res[0] - '0')
	d6, roll, err := rs.roll(label+"/capture", 6, "8.2")
	if err != nil {
		return err
	}
	roll.Note = fmt.Sprintf("need %d", need)
	if d6 >= need {
		return rs.capture(att, def, label)
	}
	rs.event("8.2", "%s needs %d, rolls %d: repulsed", att.ID, need, d6)
	return nil
}

// capture: the boarded unit surrenders (8.2 A): its leaders check casualties, it is
// eliminated, and its wing loses two boxes.
func (rs *resolver) capture(att, def *Unit, label string) error {
	rs.eventAs(adjudicator.KindLoss, "8.2", "%s captures %s", att.ID, def.ID)
	def.Status = "surrendered"
	rs.traceAt("captured", def, def.Hex)
	rs.g.disengageAll(def)
	def.Engaged = nil
	if err := rs.leaderCasualties(def, "boarding", label); err != nil {
		return err
	}
	rs.loseBoxes(def.Wing, 2)
	return nil
}

// disengageChit: sides with engaged units are asked which to disengage (2.4.4), but for
// those whose standing ENGAGED STAY says their units stay engaged.
func (rs *resolver) disengageChit() {
	g := rs.g
	var sides []string
	engaged := false
	for _, side := range g.sc.Sides {
		if len(g.engagedUnits(side)) > 0 {
			engaged = true
			if !slices.Contains(g.EngagedStay, side) {
				sides = append(sides, side)
			}
		}
	}
	if !engaged {
		rs.event("2.4.4", "Disengage chit: no units are engaged: no effect")
		return
	}
	if len(sides) == 0 {
		rs.event("2.4.4", "Disengage chit: the engaged units stay engaged (their players keep them so)")
		return
	}
	g.Wait, g.WaitSides, g.WaitGroup = waitDisengage, sides, ChitDisengage
	rs.event("2.4.4", "Disengage chit: %s may disengage engaged units", strings.Join(sides, " and "))
}

// disengage resolves the Disengage chit's orders (2.4.4, 7.2): a unit whose partner also
// disengages leaves freely; otherwise it must roll its HV or less. It then rows its way out.
func (rs *resolver) disengage(orders map[string][]adjudicator.Order) error {
	g := rs.g
	leaving := map[string]*unitOrder{}
	var order []*unitOrder
	for _, side := range g.sc.Sides {
		for _, o := range orders[side] {
			if uo, ok := o.(*unitOrder); ok && uo.disengage {
				leaving[uo.unit] = uo
				order = append(order, uo)
			}
		}
	}
	partners := map[string][]string{} // engagements as the chit found them
	for _, u := range g.Units {
		partners[u.ID] = u.Engaged
	}
	for _, o := range order {
		if err := rs.disengageUnit(g.unit(o.unit), o, partners[o.unit], leaving); err != nil {
			return err
		}
	}
	return nil
}

func (rs *resolver) disengageUnit(u *Unit, o *unitOrder, partners []string, leaving map[string]*unitOrder) error {
	if u == nil || !u.InPlay() || len(partners) == 0 {
		return nil
	}
	agreed := true
	for _, id := range partners {
		agreed = agreed && leaving[id] != nil
	}
	if !agreed {
		d6, roll, err := rs.roll("disengage/"+u.ID, 6, "2.4.4")
		if err != nil {
			return err
		}
		roll.Note = fmt.Sprintf("%d against HV %d", d6, u.HV)
		if d6 > u.HV {
			rs.event("2.4.4", "%s fails to disengage: d6 %d against HV %d", u.ID, d6, u.HV)
			return nil
		}
	}
	res, err := (&board{g: rs.g}).planOut(u, o.move)
	if err != nil {
		rs.event("2.4.4", "%s cannot row out as ordered: %v; it stays engaged", u.ID, err)
		return nil
	}
	rs.g.disengageAll(u)
	u.Engaged = nil
	from := u.Hex
	u.Hex, u.Facing = res.end.hex, res.end.facing
	rs.eventAs(adjudicator.KindChange, "2.4.4", "%s disengages and rows %s→%s", u.ID, from, u.Hex)
	return nil
}
