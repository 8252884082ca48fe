package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"
)

// signalAllowance is half the side's squadron count, rounded up (rule Signals.list); none for
// a meeting-engagement or ambushed fleet (rule Signals.none).
func (g *Game) signalAllowance(i int) int {
	if g.sc.NoSignals[i] {
		return 0
	}
	n := 0
	for _, s := range g.Squadrons {
		if s.Side == g.side(i) && !s.Freighter {
			n++
		}
	}
	return (n + 1) / 2
}

// zone describes side i's deployment zone (rule Deployment.zone: "10-15 inches from the
// centre line and at least 10 inches from the side edges"), read as: no part of a squadron
// nearer the centre line than 10" (the line at Y near, on the side's own half), its nearest
// part no farther than 15" (the line at Y far), and the whole squadron within X xlo..xhi
// (DESIGNED reading, docs/OINAVARCOI.md: a 12" column cannot lie wholly in a 5" band).
func (g *Game) zone(i int) (near, far, xlo, xhi table.Len) {
	r, t := g.data.Rules, g.sc.Table
	mid := t.Height / 2
	near, far = mid-r.DeployNear, mid-r.DeployFar
	if g.sc.North[i] {
		near, far = mid+r.DeployNear, mid+r.DeployFar
	}
	return near, far, r.DeploySide, t.Width - r.DeploySide
}

// inZone reports whether a squadron with corners pg stands in side i's zone, wholly on the
// table: no corner nearer the centre line than 10", the nearest within 15" of it, every
// corner within the side edges' 10".
func (g *Game) inZone(i int, _ table.Pose, pg table.Polygon) bool {
	near, far, xlo, xhi := g.zone(i)
	north := g.sc.North[i]
	reach := false // some part is within 15" of the centre line
	for _, c := range pg {
		if c.X < xlo || c.X > xhi || north && c.Y < near || !north && c.Y > near {
			return false
		}
		reach = reach || north && c.Y <= far || !north && c.Y >= far
	}
	return reach && g.sc.Table.Inside(pg)
}

// fitDefaults moves each squadron whose default place the deployment's checks would refuse
// (outside its zone or the table, or overlapping a squadron of its side placed before it:
// full-size play doubles the footprints) to the nearest legal place of its zone, in its
// scenario formation, on whole inches; if some squadron finds none, the side's squadrons are
// packed instead, each at the first legal place from the centre line outwards and from the
// west, so that the first squadrons of the fleet list form the front (every part of each 10"
// or more off the centre line, as inZone wants); a column that fits nowhere facing the enemy
// is laid across the table (facing 90, then 270). Beached
// squadrons that overlap are spread along their beach line. (SUBSTITUTE: the data files give
// the places for four-stand squadrons.) So a side that deploys nothing, or sends its
// deployment form back unchanged, is legal (rule Deployment.zone).
func (g *Game) fitDefaults() {
	for i, side := range g.sc.Sides {
		var fixed []table.Polygon
		var deploy []*Squadron
		for _, s := range g.Squadrons {
			switch {
			case s.Side != side:
			case s.Status == Beached:
				s.Pose = g.fitBeached(s, fixed)
				fixed = append(fixed, g.corners(s))
			case s.Freighter:
				fixed = append(fixed, g.corners(s))
			default:
				deploy = append(deploy, s)
			}
		}
	fit:
		for _, turn := range []table.Deg{0, 90, 270} {
			for _, pack := range []bool{false, true} {
				if poses, ok := g.fitSide(i, deploy, fixed, pack, turn); ok {
					for k, s := range deploy {
						s.Pose = poses[k]
					}
					break fit
				}
			}
		}
	}
}

