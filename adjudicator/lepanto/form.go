package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// OrderForm lists side's units that may act in the step awaited, with where each stands, its
// movement allowance (16.05), the hexes in its reach (3), the enemies in its arc (5.2.1), and
// pre-filled lines that state the no-orders default (each unit PASS), which Validate accepts.
func (g *Game) OrderForm(side string) adjudicator.Form {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return adjudicator.Form{}
	}
	f := adjudicator.Form{Default: st.Default}
	switch {
	case !g.SetUp:
		for _, l := range g.Leaders {
			if l.Side == side && l.Status == "" {
				f.Units = append(f.Units, adjudicator.FormUnit{ID: l.ID, Where: l.Unit,
					May: []string{"ON " + strings.Join(g.leaderShips(l.Group), "|") + " [HIDDEN]", "HIDDEN"}})
				f.Lines = append(f.Lines, l.ID+" ON "+l.Unit)
			}
		}
	case g.Wait == waitGroup:
		for _, u := range g.Units {
			if u.Group == g.WaitGroup && u.InPlay() {
				f.Units = append(f.Units, g.formUnit(u))
				f.Lines = append(f.Lines, u.ID+" PASS")
			}
		}
	case g.Wait == waitFury:
		f.Units = append(f.Units, adjudicator.FormUnit{ID: g.WaitGroup, May: []string{"ACTIVATE " + strings.Join(g.furyGroups(g.WaitGroup), "|") + ", then orders for that group's units"}})
	case g.Wait == waitDisengage:
		for _, id := range g.engagedUnits(side) {
			f.Units = append(f.Units, adjudicator.FormUnit{ID: id, Where: g.unit(id).Hex.String(), Facing: g.unit(id).Facing.String(), May: []string{"DISENGAGE with a move out of the hex"}})
		}
	case g.Wait == waitLeaderMove:
		for _, l := range g.Leaders {
			if t := g.leaderTargets(l.ID); l.Side == side && len(t) > 0 {
				f.Units = append(f.Units, adjudicator.FormUnit{ID: l.ID, May: []string{"TO " + strings.Join(t, "|")}})
			}
		}
	}
	if !g.legalLines(side, f.Lines) {
		f.Lines = nil
	}
	return f
}

// formUnit is u as the form shows it: position, allowance, reach, targets.
func (g *Game) formUnit(u *Unit) adjudicator.FormUnit {
	mode := "rowing"
	if u.Sailing {
		mode = "sailing"
	}
	fu := adjudicator.FormUnit{ID: u.ID, Where: u.Hex.String(), Facing: u.Facing.String(),
		Allowance: fmt.Sprintf("%d MP (%s; %s)", g.allowanceIn(u, u.Sailing), mode, turnCost(u)), May: []string{"PASS"}}
	if reach := g.reach(u); len(reach) > 0 {
		fu.May = append(fu.May, "MOVE to "+strings.Join(reach, " ")+" (MOVE TO HEX [FACING DIR] finds the path of fewest MP)")
	}
	b := &board{g: g, moved: map[string]position{}}
	if g.canFire(u, false) == "" {
		if t := b.targets(u); len(t) > 0 {
			fu.May = append(fu.May, "FIRE at "+strings.Join(t, " "))
		}
	}
	if g.cannotRepair(u, false) == "" {
		fu.May = append(fu.May, "REPAIR")
	}
	return fu
}

// turnCost says what a turn costs the unit (3.1, 3.1.2-3.1.4, 12.2).
func turnCost(u *Unit) string {
	switch {
	case u.Sailing:
		return "turns cost no MP under sail"
	case u.Galleass():
		return "it turns one hexside only after one hex ahead, for the rest of its MP; no turn in place"
	}
	return "a turn 1 MP, one per hex entered; the hex beside the bow or astern 2 MP"
}

// reach lists the hexes u can end a legal move in, in hex-number order (a breadth-first search over
// hex paths, each checked by the rules of section 3 as Validate checks it).
func (g *Game) reach(u *Unit) []string {
	return g.reachOn(&board{g: g, moved: map[string]position{}, still: true}, u)
}

// reachOn is reach planned on b, a board on which nothing has moved.
func (g *Game) reachOn(b *board, u *Unit) []string {
	start := b.pos(u)
	type node struct {
		p    position
		path []pathStep
	}
	seen := map[position]bool{start: true}
	ends := map[Hex]bool{start.hex: true}
	var out []string
	frontier := []node{{p: start}}
	for depth := 0; depth < 12 && len(frontier) > 0; depth++ {
		var next []node
		for _, n := range frontier {
			for d := N; d <= NW; d++ {
				h := n.p.hex.Neighbor(d)
				if !g.onMap(h) {
					continue
				}
				path := append(slices.Clone(n.path), pathStep{kind: stepHex, hex: h})
				res, err := b.plan(u, path)
				if err != nil || seen[res.end] {
					continue
				}
				seen[res.end] = true
				next = append(next, node{res.end, path})
				if !ends[res.end.hex] {
					ends[res.end.hex] = true
					out = append(out, res.end.hex.String())
				}
			}
		}
		frontier = next
	}
	slices.Sort(out)
	return out
}

// legalLines reports whether lines, sent as they stand, pass Parse and Validate.
func (g *Game) legalLines(side string, lines []string) bool {
	orders, errs := g.Parse(side, strings.Join(lines, "\n"))
	return len(errs) == 0 && len(g.Validate(side, orders)) == 0
}

var _ adjudicator.OrderFormer = (*Game)(nil)
