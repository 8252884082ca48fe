package lepanto

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// position is where a unit stands, which way it faces, and whether its sails are up (12).
type position struct {
	hex     Hex
	facing  Dir
	sailing bool
}

// board is the map as an activation's earlier orders have left it: units that moved are
// looked up in moved first. Resolution and validation use the same rules through it.
type board struct {
	g     *Game
	moved map[string]position
	// still: a board on which no unit moves (moved stays empty, the game unchanged), as the
	// order form's reach plans on; at then reads occupied, built once, not every unit, and
	// an illegal step is refused without its message (errPlanned).
	still    bool
	occupied map[Hex][]*Unit
}

func (b *board) pos(u *Unit) position {
	if p, ok := b.moved[u.ID]; ok {
		return p
	}
	return position{u.Hex, u.Facing, u.Sailing}
}

// at lists the units in play standing in h, in canonical order, except skip.
func (b *board) at(h Hex, skip *Unit) []*Unit {
	var out []*Unit
	if b.still && len(b.moved) == 0 {
		if b.occupied == nil {
			b.occupied = map[Hex][]*Unit{}
			for _, u := range b.g.Units {
				if u.InPlay() {
					b.occupied[u.Hex] = append(b.occupied[u.Hex], u)
				}
			}
		}
		for _, u := range b.occupied[h] {
			if u != skip {
				out = append(out, u)
			}
		}
		return out
	}
	for _, u := range b.g.Units {
		if u != skip && u.InPlay() && b.pos(u).hex == h {
			out = append(out, u)
		}
	}
	return out
}

// allowance is a unit's movement allowance in Rowing Mode (16.05): the type's value, less
// one with fire aboard and one under LMA, halved (rounded up) when Mast Down (9.1).
func (g *Game) allowance(u *Unit) int { return g.allowanceIn(u, false) }

// allowanceIn is the allowance in Rowing or Sailing Mode (16.05).
func (g *Game) allowanceIn(u *Unit, sailing bool) int {
	ma := u.Row
	if sailing {
		ma = u.Sail
	}
	if u.OnFire {
		ma += g.value("movement-modifiers", "fire-aboard", "mp")
	}
	if w := g.wing(u.Wing); w != nil && w.LMA {
		ma += g.value("movement-modifiers", "lma", "mp")
	}
	if u.MastDown {
		ma = (ma + 1) / 2
	}
	return max(ma, 0)
}

// moveResult is what a legal maneuver leaves.
type moveResult struct {
	end     position
	mp      int // movement points spent
	entered int // hexes entered
}

// moveError is an illegal maneuver step and what would have been legal there.
type moveError struct {
	msg   string
	legal []string
}

func (e *moveError) Error() string { return e.msg }

// plan checks a unit's MOVE steps against the rules of section 3 and returns where it ends.
func (b *board) plan(u *Unit, steps []pathStep) (moveResult, error) {
	if len(u.Engaged) > 0 {
		return moveResult{}, &moveError{msg: fmt.Sprintf("%s is engaged and cannot move or turn (7.2)", u.ID)}
	}
	return b.planFree(u, steps)
}

// planOut is the way out of a disengaging unit (2.4.4): a full rowing move that must leave
// the engagement hex.
func (b *board) planOut(u *Unit, steps []pathStep) (moveResult, error) {
	res, err := b.planFree(u, steps)
	if err == nil && res.end.hex == b.pos(u).hex {
		err = &moveError{msg: fmt.Sprintf("%s must leave the engagement hex %s", u.ID, res.end.hex)}
	}
	return res, err
}

func (b *board) planFree(u *Unit, steps []pathStep) (moveResult, error) {
	res, err := b.planSteps(u, steps)
	if err != nil {
		return res, err
	}
	return res, b.checkStack(u, res.end.hex)
}