// fitSide places squadrons one after the other among fixed: each where it stands if that is
// legal (not when packing), else at the nearest legal place (packing: the first from the
// centre line outwards, then from the west), facing its heading turned by turn if it is a
// column (turn 0: as it stands). It reports false if some squadron has no legal place.
func (g *Game) fitSide(i int, squadrons []*Squadron, fixed []table.Polygon, pack bool, turn table.Deg) ([]table.Pose, bool) {
	placed := slices.Clone(fixed)
	var out []table.Pose
	near, far, xlo, xhi := g.zone(i)
	lo, hi := min(near, far), max(near, far)
	for _, s := range squadrons {
		base := g.footprint(s, s.Formation)
		legal := func(p table.Pose) bool {
			pg := base.Corners(p)
			return g.inZone(i, p, pg) && !slices.ContainsFunc(placed, func(o table.Polygon) bool { return table.Overlap(pg, o) })
		}
		found := legal
		h := s.Pose.Heading
		if s.Formation == Keras {
			h = table.Norm(h + turn)
		}
		p, ok := s.Pose, !pack && turn == 0 && legal(s.Pose)
		bestD := int64(-1)
		var ys []table.Len             // whole inches, from the centre line outwards
		ext := base.Length + base.Beam // a centre's reach beyond the band, whatever the heading
		for y := (lo - ext + table.Inch - 1) / table.Inch * table.Inch; y <= hi+ext; y += gridStep(hi - lo + 2*ext) {
			ys = append(ys, y)
		}
		if !g.sc.North[i] {
			slices.Reverse(ys)
		}
		for _, y := range ys {
			if ok {
				break
			}
			for x := xlo; x <= xhi; x += gridStep(xhi - xlo) {
				c := table.Pose{At: table.Point{X: x, Y: y}, Heading: h}
				dx, dy := int64(x-s.Pose.At.X), int64(y-s.Pose.At.Y)
				d := dx*dx + dy*dy
				if pack {
					d = 0
				}
				if (bestD < 0 || d < bestD) && found(c) {
					p, bestD = c, d
				}
			}
		}
		if !ok && bestD < 0 {
			return nil, false
		}
		out = append(out, p)
		placed = append(placed, base.Corners(p))
	}
	return out, true
}

// gridStep is the step of the places fitSide tries across a span: an inch, or on a wide zone
// (a referee's table up to 1000") whole inches making at most 64 steps, so a fleet's places
// are found in bounded time.
func gridStep(span table.Len) table.Len {
	n := span / table.Inch / 64
	return (n + 1) * table.Inch
}

// fitBeached returns a beached squadron's place if it overlaps nothing placed, else the
// nearest place along its beach line (same Y, whole inches) on the table that does not.
func (g *Game) fitBeached(s *Squadron, placed []table.Polygon) table.Pose {
	base := g.footprint(s, s.Formation)
	free := func(p table.Pose) bool {
		pg := base.Corners(p)
		return g.sc.Table.Inside(pg) && !slices.ContainsFunc(placed, func(o table.Polygon) bool { return table.Overlap(pg, o) })
	}
	if free(s.Pose) {
		return s.Pose
	}
	for d := table.Inch; d <= g.sc.Table.Width; d += table.Inch {
		for _, x := range []table.Len{s.Pose.At.X + d, s.Pose.At.X - d} {
			if p := (table.Pose{At: table.Point{X: x, Y: s.Pose.At.Y}, Heading: s.Pose.Heading}); free(p) {
				return p
			}
		}
	}
	return s.Pose
}

func (g *Game) zoneText(i int) string {
	near, far, xlo, xhi := g.zone(i)
	r, mid := g.data.Rules, g.sc.Table.Height/2
	side, reach := "at or below", "at or above"
	if g.sc.North[i] {
		side, reach = "at or above", "at or below"
	}
	return fmt.Sprintf("every part of a squadron %s\" or more from the centre line (Y %s), so %s Y %s, and some part within %s\" of it (%s Y %s); the whole squadron within X %s..%s (%s\" from the side edges)",
		table.FormatInches(r.DeployNear), table.FormatInches(mid), side, table.FormatInches(near), table.FormatInches(r.DeployFar), reach, table.FormatInches(far),
		table.FormatInches(xlo), table.FormatInches(xhi), table.FormatInches(r.DeploySide))
}

