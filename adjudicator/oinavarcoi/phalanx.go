package oinavarcoi

import (
	"fmt"
	"sort"
	"strings"

	"navarch/adjudicator/table"
)

// Phalanx orders (rule Phalanx.orders).
const (
	PhMove    = "MOVE"
	PhRedress = "REDRESS"
	PhDeploy  = "DEPLOY"
)

// Phalanx is one wing of an army in the amphibious battle: hoplite and euzonoi stands.
type Phalanx struct {
	ID, Side, Wing    string
	Hoplites, Euzonoi int
	Pose              table.Pose
	Order             string // the standing order: MOVE, REDRESS, DEPLOY, or "" (halted)
	Deployed          bool   // in battle line (DEPLOY), shown in reports; a moving phalanx is not (DESIGNED: no effect on dice)
	Pushes            int    // push-backs suffered (rule Phalanx.melee)
	Routed            bool
}

func (g *Game) phalanx(id string) *Phalanx {
	for _, p := range g.Phalanxes {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (g *Game) phalanxBase(p *Phalanx) table.Base {
	r := g.data.Rules
	return table.Base{Length: r.PhalanxDepth, Beam: r.PhalanxWidth * table.Len(p.Hoplites+p.Euzonoi)}
}

func (g *Game) phalanxCorners(p *Phalanx) table.Polygon { return g.phalanxBase(p).Corners(p.Pose) }

// inRespect reports whether p is within the 5-inch Respect area of an enemy phalanx.
func (g *Game) inRespect(p *Phalanx, pg table.Polygon) *Phalanx {
	for _, e := range g.Phalanxes {
		if e.Side != p.Side && !e.Routed && table.Distance(pg, g.phalanxCorners(e)) <= g.data.Rules.Respect {
			return e
		}
	}
	return nil
}

// phalanxOrders applies the phalanx orders given secretly after the initiative roll and
// reveals them together (rule Phalanx.orders); a phalanx with no new order keeps its last.
func (rs *resolver) phalanxOrders(orders map[string][]*Order) {
	g := rs.g
	for _, side := range g.sc.Sides {
		for _, o := range orders[side] {
			if o.Phalanx == "" {
				continue
			}
			p := g.phalanx(o.Phalanx)
			if p == nil || p.Side != side {
				continue // Validate refuses these
			}
			p.Order = o.PhOrder
			rs.event("Phalanx.orders", "%s's phalanx %s is ordered to %s", side, p.ID, p.Order)
			switch p.Order {
			case PhDeploy:
				p.Deployed = true
			case PhRedress:
				if p.Pushes > 0 {
					p.Pushes--
					rs.event("Phalanx.orders", "%s redresses its ranks: one push-back made good", p.ID)
				}
			}
		}
	}
}

// movePhalanxes: a moving phalanx of side keeps going until it enters the 5-inch Respect
// area of an enemy phalanx, where it halts (rule Phalanx.respect).
func (rs *resolver) movePhalanxes(side string) {
	g := rs.g
	for _, p := range g.Phalanxes {
		if p.Side != side || p.Routed || p.Order != PhMove {
			continue
		}
		p.Deployed = false
		b := g.phalanxBase(p)
		if e := g.inRespect(p, b.Corners(p.Pose)); e != nil {
			p.Order = ""
			rs.event("Phalanx.respect", "%s is in the Respect area of %s: it halts", p.ID, e.ID)
			continue
		}
		d := table.Len(0)
		for ; d < g.data.Rules.PhalanxMove; d++ {
			if g.inRespect(p, b.Corners(p.Pose.Forward(d+1))) != nil {
				d++
				break
			}
		}
		p.Pose = p.Pose.Forward(d)
		rs.event("Phalanx.respect", "%s advances %s\" to %v", p.ID, table.FormatInches(d), p.Pose.At)
		if e := g.inRespect(p, b.Corners(p.Pose)); e != nil {
			p.Order = ""
			rs.event("Phalanx.respect", "%s enters the Respect area of %s and halts", p.ID, e.ID)
		}
	}
}

// phalanxMelee: opposing phalanxes within the Respect area fight. Each allocates 3d6 to each
// hoplite stand, deployed or not, and 2d6 to each euzonoi stand; the stand
// totals are paired best against best; the side that wins fewer pairs loses: losing hoplites
// are pushed back, and rout on the second push-back; losing euzonoi alone lose a stand
// (SUBSTITUTE). An army routs when two wings rout (rules Phalanx.melee, Phalanx.rout).
func (rs *resolver) phalanxMelee() error {
	g := rs.g
	done := map[string]bool{}
	for _, p := range g.Phalanxes {
		if p.Routed || done[p.ID] || g.sc.SideIndex(p.Side) != 0 {
			continue
		}
		e := g.inRespect(p, g.phalanxCorners(p))
		if e == nil || done[e.ID] {
			continue
		}
		done[p.ID], done[e.ID] = true, true
		a, err := rs.phalanxDice(p)
		if err != nil {
			return err
		}
		b, err := rs.phalanxDice(e)
		if err != nil {
			return err
		}
		wa, wb := 0, 0
		for i := 0; i < min(len(a), len(b)); i++ {
			switch {
			case a[i] > b[i]:
				wa++
			case b[i] > a[i]:
				wb++
			}
		}
		rs.event("Phalanx.melee", "%s %v against %s %v: pairs won %d to %d", p.ID, a, e.ID, b, wa, wb)
		switch {
		case wa < wb:
			rs.loseRound(p, e)
		case wb < wa:
			rs.loseRound(e, p)
		}
	}
	return nil
}

// phalanxDice rolls each stand's dice and returns the totals, best first.
func (rs *resolver) phalanxDice(p *Phalanx) ([]int, error) {
	var out []int
	for k := 1; k <= p.Hoplites+p.Euzonoi; k++ {
		n := 2 // euzonoi 2d6
		if k <= p.Hoplites {
			n = 3 // hoplites 3d6, deployed or not: the text sets no condition (rule Phalanx.melee)
		}
		roll, err := rs.r.Roll(fmt.Sprintf("phalanx/%s/%d", p.ID, k), 6, n)
		if err != nil {
			return nil, err
		}
		roll.Rule = "Phalanx.melee"
		t := 0
		for _, v := range roll.Values {
			t += v
		}
		out = append(out, t)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out, nil
}

func (rs *resolver) loseRound(p, winner *Phalanx) {
	g := rs.g
	if p.Hoplites == 0 {
		p.Euzonoi--
		rs.event("Phalanx.melee", "%s loses a stand of euzonoi", p.ID)
		if p.Euzonoi == 0 {
			p.Routed = true
			rs.event("Phalanx.rout", "%s is destroyed", p.ID)
		}
		return
	}
	p.Pushes++
	p.Pose = p.Pose.Forward(-g.data.Rules.PhalanxPush)
	if p.Pushes >= 2 {
		p.Routed = true
		rs.event("Phalanx.rout", "%s is pushed back a second time by %s and routs", p.ID, winner.ID)
		return
	}
	rs.event("Phalanx.melee", "%s is pushed back by %s", p.ID, winner.ID)
}

// armyRouted returns the side whose army has two routed wings, or "".
func (g *Game) armyRouted() string {
	for _, side := range g.sc.Sides {
		n := 0
		for _, p := range g.Phalanxes {
			if p.Side == side && p.Routed {
				n++
			}
		}
		if n >= 2 {
			return side
		}
	}
	return ""
}

// validatePhalanx checks PHALANX lines: the side's own phalanxes, once each, not routed.
func (g *Game) validatePhalanx(side string, o *Order, seen map[string]bool) string {
	p := g.phalanx(o.Phalanx)
	switch {
	case p == nil || p.Side != side:
		var own []string
		for _, q := range g.Phalanxes {
			if q.Side == side {
				own = append(own, q.ID)
			}
		}
		return fmt.Sprintf("%s is not a phalanx of yours (%s)", o.Phalanx, strings.Join(own, ", "))
	case p.Routed:
		return p.ID + " has routed"
	case seen[p.ID]:
		return "one order per phalanx"
	}
	seen[p.ID] = true
	return ""
}

func encodePhalanxes(b *strings.Builder, ps []*Phalanx) {
	for _, p := range ps {
		fmt.Fprintf(b, "phalanx %s %s %s %d/%d %d %d %d order=%q deployed=%t pushes=%d routed=%t\n", p.ID, p.Side, p.Wing,
			p.Hoplites, p.Euzonoi, p.Pose.At.X, p.Pose.At.Y, p.Pose.Heading, p.Order, p.Deployed, p.Pushes, p.Routed)
	}
}
