package lepanto

import (
	"fmt"
	"slices"

	"navarch/adjudicator"
)

// View is what one side may see of the game, for maps and reports: every unit in play and its
// markers, the leaders it may know of, the wind, the wings' tracks and what the last step
// did. Hidden leaders of the other side are left out (4.5). Side "" is the referee's view.
type View struct {
	Scenario, Side string
	Turn, Act      int
	Wind           string
	Cols, Rows     int
	Sections       []string
	Terrain        func(Hex) Terrain
	Units          []ViewUnit
	Wings          []Wing
	Trace          []Trace
	// Due lists the units the step due asks orders for that the side may know of: its own
	// (Acting), and the activated group's or a fury chit's groups' for every side, since
	// the draw shows them (2.2, 2.4.2). A map's crop keeps them in sight.
	Due []string
}

// ViewUnit is a unit as a side sees it.
type ViewUnit struct {
	ID, Name, Type, Side, Group, Wing string
	Hex                               Hex
	Facing                            Dir
	HV, FV                            int
	Fired, MastDown, OnFire, Sailing  bool
	Engaged                           bool
	Status                            string   // "" in play; sunk, surrendered, fled
	Leaders                           []string // leaders aboard that the side may see
	HiddenLeaders                     []string // its own hidden leaders aboard (own view only)
}

// Trace is something the steps since the players last gave orders did that a map shows: a
// move (Path), a fire or a ram (From → To), a hit, an evasion (From → To, or in place when a
// ram was evaded), a flight, a sinking, a surrender or a capture (at To).
type Trace struct {
	Kind     string // move, fire, ram, hit, evade, fled, sunk, surrendered, captured
	Unit     string
	Path     []Hex
	From, To Hex
}

// View returns side's view of the game.
func (g *Game) View(side string) View {
	v := View{Scenario: g.sc.ID, Side: side, Turn: g.Turn, Act: g.Act, Wind: g.Wind, Cols: g.m.Cols, Rows: g.m.Rows,
		Sections: slices.Clone(g.sc.Sections), Terrain: g.m.Terrain, Trace: slices.Clone(g.trace)}
	for _, w := range g.Wings {
		v.Wings = append(v.Wings, *w)
	}
	for _, u := range g.Units {
		vu := ViewUnit{ID: u.ID, Name: u.Name, Type: u.Type, Side: u.Side, Group: u.Group, Wing: u.Wing, Hex: u.Hex,
			Facing: u.Facing, HV: u.HV, FV: u.FV, Fired: u.Fired, MastDown: u.MastDown, OnFire: u.OnFire,
			Sailing: u.Sailing, Engaged: len(u.Engaged) > 0, Status: u.Status}
		for _, l := range g.leadersAboard(u) {
			switch {
			case !l.Hidden:
				vu.Leaders = append(vu.Leaders, l.ID)
			case side == "" || side == l.Side:
				vu.HiddenLeaders = append(vu.HiddenLeaders, l.ID)
			}
		}
		v.Units = append(v.Units, vu)
	}
	v.Due = g.due(side)
	return v
}

// due lists the units of View.Due: the step due's units of side (every side's for the
// referee), and of any side the units of a group activated (2.2) or of the groups a fury
// chit may activate again (2.4.2), which are public; never the groups of a Leader Move or
// a set-up, which may follow from hidden leaders (4.5).
func (g *Game) due(side string) []string {
	var out []string
	for _, s := range g.sc.Sides {
		switch {
		case side == "" || s == side:
			out = append(out, g.Acting(s)...)
		case g.SetUp && slices.Contains(g.WaitSides, s) && (g.Wait == waitGroup || g.Wait == waitFury):
			out = append(out, g.Acting(s)...)
		}
	}
	return out
}

// traceMove and the others record what the map of the step should show.
func (rs *resolver) traceMove(u *Unit, path []Hex) {
	rs.g.trace = append(rs.g.trace, Trace{Kind: "move", Unit: u.ID, Path: path})
}

func (rs *resolver) traceShot(kind string, a, t *Unit) {
	rs.g.trace = append(rs.g.trace, Trace{Kind: kind, Unit: a.ID, From: a.Hex, To: t.Hex})
}

// traceAt records what happened to t, which was at from and is now at its hex.
func (rs *resolver) traceAt(kind string, t *Unit, from Hex) {
	rs.g.trace = append(rs.g.trace, Trace{Kind: kind, Unit: t.ID, From: from, To: t.Hex})
}

// Summary lists the units in play as the side sees them, one line each, for the text part of
// a report: "BAR-VEN1 0610 NE HV 4 FV 4, fired, Mast Down, leader BARBARIGO".
func (v View) Summary() []string {
	var out []string
	for _, u := range v.Units {
		if u.Status != "" {
			continue
		}
		s := fmt.Sprintf("%-9s %s %-2s HV %d FV %d", u.ID, u.Hex, u.Facing, u.HV, u.FV)
		for _, m := range []struct {
			on   bool
			text string
		}{{u.Fired, "fired"}, {u.MastDown, "Mast Down"}, {u.OnFire, "fire aboard"}, {u.Engaged, "grappled"}, {u.Sailing, "under sail"}} {
			if m.on {
				s += ", " + m.text
			}
		}
		for _, l := range u.Leaders {
			s += ", leader " + l
		}
		for _, l := range u.HiddenLeaders {
			s += ", hidden leader " + l
		}
		out = append(out, s)
	}
	return out
}

// Summary implements adjudicator.Summarizer: the positions of side's view, and the victory
// points as they stand (10.1) in a section of their own.
func (g *Game) Summary(side string) adjudicator.Summary {
	return adjudicator.Summary{
		{Heading: "Positions", Lines: g.View(side).Summary()},
		{Heading: "Victory points (10.1)", Lines: g.vpSummary()},
	}
}

// vpSummary words VictoryPoints for a player: the total, what it would mean, and each line.
func (g *Game) vpSummary() []string {
	vp, lines := g.VictoryPoints()
	verdict := "a draw (0 to 20)"
	switch {
	case vp < 0:
		verdict = "an Ottoman victory (below 0)"
	case vp > 20:
		verdict = "a Christian victory (21 or more)"
	}
	when := "if the game ended now"
	if g.Over {
		when = "at the end"
	}
	out := []string{fmt.Sprintf("Christian victory points %s: %d, %s", when, vp, verdict)}
	for _, l := range lines {
		out = append(out, fmt.Sprintf("  %+d × %d %s", l.Each, l.Count, l.What))
	}
	return out
}
