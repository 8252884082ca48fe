package lepanto

import (
	"fmt"
	"strings"

	"navarch/adjudicator"
)

// hit is the procedure for one hit (9.4-9.6, 5.5.1): an HV check (d6 plus modifiers, passed
// at or under the Handling Value), then a d6 on the Minor (passed) or Major (failed) Damage
// Table. The modifiers count the markers the unit had before this attack.
func (rs *resolver) hit(t *Unit, label string, wasMast, wasFire bool) error {
	rs.traceAt("hit", t, t.Hex)
	d6, roll, err := rs.roll(label+"/hv", 6, "9.4")
	if err != nil {
		return err
	}
	mod := 0
	if wasMast {
		mod++
	}
	if wasFire {
		mod += 2
	}
	if t.Galleass() {
		mod -= 3
	}
	passed := d6+mod <= t.HV
	table := map[bool]string{true: "minor-damage", false: "major-damage"}[passed]
	roll.Note = fmt.Sprintf("HV check %d%+d against HV %d: %s", d6, mod, t.HV, map[bool]string{true: "passed", false: "failed"}[passed])
	d, droll, err := rs.roll(label+"/damage", 6, "9.5")
	if err != nil {
		return err
	}
	res, _ := rs.g.tables.Get(table).IntCol(d, "result")
	droll.Note = fmt.Sprintf("%s: %s", table, res)
	rs.event("9.5", "Hit on %s: HV check %s, %s d6 %d: %s%s", t.ID, map[bool]string{true: "passed", false: "failed"}[passed], table, d, res, rs.substitute(table))
	rs.damage(t, res)
	return nil
}

// damage applies a damage table result (9.6).
func (rs *resolver) damage(t *Unit, res string) {
	switch res {
	case "evade":
		rs.evade(t)
	case "adrift":
		rs.adrift(t)
	case "flee":
		t.Status, t.Return = "fled", rs.g.Turn+2
		rs.traceAt("fled", t, t.Hex)
		t.Engaged = rs.g.disengageAll(t)
		rs.eventAs(adjudicator.KindLoss, "9.6", "%s flees and is out of the game until turn %d", t.ID, t.Return)
	case "surrender":
		rs.eliminate(t, "surrendered", 2)
	case "sunk":
		rs.eliminate(t, "sunk", 1)
	}
}

// eliminate removes a unit that surrendered or sank and moves its wing's track (9.6, 9.7).
func (rs *resolver) eliminate(t *Unit, status string, boxes int) {
	t.Status = status
	rs.traceAt(status, t, t.Hex)
	rs.g.disengageAll(t)
	t.Engaged = nil
	rs.eventAs(adjudicator.KindLoss, "9.6", "%s has %s", t.ID, status)
	rs.loseBoxes(t.Wing, boxes)
}

// loseBoxes moves a wing's LMA/LF marker and applies the thresholds it reaches (9.7-9.9).
func (rs *resolver) loseBoxes(wing string, boxes int) {
	w := rs.g.wing(wing)
	w.Track -= boxes
	rs.event("9.7", "Wing %s track falls %d to %d%s", w.ID, boxes, w.Track, rs.substitute("wing-track"))
	if !w.LMA && w.Track <= w.lma {
		w.LMA = true
		rs.event("9.8", "Wing %s reaches LMA: its units lose movement allowance", w.ID)
	}
	if !w.LF && w.Track <= w.lf {
		w.LF = true
		rs.event("9.9", "Wing %s reaches LF: its units cannot start Artillery Fire and defend at half rating", w.ID)
	}
}

// disengageAll ends every grapple of t (its partners are released too).
func (g *Game) disengageAll(t *Unit) []string {
	for _, id := range t.Engaged {
		if o := g.unit(id); o != nil {
			o.Engaged = remove(o.Engaged, t.ID)
		}
	}
	return nil
}

func remove(s []string, v string) []string {
	var out []string
	for _, x := range s {
		if x != v {
			out = append(out, x)
		}
	}
	return out
}

