package lepanto

import "fmt"

// route finds the move of fewest MP that takes u from where the board has it to dest (and
// to the facing face, if given), after the mode change given (SAIL or ROW, 12.4), by the
// rules of section 3 as plan checks them: a search over the unit's positions in order of MP
// spent, ties broken by the order the steps are tried (ahead, beside to the left, beside to
// the right, astern, then turns to the left and right). MOVE TO orders are turned into this
// path when they are validated, so the log holds the path itself.
func (b *board) route(u *Unit, mode []pathStep, dest Hex, face *Dir) ([]pathStep, error) {
	type key struct {
		p       position
		moved   bool
		credit  int // hexes entered less turns made (3.1.1)
		sailing bool
	}
	type node struct {
		path  []pathStep
		res   moveResult
		turns int
		order int
	}
	start, err := b.planSteps(u, mode)
	if err != nil {
		return nil, err
	}
	frontier := []node{{path: mode, res: start}}
	done := map[key]bool{}
	seq := 0
	for len(frontier) > 0 {
		best := 0
		for i, n := range frontier {
			if n.res.mp < frontier[best].res.mp || n.res.mp == frontier[best].res.mp && n.order < frontier[best].order {
				best = i
			}
		}
		n := frontier[best]
		frontier = append(frontier[:best], frontier[best+1:]...)
		k := key{n.res.end, n.res.entered > 0, min(n.res.entered-n.turns, 6), n.res.end.sailing}
		if done[k] {
			continue
		}
		done[k] = true
		p := n.res.end
		if p.hex == dest && (face == nil || p.facing == *face) && len(n.path) > len(mode) {
			if _, err := b.planFree(u, n.path); err == nil {
				return n.path, nil
			}
		}
		for _, s := range []pathStep{
			{kind: stepHex, hex: p.hex.Neighbor(p.facing)},
			{kind: stepHex, hex: p.hex.Neighbor(p.facing.Turn(-1))},
			{kind: stepHex, hex: p.hex.Neighbor(p.facing.Turn(1))},
			{kind: stepHex, hex: p.hex.Neighbor(p.facing.Opposite())},
			{kind: stepLeft}, {kind: stepRight},
		} {
			path := append(append([]pathStep(nil), n.path...), s)
			res, err := b.planSteps(u, path)
			if err != nil {
				continue
			}
			turns := n.turns
			if s.kind != stepHex || res.end.facing != p.facing {
				turns++
			}
			seq++
			frontier = append(frontier, node{path: path, res: res, turns: turns, order: seq})
		}
	}
	to := dest.String()
	if face != nil {
		to += " facing " + face.String()
	}
	if b.pos(u).hex == dest && (face == nil || b.pos(u).facing == *face) {
		return nil, &moveError{msg: fmt.Sprintf("%s is at %s already", u.ID, to)}
	}
	return nil, &moveError{msg: fmt.Sprintf("no legal move takes %s to %s with the %d MP it has (3, 16.05)", u.ID, to, b.g.allowanceIn(u, b.pos(u).sailing))}
}
