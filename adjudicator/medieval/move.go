package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// movement is the rulebook's table (rule "Movement"): by Seaworthiness, the inches beating
// and running and the turns a phase.
var movement = [7]struct {
	beat, run table.Len
	turns     int
}{{0, 0, 0}, {200, 300, 1}, {200, 400, 1}, {300, 500, 2}, {300, 600, 2}, {400, 700, 3}, {500, 800, 3}}

// patterns are the turn / half-move patterns by number of turns (rule "Movement": 1 turn:
// move half, turn, move half; 2 turns: turn, move half, turn, move half; 3 turns: turn, move
// half, turn, move half, turn). With no turn the ship moves once.
var patterns = map[int]string{0: "M", 1: "MTM", 2: "TMTM", 3: "TMTMT"}

// lashedMove is how far lashed vessels may move, running downwind only (rule "Lashing").
const lashedMove = 2 * table.Inch

func shape(path table.Path) string {
	var b strings.Builder
	for _, s := range path {
		if s.Turn != 0 {
			b.WriteByte('T')
		} else {
			b.WriteByte('M')
		}
	}
	return b.String()
}

// allowance returns s's move at heading h: by Seaworthiness and point of sailing.
func (g *Game) allowance(s *Ship, h table.Deg) (table.Len, table.PointOfSailing) {
	pos := g.data.Rules.Points.Of(h, g.Wind)
	m := movement[s.F.Sea]
	switch pos {
	case table.Beating:
		return m.beat, pos
	case table.Running:
		return m.run, pos
	}
	return 0, pos
}

// checkPath returns why path is not a legal move for s, or nil; the rules of "Movement" and
// "Lashing", from where s stands.
func (g *Game) checkPath(s *Ship, path table.Path) error {
	if len(path) == 0 {
		return nil
	}
	switch {
	case s.Status != Afloat && s.Status != Leaving:
		return fmt.Errorf("%s is %s and cannot move", s.ID, s.Status)
	case len(s.Grappled) > 0:
		return fmt.Errorf("%s is grappled with %s: cut free first (CUT in her Command and Control phase)", s.ID, strings.Join(s.Grappled, ", "))
	case len(s.Lashed) > 0:
		return g.checkLashedPath(s, path)
	}
	turns := path.Turns()
	if want := patterns[turns]; shape(path) != want || turns > 3 {
		return fmt.Errorf("with %d turn(s) the pattern is %s", turns, patternText(turns))
	}
	if max := movement[s.F.Sea].turns; turns > max {
		return fmt.Errorf("%s may make %d turn(s) a phase (Seaworthiness %v)", s.ID, max, s.F.Sea)
	}
	h := s.Pose.Heading
	for _, st := range path {
		if st.Turn != 0 {
			if st.Turn > 30 || st.Turn < -30 {
				return fmt.Errorf("a turn is at most 30 degrees")
			}
			h = table.Norm(h + st.Turn)
			if g.data.Rules.Points.Of(h, g.Wind) == table.IntoWind {
				return fmt.Errorf("heading %03d is into the wind (from %03d): ships may not sail into the wind", h, g.Wind)
			}
			continue
		}
		a, pos := g.allowance(s, h)
		if pos == table.IntoWind {
			return fmt.Errorf("heading %03d is into the wind (from %03d): turn out of it first", h, g.Wind)
		}
		limit, what := a, "her move"
		if turns > 0 {
			limit, what = a/2, "half her move"
		}
		if st.Move > limit {
			return fmt.Errorf("at heading %03d %s is %s (%s %s\")", h, what, table.FormatInches(limit), pos, table.FormatInches(a))
		}
	}
	return nil
}

func patternText(turns int) string {
	switch turns {
	case 0:
		return "MOVE d"
	case 1:
		return "MOVE d TURN P/Sn MOVE d"
	case 2:
		return "TURN P/Sn MOVE d TURN P/Sn MOVE d"
	}
	return "TURN P/Sn MOVE d TURN P/Sn MOVE d TURN P/Sn"
}

func (g *Game) checkLashedPath(s *Ship, path table.Path) error {
	if len(path) != 1 || path[0].Move == 0 {
		return fmt.Errorf("%s is lashed (to %s): lashed vessels only run downwind, no turns", s.ID, strings.Join(s.Lashed, ", "))
	}
	if pos := g.data.Rules.Points.Of(s.Pose.Heading, g.Wind); pos != table.Running {
		return fmt.Errorf("%s is lashed: lashed vessels only run downwind, and at heading %03d she is %s", s.ID, s.Pose.Heading, pos)
	}
	if path[0].Move > lashedMove {
		return fmt.Errorf("lashed vessels run at 2\"")
	}
	for _, r := range g.raft(s) {
		if len(r.Grappled) > 0 {
			return fmt.Errorf("%s, lashed to %s, is grappled with %s: the raft cannot move", r.ID, s.ID, strings.Join(r.Grappled, ", "))
		}
	}
	return nil
}