// evade: the unit retreats 2 hexes towards its side's map edge and "may change facing up to
// two hexsides in the first hex, and (only) one hexside in the second hex" (9.6). It enters
// each hex bow first (facing where it goes) or stern first (rowing backwards, 3.5, keeping
// its bow the other way), within those turns. Of the legal retreats, those that come
// nearest the edge are taken ("toward that side's map edge, if possible"), two hexes before
// one; among them the owner's standing EVADE BOW|STERN says which way round, and then the
// hexsides are taken in a fixed order of preference. An engaged unit is held by the
// grapple and does not move (7.2: engaged units cannot move; only the Disengage chit
// frees them, 2.4.4).
func (rs *resolver) evade(t *Unit) {
	if len(t.Engaged) > 0 {
		rs.event("9.6", "%s would evade but is held by the grapple: it stays at %s, engaged", t.ID, t.Hex)
		return
	}
	from := t.Hex
	path := rs.evadePath(t)
	defer func() { rs.traceAt("evade", t, from) }()
	moved := 0
	for _, p := range path {
		t.Hex, t.Facing = p.hex, p.facing
		moved++
		if rs.aground(t) {
			break // lost in the first hex (12.5)
		}
	}
	rs.event("9.6", "%s evades %s to %s facing %s", t.ID, count(moved, "hex", "hexes"), t.Hex, t.Facing)
	rs.shallowSailing(t)
}

// evadePrefs is the order in which an evade tries hexsides, towards each map edge, and with
// the owner's lean to the north or the south (EVADE ... N|S).
var evadePrefs = map[string][]Dir{"west": {SW, NW, S, N, SE, NE}, "east": {NE, SE, N, S, NW, SW},
	"west N": {NW, SW, N, S, NE, SE}, "west S": {SW, NW, S, N, SE, NE}, "east N": {NE, SE, N, S, NW, SW}, "east S": {SE, NE, S, N, SW, NW}}

// evadePath is the retreat evade takes: up to two positions, each an adjacent free hex
// entered bow or stern first within the turns 9.6 allows (two hexsides, then one).
func (rs *resolver) evadePath(t *Unit) []position {
	g := rs.g
	b := &board{g: g}
	edge := g.sc.Edges[t.Side]
	prefs := evadePrefs[strings.TrimSpace(edge+" "+t.EvadeLean)]
	gain := func(h Hex) int {
		if edge == "west" {
			return t.Hex.Col - h.Col
		}
		return h.Col - t.Hex.Col
	}
	modes := []bool{false, true} // bow first, then stern first
	steps := func(p position, turns int) []position {
		var out []position
		for _, d := range prefs {
			h := p.hex.Neighbor(d)
			if b.canEnter(t, h) != nil || len(b.at(h, t)) > 0 {
				continue
			}
			for _, stern := range modes {
				f := d
				if stern {
					f = d.Opposite()
				}
				if hexsides(p.facing, f) <= turns {
					out = append(out, position{hex: h, facing: f, sailing: p.sailing})
				}
			}
		}
		return out
	}
	start := position{t.Hex, t.Facing, t.Sailing}
	var best []position
	// score: nearest the edge, two hexes before one; then, bow first, the most hexes
	// entered bow first or, stern first, the least turning.
	score := func(path []position) [2]int {
		second, prev := 0, start
		for _, p := range path {
			d, _ := prev.hex.DirTo(p.hex)
			if t.EvadeStern {
				second -= hexsides(prev.facing, p.facing)
			} else if p.facing == d {
				second++
			}
			prev = p
		}
		return [2]int{10*gain(path[len(path)-1].hex) + len(path), second}
	}
	better := func(a, b [2]int) bool { return a[0] > b[0] || a[0] == b[0] && a[1] > b[1] }
	for _, p1 := range steps(start, 2) {
		cands := [][]position{{p1}}
		for _, p2 := range steps(p1, 1) {
			if p2.hex != t.Hex {
				cands = append(cands, []position{p1, p2})
			}
		}
		for _, c := range cands {
			if best == nil || better(score(c), score(best)) {
				best = c
			}
		}
	}
	return best
}

// adrift: the unit moves one hex with the wind, keeping its facing; into a friendly unit's
// hex only if stacking allows, never into an enemy's (9.6).
func (rs *resolver) adrift(t *Unit) {
	g := rs.g
	d, _ := g.tables.Get("wind-drift").Word(lower(g.Wind), "hexside")
	dir, _ := ParseDir(d)
	h := t.Hex.Neighbor(dir)
	b := &board{g: g}
	if len(t.Engaged) == 0 && b.canEnter(t, h) == nil {
		old := t.Hex
		t.Hex = h
		if b.checkStack(t, h) != nil {
			t.Hex = old
		}
	}
	rs.event("9.6", "%s goes adrift with the wind from the %s: now at %s%s", t.ID, g.Wind, t.Hex, rs.substitute("wind-drift"))
	rs.shallowSailing(t)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