func (g *Game) defaultFacing(i int) table.Deg {
	if g.sc.North[i] {
		return 180
	}
	return 0
}

// deployedPose returns where a DEPLOY order puts a squadron, in what formation.
func (g *Game) deployedPose(s *Squadron, o *Order) (table.Pose, string) {
	f := s.Formation
	if o.Formation != "" {
		f = o.Formation
	}
	h := g.defaultFacing(g.sc.SideIndex(s.Side))
	if o.Facing >= 0 {
		h = o.Facing
	}
	return table.Pose{At: o.At, Heading: h}, f
}

// validateDeploy checks a side's deployment orders: its own deployable squadrons, once each,
// inside the zone, in column where the scenario demands it, not overlapping each other, at
// most one strategos; signals within the allowance, to wings the side has.
func (g *Game) validateDeploy(side string, orders []*Order) []lineErr {
	i := g.sc.SideIndex(side)
	var errs []lineErr
	seen := map[string]bool{}
	placed := map[string]table.Polygon{}
	wing := map[string]string{}
	strategos := 0
	for _, s := range g.Squadrons {
		if s.Side == side {
			placed[s.ID], wing[s.ID] = g.corners(s), s.Wing
		}
	}
	var own []string
	for _, s := range g.Squadrons {
		if s.Side == side && !s.Freighter && s.Status != Beached {
			own = append(own, s.ID)
		}
	}
	signals := 0
	for _, o := range orders {
		switch {
		case o.Signal != "":
			signals++
			if n := g.signalAllowance(i); signals > n {
				errs = append(errs, lineErr{o, fmt.Sprintf("the %s fleet may write %d signals (half its squadrons, rounded up; none in a meeting engagement or an ambush)", side, n), nil})
			}
			continue
		case !o.Deploy || o.Phalanx != "":
			errs = append(errs, lineErr{o, "only DEPLOY and SIGNAL lines are due before the battle", []string{"DEPLOY SQ AT X,Y [FACING DEG] [FORMATION] [WING W] [STRATEGOS]", "SIGNAL KIND WING W"}})
			continue
		}
		s := g.sq(o.Sq)
		if s == nil || !slices.Contains(own, o.Sq) {
			errs = append(errs, lineErr{o, fmt.Sprintf("%s is not a squadron of yours that deploys", o.Sq), own})
			continue
		}
		if seen[s.ID] {
			errs = append(errs, lineErr{o, "one DEPLOY line per squadron", nil})
			continue
		}
		seen[s.ID] = true
		p, f := g.deployedPose(s, o)
		if g.sc.KerasOnly[i] && f != Keras {
			errs = append(errs, lineErr{o, "in this scenario the fleet deploys in columns (EPI-KERAS)", []string{Keras}})
			continue
		}
		pg := g.footprint(s, f).Corners(p)
		if !g.inZone(i, p, pg) {
			errs = append(errs, lineErr{o, "outside the deployment zone: " + g.zoneText(i), nil})
			continue
		}
		placed[s.ID] = pg
		if o.Wing != "" {
			wing[s.ID] = o.Wing
		}
		if o.Strategos {
			strategos++
		}
	}
	if strategos > 1 {
		errs = append(errs, lineErr{orders[len(orders)-1], "one squadron commander only is named strategos", nil})
	}
	errs = append(errs, g.overlaps(side, orders, placed)...)
	for _, o := range orders {
		if o.Signal != "" && !slices.ContainsFunc(g.Squadrons, func(s *Squadron) bool { return s.Side == side && wing[s.ID] == o.Wing }) {
			errs = append(errs, lineErr{o, fmt.Sprintf("the %s fleet has no %s wing", side, o.Wing), nil})
		}
	}
	return errs
}

