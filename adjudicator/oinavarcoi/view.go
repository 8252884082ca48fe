package oinavarcoi

import (
	"slices"

	"navarch/adjudicator"

	"navarch/adjudicator/table"
)

// View is what one side may see of the game, for maps and reports: the table, the land, the
// edges' status for the viewer, every squadron, phalanx and flotsam marker. Nothing in it is
// hidden from the other side: the signal lists are left out but for the viewer's own.
type View struct {
	Scenario, Title, Side string
	Sides                 [2]string // the side deploying south first
	Turn                  int
	Width, Height         table.Len
	Wind                  table.Deg
	Edges                 [4]string // by table.Side: friendly, neutral or enemy for Side ("" for the referee)
	Cape                  table.Polygon
	Beaches               []ViewLand
	Squadrons             []ViewSquadron
	Phalanxes             []ViewPhalanx
	Flotsam               []table.Polygon
	Signals               []string // the viewer's own signals not yet given
	// Deployed is false before the deployment: the signal list is still to be written, and
	// SignalAllowance is how many the viewer may write.
	Deployed        bool
	SignalAllowance int
	// Act and What number the step the game waits for as the mails do (adjudicator.Step).
	Act   int
	What  string
	Moves []Moved // what the last step moved
}

// ViewLand is a beach and whose it is.
type ViewLand struct {
	Side string
	Area table.Polygon
}

// ViewSquadron is a squadron as drawn: its footprint and the stands within it.
type ViewSquadron struct {
	ID, Side, Formation, Status, Pursuing string
	Freighter, Disordered, Strategos      bool
	Heading                               table.Deg
	Corners                               table.Polygon
	Across, Deep                          int // stands across and deep, to draw the stands
	Stands                                string
	InMelee                               bool
}

// ViewPhalanx is a phalanx as drawn.
type ViewPhalanx struct {
	ID, Side, Order   string
	Corners           table.Polygon
	Heading           table.Deg
	Pushes            int
	Routed            bool
	Hoplites, Euzonoi int
}

// View returns side's view of the game ("" is the referee's).
func (g *Game) View(side string) View {
	v := View{Scenario: g.sc.ID, Title: g.sc.Title, Side: side, Sides: g.sc.Sides, Turn: g.Turn, Width: g.sc.Table.Width,
		Height: g.sc.Table.Height, Wind: g.sc.Wind, Cape: slices.Clone(g.sc.Cape), Moves: slices.Clone(g.trace)}
	st := g.Next()
	v.Turn, v.Act, v.Deployed = int(st.Turn), int(st.Act), g.Deployed
	if st.Kind == adjudicator.Over {
		v.What = "game over"
	}
	if i := g.sc.SideIndex(side); i >= 0 {
		v.Edges = g.sc.Edges[i]
		v.SignalAllowance = g.signalAllowance(i)
		for _, e := range g.Signals[i] {
			if !e.Used {
				v.Signals = append(v.Signals, e.Kind+" "+e.Wing)
			}
		}
	}
	for i, b := range g.sc.Beach {
		if len(b) > 0 {
			v.Beaches = append(v.Beaches, ViewLand{Side: g.side(i), Area: slices.Clone(b)})
		}
	}
	for _, s := range g.Squadrons {
		if !s.OnTable() {
			continue
		}
		across, deep := 4, 1
		switch s.Formation {
		case Pollon, Unformed, Kyklos:
			across, deep = 2, 2
		case Keras:
			across, deep = 1, 4
		}
		if g.full {
			if s.Formation == Keras {
				deep *= 2
			} else {
				across *= 2
			}
		}
		if s.Freighter {
			across, deep = 1, 1
		}
		v.Squadrons = append(v.Squadrons, ViewSquadron{ID: s.ID, Side: s.Side, Formation: s.Formation, Status: s.Status,
			Pursuing: s.Pursuing, Freighter: s.Freighter, Disordered: s.Disordered, Strategos: s.Strategos,
			Heading: s.Pose.Heading, Corners: g.corners(s), Across: across, Deep: deep, Stands: s.Stands(), InMelee: len(s.Melee) > 0})
	}
	for _, p := range g.Phalanxes {
		v.Phalanxes = append(v.Phalanxes, ViewPhalanx{ID: p.ID, Side: p.Side, Order: p.Order, Corners: g.phalanxCorners(p),
			Heading: p.Pose.Heading, Pushes: p.Pushes, Routed: p.Routed, Hoplites: p.Hoplites, Euzonoi: p.Euzonoi})
	}
	for _, f := range g.Flotsam {
		v.Flotsam = append(v.Flotsam, g.flotsamBase().Corners(f.Pose))
	}
	return v
}