// legalMoves describes what s may do from where she stands, for the order form and for
// answers to a bad line (one sentence each).
func (g *Game) legalMoves(s *Ship) []string {
	if len(s.Grappled) > 0 {
		return []string{fmt.Sprintf("grappled with %s: she cannot move until cut free (CUT in her Command and Control phase)", strings.Join(s.Grappled, ", "))}
	}
	if len(s.Lashed) > 0 {
		pos := g.data.Rules.Points.Of(s.Pose.Heading, g.Wind)
		if pos != table.Running {
			return []string{fmt.Sprintf("lashed to %s, and %s at heading %03d: lashed vessels only run downwind, so the raft cannot move", strings.Join(s.Lashed, ", "), pos, s.Pose.Heading)}
		}
		return []string{fmt.Sprintf("lashed to %s: MOVE up to 2 runs the whole raft downwind (to %03d), no turns", strings.Join(s.Lashed, ", "), table.Downwind(g.Wind))}
	}
	a, pos := g.allowance(s, s.Pose.Heading)
	m := movement[s.F.Sea]
	lo, hi := table.Norm(g.Wind-g.data.Rules.Points.NoGo+1), table.Norm(g.Wind+g.data.Rules.Points.NoGo-1)
	here := fmt.Sprintf("at heading %03d %s: MOVE up to %s (each half %s with turns)", s.Pose.Heading, pos, table.FormatInches(a), table.FormatInches(a/2))
	if pos == table.IntoWind {
		here = fmt.Sprintf("at heading %03d into the wind: she must turn out of it first (a pattern that starts with a turn)", s.Pose.Heading)
	}
	return []string{
		here,
		fmt.Sprintf("beating %s\", running %s\", up to %d turn(s) of 30 degrees (Seaworthiness %v)", table.FormatInches(m.beat), table.FormatInches(m.run), m.turns, s.F.Sea),
		fmt.Sprintf("wind from %03d: headings %03d-%03d are into the wind", g.Wind, lo, hi),
		"pattern: " + patternText(min(m.turns, 2)),
	}
}

// legalMovesText is legalMoves as one answer to a bad line: its sentences joined, so that a
// mail that runs the legal words together still reads them apart.
func (g *Game) legalMovesText(s *Ship) []string {
	return []string{strings.Join(g.legalMoves(s), "; ")}
}

// raft returns s and every ship lashed to it, directly or through others, in scenario order.
func (g *Game) raft(s *Ship) []*Ship {
	in := map[string]bool{s.ID: true}
	for changed := true; changed; {
		changed = false
		for _, o := range g.Ships {
			if in[o.ID] {
				for _, id := range o.Lashed {
					if !in[id] {
						in[id], changed = true, true
					}
				}
			}
		}
	}
	var out []*Ship
	for _, o := range g.Ships {
		if in[o.ID] {
			out = append(out, o)
		}
	}
	return out
}

// obstacles returns the bases on the table other than those in skip, and the ships they are.
func (g *Game) obstacles(skip []*Ship) ([]table.Polygon, []*Ship) {
	var polys []table.Polygon
	var ships []*Ship
	for _, o := range g.Ships {
		if g.onTable(o) && !containsShip(skip, o) {
			polys, ships = append(polys, o.Corners()), append(ships, o)
		}
	}
	return polys, ships
}

func containsShip(list []*Ship, s *Ship) bool {
	for _, o := range list {
		if o == s {
			return true
		}
	}
	return false
}

// move moves s along path: she stops at the first base in her way, in contact with it; an
// enemy she touches is grappled (rule "Grappling": either side wishes it); a lashed raft
// runs together; a ship wholly off the table has left the battle; one that comes into
// contact with a burning hulk rolls to catch fire (rule "Fires").
func (p *phase) move(s *Ship, path table.Path) error {
	g := p.g
	if len(s.Lashed) > 0 {
		return p.moveRaft(s, path[0].Move)
	}
	before := g.hulksTouching(s)
	polys, ships := g.obstacles([]*Ship{s})
	from := s.Pose
	poses, blk := s.Base.Follow(s.Pose, path, polys)
	if len(poses) > 0 {
		s.Pose = poses[len(poses)-1]
	}
	p.traceMove(s, from, poses...)
	switch {
	case blk != nil && path[blk.Step].Turn != 0:
		done := pathWords(path[:blk.Step]) + " and stops"
		if blk.Step == 0 {
			done = "stays"
		}
		p.event("Movement.2", "%s %s at %v: %s would swing her into %s", s.ID, done, s.Pose, strings.Replace(stepWords(path[blk.Step]), "turns", "turning", 1), ships[blk.Obstacle].ID)
	case blk != nil:
		p.event("Movement.2", "%s %s and stops in contact with %s at %v", s.ID, pathWords(path[:blk.Step+1]), ships[blk.Obstacle].ID, s.Pose)
	default:
		p.event("Movement.3", "%s %s: now at %v", s.ID, pathWords(path), s.Pose)
	}
	return p.afterMove(s, before)
}