func (g *Game) overlaps(side string, orders []*Order, placed map[string]table.Polygon) []lineErr {
	var errs []lineErr
	for _, o := range orders {
		pg, ok := placed[o.Sq]
		if !o.Deploy || !ok {
			continue
		}
		for _, s := range g.Squadrons {
			if s.Side == side && s.ID != o.Sq && table.Overlap(pg, placed[s.ID]) {
				errs = append(errs, lineErr{o, fmt.Sprintf("%s would overlap %s", o.Sq, s.ID), nil})
				break
			}
		}
	}
	return errs
}

// deploy places both fleets at once (rule Deployment.secret): the orders were sealed in the
// log; the positions are revealed together, the signal lists only to their own side.
func (rs *resolver) deploy(orders map[string][]*Order) {
	g := rs.g
	g.Deployed = true
	for i, side := range g.sc.Sides {
		var list []SignalEntry
		was := map[string]placing{}
		var moved []*Squadron
		for _, o := range orders[side] {
			if o.Signal != "" {
				list = append(list, SignalEntry{Kind: o.Signal, Wing: o.Wing})
				continue
			}
			s := g.sq(o.Sq)
			if s == nil || s.Side != side || !o.Deploy {
				continue // Validate refuses these
			}
			if _, ok := was[s.ID]; !ok {
				was[s.ID] = placing{s.Pose, s.Formation}
				moved = append(moved, s)
			}
			s.Pose, s.Formation = g.deployedPose(s, o)
			if o.Wing != "" {
				s.Wing = o.Wing
			}
			if o.Strategos {
				for _, t := range g.Squadrons {
					t.Strategos = t.Strategos && t.Side != side
				}
				s.Strategos = true
			}
		}
		rs.undoOverlaps(side, moved, was)
		g.Signals[i] = list
		var kinds []string
		for _, e := range list {
			kinds = append(kinds, e.Kind+" to the "+e.Wing+" wing")
		}
		if len(list) > 0 {
			rs.private(side, "Signals.list", "Your signals for the battle: %s", strings.Join(kinds, "; "))
		}
		rs.event("Signals.list", "The %s fleet has written %d signals", side, len(list))
		for _, s := range g.Squadrons {
			if s.Side == side {
				strat := ""
				if s.Strategos {
					strat = ", strategos"
				}
				rs.event("Deployment.secret", "%s (%s) deploys at %v facing %d in %s, %s wing%s", s.ID, s.Name, s.Pose.At, s.Pose.Heading, s.Formation, s.Wing, strat)
			}
		}
	}
}

// placing is where a squadron stood, in what formation.
type placing struct {
	pose      table.Pose
	formation string
}

// undoOverlaps keeps a deployment from leaving two of a side's squadrons overlapping, which
// Validate refuses in one player's orders but the parts of a team game's players (each
// checked alone against where the others stood) may do together: while a squadron deployed
// overlaps another, the later of the two in the orders goes back to where the scenario placed
// it (the scenario's places never overlap). A whole side's valid orders never overlap, so
// nothing changes for them.
func (rs *resolver) undoOverlaps(side string, moved []*Squadron, was map[string]placing) {
	g := rs.g
	for {
		undo := -1
		for k := len(moved) - 1; k >= 0 && undo < 0; k-- {
			s := moved[k]
			for _, t := range g.Squadrons {
				if t != s && t.Side == side && table.Overlap(g.corners(s), g.corners(t)) {
					undo = k
					break
				}
			}
		}
		if undo < 0 {
			return
		}
		s := moved[undo]
		s.Pose, s.Formation = was[s.ID].pose, was[s.ID].formation
		moved = append(moved[:undo:undo], moved[undo+1:]...)
		rs.event("Deployment.secret", "%s's deployment would overlap another squadron of its fleet: it stays where the scenario places it", s.ID)
	}
}