// planSteps checks the steps of a move by the rules of section 3, all but the stacking
// limits of the hex it ends in (3.2.1: checked after the move).
func (b *board) planSteps(u *Unit, steps []pathStep) (moveResult, error) {
	g := b.g
	p := b.pos(u)
	res := moveResult{end: p}
	steps, err := b.modeChange(u, &res, steps)
	if err != nil {
		return res, err
	}
	ma := g.allowanceIn(u, res.end.sailing)
	if res.end.sailing && g.intoWind(res.end.facing) {
		ma += g.value("movement-modifiers", "into-wind-sailing", "mp")
	}
	turns := 0
	pivoted, galleassTurn := false, false
	for i, s := range steps {
		var cost, turned int
		var err error
		switch s.kind {
		case stepLeft, stepRight, stepFace:
			turned = turnCount(res.end.facing, s)
			res.end.facing = turnTo(res.end.facing, s)
			cost = turned
			switch {
			case res.end.sailing && u.Galleass() && res.entered == 0:
				err = &moveError{msg: fmt.Sprintf("%s is a galleass: galleasses cannot change facing without moving, under sail too (3.1.3)", u.ID)}
			case res.end.sailing:
				cost = 0 // sailing turns cost no MP; some need an HV check (12.2)
			case u.Galleass():
				err = b.galleassTurn(u, res, p, turned, i, len(steps))
				cost, galleassTurn = max(ma-res.mp, 0), true // the hex and the turn spend the total allowance (3.1.2)
			}
		case stepPivot:
			turned = hexsides(res.end.facing, s.dir)
			if u.Galleass() || len(steps) != 1 || turned > 3 || res.end.sailing {
				err = &moveError{msg: "PIVOT (3.1.4) is a rowing unit's only step of its maneuver, up to three hexsides; galleasses cannot (3.1.3)"}
			}
			res.end.facing, cost, pivoted = s.dir, 2, true
			turned = 0
		case stepHex:
			cost, turned, err = b.enter(u, &res, s.hex, i, i == lastHex(steps))
			if err == nil && res.end.sailing {
				cost, turned, err = 1, 0, b.sailOn(u, &res, i, i == lastHex(steps))
			}
		}
		if err != nil {
			return res, err
		}
		turns += turned
		res.mp += cost
		if res.mp > ma && !galleassTurn {
			return res, &moveError{msg: fmt.Sprintf("%s has %d MP; step %d (%s) needs %d in all (3, 16.05)", u.ID, ma, i+1, s, res.mp)}
		}
		if res.entered > 0 && turns > res.entered && !u.Galleass() && !pivoted && !res.end.sailing {
			return res, &moveError{msg: fmt.Sprintf("step %d (%s): a moving unit may turn one hexside per hex entered (3.1.1)", i+1, s)}
		}
	}
	if res.entered > 0 && turns > res.entered && !u.Galleass() && !res.end.sailing && !p.sailing {
		return res, &moveError{msg: "a moving unit may turn one hexside per hex entered (3.1.1)"}
	}
	return res, nil
}

func hexsides(from, to Dir) int {
	d := int((to - from).norm())
	return min(d, 6-d)
}

func turnCount(f Dir, s pathStep) int {
	if s.kind == stepFace {
		return hexsides(f, s.dir)
	}
	return 1
}

func turnTo(f Dir, s pathStep) Dir {
	switch s.kind {
	case stepLeft:
		return f.Turn(-1)
	case stepRight:
		return f.Turn(1)
	}
	return s.dir
}

// galleassTurn: "Galleasses move one hex forward and then expend their total Movement
// Allowance to change facing one hexside" (3.1.2): the turn is the last step of a move that
// entered exactly one hex, the bow hex, and the hex and the turn together spend the total
// allowance (the caller charges the turn the rest). A galleass cannot turn without moving
// (3.1.3).
func (b *board) galleassTurn(u *Unit, res moveResult, start position, turned, i, n int) error {
	forward := res.entered == 1 && res.mp == 1 && res.end.hex == start.hex.Neighbor(start.facing)
	if !forward || turned != 1 || i != n-1 {
		return &moveError{msg: fmt.Sprintf("%s is a galleass: it moves one hex forward and then spends its total Movement Allowance to turn one hexside, the last step of its move (3.1.2)", u.ID)}
	}
	return nil
}

// enter moves the unit into an adjacent hex: forward into the bow hex (1 MP), turning one
// hexside first into a hex beside it (2 MP), or backwards into the stern hex (2 MP, 3.5).
func lastHex(steps []pathStep) int {
	last := -1
	for i, s := range steps {
		if s.kind == stepHex {
			last = i
		}
	}
	return last
}

