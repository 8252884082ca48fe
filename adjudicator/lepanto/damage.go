package lepanto

import (
	"fmt"
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
		rs.event("9.6", "%s flees and is out of the game until turn %d", t.ID, t.Return)
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
	rs.event("9.6", "%s has %s", t.ID, status)
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

// evade: the unit retreats 2 hexes towards its side's map edge, turning up to two hexsides in
// the first hex and one in the second (9.6). The retreat takes, hex by hex, the first legal
// hexside towards the edge, in a fixed order of preference.
func (rs *resolver) evade(t *Unit) {
	b := &board{g: rs.g}
	prefs := map[string][]Dir{"west": {SW, NW, S, N}, "east": {NE, SE, N, S}}[rs.g.sc.Edges[t.Side]]
	moved, from := 0, t.Hex
	defer func() { rs.traceAt("evade", t, from) }()
	for step := 0; step < 2; step++ {
		ok := false
		for _, d := range prefs {
			h := t.Hex.Neighbor(d)
			if b.canEnter(t, h) == nil && len(b.at(h, t)) == 0 {
				t.Hex, t.Facing, ok = h, d, true
				moved++
				break
			}
		}
		if !ok || rs.aground(t) {
			break // no way on, or lost in the first hex (12.5)
		}
	}
	rs.event("9.6", "%s evades %d hexes to %s facing %s", t.ID, moved, t.Hex, t.Facing)
	rs.shallowSailing(t)
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