func (p *phase) moveRaft(s *Ship, d table.Len) error {
	g := p.g
	raft := g.raft(s)
	before := map[*Ship][]*Ship{}
	for _, r := range raft {
		before[r] = g.hulksTouching(r)
	}
	polys, _ := g.obstacles(raft)
	// "only move down wind (Run)": the way the wind blows, not along her heading; the
	// longest run up to d that meets nothing
	down := table.Downwind(g.Wind)
	for ; d > 0; d-- {
		clear := true
		for _, r := range raft {
			clear = clear && !overlapsAny(r.Base.Corners(r.Pose.Drift(down, d)), polys)
		}
		if clear {
			break
		}
	}
	var ids []string
	for _, r := range raft {
		from := r.Pose
		r.Pose = r.Pose.Drift(down, d)
		p.traceMove(r, from, r.Pose)
		ids = append(ids, r.ID)
	}
	p.event("Lashing.2", "the lashed vessels %s run %s\" downwind (to %03d)", strings.Join(ids, ", "), table.FormatInches(d), down)
	for _, r := range raft {
		if err := p.afterMove(r, before[r]); err != nil {
			return err
		}
	}
	return nil
}

func overlapsAny(pg table.Polygon, polys []table.Polygon) bool {
	for _, o := range polys {
		if table.Overlap(pg, o) {
			return true
		}
	}
	return false
}

// afterMove grapples the enemies s now touches (unless neither wishes it), rolls for fire
// for each burning hulk she has come into contact with (not among before, those she touched
// before her move), and takes her out if she is off the table.
func (p *phase) afterMove(s *Ship, before []*Ship) error {
	g := p.g
	if g.sc.Table.Off(s.Corners()) {
		s.Status = Left
		p.release(s)
		p.eventAs(adjudicator.KindLoss, "Damage.2", "%s has left the table", s.ID)
		return nil
	}
	for _, h := range g.hulksTouching(s) {
		if !containsShip(before, h) {
			if err := p.catchFire(s, h, "comes into contact with"); err != nil {
				return err
			}
		}
	}
	for _, e := range g.Ships {
		if e.Side == s.Side || !e.Active() || !s.Active() || !table.Contact(s.Corners(), e.Corners()) || contains(s.Grappled, e.ID) {
			continue
		}
		if s.NoGrapple && e.NoGrapple {
			p.eventAs(adjudicator.KindHit, "Grappling.1", "%s and %s are in contact; neither wishes to grapple: a boarding action ensues, but they are not grappled", s.ID, e.ID)
			continue
		}
		s.Grappled = addSorted(s.Grappled, e.ID)
		e.Grappled = addSorted(e.Grappled, s.ID)
		p.eventAs(adjudicator.KindHit, "Grappling.1", "%s and %s are in contact and grappled: a boarding action ensues", s.ID, e.ID)
	}
	return nil
}

// hulksTouching returns the burning hulks (ships lost to fire, rule "Fires") on the table
// that s touches, in scenario order.
func (g *Game) hulksTouching(s *Ship) []*Ship {
	var out []*Ship
	for _, h := range g.Ships {
		if h != s && h.Status == Burnt && g.onTable(h) && table.Contact(s.Corners(), h.Corners()) {
			out = append(out, h)
		}
	}
	return out
}

// catchFire rolls for o, in contact with the burning hulk h: on 1-4 she catches fire (rule
// "Fires": "any base contacting the burning base must roll 1d10"). A ship already on fire or
// lost, or off the table, does not roll; nor does o roll twice against h in one step (label
// catch/O/H).
func (p *phase) catchFire(o, h *Ship, how string) error {
	label := fmt.Sprintf("catch/%s/%s", o.ID, h.ID)
	if !p.g.onTable(o) || o.Burning || o.Status == Burnt || contains(p.catch, label) {
		return nil
	}
	p.catch = append(p.catch, label)
	v, err := p.d10(label, "Fires.5", 1)
	if err != nil {
		return err
	}
	if v[0] <= 4 {
		p.setFire(o, "Fires.5", fmt.Sprintf("%s %s the burning %s: %d, she catches fire", o.ID, how, h.ID, shown(v[0])))
	} else {
		p.event("Fires.5", "%s %s the burning %s: %d, no fire", o.ID, how, h.ID, shown(v[0]))
	}
	return nil
}

func contains(list []string, id string) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}