func (b *board) enter(u *Unit, res *moveResult, h Hex, i int, final bool) (cost, turned int, err error) {
	p := res.end
	d, ok := p.hex.DirTo(h)
	switch {
	case !ok:
		return 0, 0, b.illegalHex(u, p, func() string { return fmt.Sprintf("step %d: %s is not adjacent to %s", i+1, h, p.hex) })
	case d == p.facing:
		cost = 1
	case d == p.facing.Opposite() && !p.sailing:
		cost = 2
	case (d == p.facing.Turn(1) || d == p.facing.Turn(-1)) && (!u.Galleass() || p.sailing):
		cost, turned, res.end.facing = 2, 1, d
	default:
		return 0, 0, b.illegalHex(u, p, func() string { return fmt.Sprintf("step %d: %s is not ahead of %s facing %s", i+1, h, p.hex, p.facing) })
	}
	if err := b.canPass(u, h, final); err != nil {
		return 0, 0, b.illegalHex(u, p, func() string { return fmt.Sprintf("step %d: %v", i+1, err) })
	}
	res.end.hex = h
	res.entered++
	return cost, turned, nil
}

// canPass checks a hex a move enters; the hex it ends in is left to the stacking check, so
// that a squadron may join single ships of its group (3.2 exception 2).
func (b *board) canPass(u *Unit, h Hex, final bool) error {
	if !final {
		return b.canEnter(u, h)
	}
	if err := b.canEnter(u, h); err != nil && !errors.Is(err, errPassThrough) {
		return err
	}
	return nil
}

// errPassThrough marks a hex a unit may end its move in (stacking permitting) but not pass.
var errPassThrough = errors.New("cannot pass through")

// canEnter: coast and off-map hexes cannot be entered (1.2), nor hexes of the map sections
// the scenario does not use ("use only the northern map", 13.2.2, 13.3.2, 13.4.2); galleasses
// stay out of shallow water (3.4); a galley squadron never passes through another unit (3.2
// exception 1); entering an enemy's hex is a ram or a grapple (6.1, 7).
func (b *board) canEnter(u *Unit, h Hex) error {
	g := b.g
	if !g.m.Enterable(h) {
		return fmt.Errorf("%s is coast or off the map (1.2)", h)
	}
	if !g.onMap(h) {
		return fmt.Errorf("%s is off the scenario's map (%s): units cannot leave it (%s)", h, strings.Join(g.sc.Sections, ", "), g.sc.Rule)
	}
	if u.Galleass() && g.m.Terrain(h) == Shallow {
		return fmt.Errorf("galleasses cannot enter shallow water at %s (3.4)", h)
	}
	for _, o := range b.at(h, u) {
		switch {
		case o.Side != u.Side:
			return fmt.Errorf("%s holds the enemy %s: entering it is a ram or grapple (6, 7), which this version cannot adjudicate yet", h, o.ID)
		case !u.Single() || o.Galleass() || u.Galleass():
			return fmt.Errorf("%s holds %s: this unit %w it (3.2)", h, o.ID, errPassThrough)
		}
	}
	return nil
}

// checkStack applies the stacking limits at the end of a move (3.2): one unit per hex, except
// that single ships stack with each other and with one squadron of their own group;
// galleasses never stack.
func (b *board) checkStack(u *Unit, h Hex) error {
	units := append(b.at(h, u), u)
	if len(units) == 1 {
		return nil
	}
	for _, o := range units[:len(units)-1] { // the others: the refusal names the unit in the way
		if o.Galleass() || u.Galleass() || o.Side != u.Side {
			return &moveError{msg: fmt.Sprintf("%s would end in %s with %s (3.2)", u.ID, h, o.ID)}
		}
	}
	squadrons := 0
	for _, o := range units {
		if !o.Single() {
			squadrons++
			for _, s := range units {
				if s.Single() && s.Group != o.Group {
					return &moveError{msg: fmt.Sprintf("%s: a squadron stacks only with single ships of its own group (3.2)", h)}
				}
			}
		}
	}
	if squadrons > 1 {
		return &moveError{msg: fmt.Sprintf("%s would hold two squadrons (3.2)", h)}
	}
	return nil
}

// illegalHex lists the hexes the unit could enter next from p.
func (b *board) illegalHex(u *Unit, p position, msg func() string) error {
	if b.still {
		return errPlanned // the order form's planning reads whether a path is legal, not why
	}
	var legal []string
	for _, d := range []Dir{p.facing, p.facing.Turn(-1), p.facing.Turn(1), p.facing.Opposite()} {
		h := p.hex.Neighbor(d)
		if (d == p.facing || d == p.facing.Opposite() || !u.Galleass()) && b.canEnter(u, h) == nil {
			legal = append(legal, h.String())
		}
	}
	slices.Sort(legal)
	return &moveError{msg: msg(), legal: legal}
}

// errPlanned is a still board's refusal of a step (illegalHex): the order form's reach
// plans on such a board, and no player reads its errors.
var errPlanned = errors.New("not a legal step")
