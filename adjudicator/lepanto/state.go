package lepanto

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Unit is one counter in play: a single ship or a squadron (1.3.1).
type Unit struct {
	ID, Name, Type, Group, Side, Wing string
	HV, FV, Row, Sail                 int // from table unit-values
	Hex                               Hex
	Facing                            Dir
	Fired                             bool     // inverted after firing (5.6)
	MastDown, OnFire                  bool     // 9.1, 9.2
	Engaged                           []string // units grappled with (7.2), sorted
	Status                            string   // "" in play; fled, sunk, surrendered (9.6)
	Return                            int      // the turn a fled unit comes back
	GrappleTurn                       int      // the last turn it tried to grapple (7.1)
	Sailing                           bool     // in Sailing Mode (12)
	HoldMove, HoldRam                 bool     // standing HOLD FIRE: no reaction fire (5.3, 6.2)
}

// Single reports whether u is a single ship (Lanterna, Capitana, Kapudana or Galleass).
func (u *Unit) Single() bool { return !strings.HasSuffix(u.Type, "galleys") && u.Type != "galliots" }

// Galleass reports whether u is a Venetian galleass.
func (u *Unit) Galleass() bool { return u.Type == "galleass" }

// InPlay reports whether u is on the map.
func (u *Unit) InPlay() bool { return u.Status == "" }

// Leader is an admiral or captain aboard a unit of his Group (4.1).
type Leader struct {
	ID, Name, Kind, Group, Side string
	Rating                      int
	Unit                        string
	Status                      string // "" aboard; killed, captured, lost (4.2, 4.3)
	Hidden                      bool   // face down (4.5): only his side knows where he is
	Placed                      bool   // a captain navarch placed: his owner may move him with his next orders (4.4)
}

// Wing is a wing's LMA/LF track (9.7).
type Wing struct {
	ID       string
	Track    int
	LMA, LF  bool
	lma, lf  int
	Captains int
}

// Group is a Group with its Activation Marker (2.2).
type Group struct {
	ID, Side, Wing, Name string
	Acted                bool   // has had its action phase this turn
	CaptainOn            string // standing CAPTAIN order: where a captain taking command goes (4.4)
}

// step kinds the game waits for
const (
	waitNone       = ""
	waitGroup      = "group"       // a drawn Group Activation Marker (2.2)
	waitFury       = "fury"        // Bragadin/Doria/Gloria Christi/Jihad (2.4.2)
	waitLeaderMove = "leader-move" // 2.4.1
	waitDisengage  = "disengage"   // 2.4.4
	waitSetUp      = "set-up"      // hidden leaders before the first turn (4.5)
	waitBoarding   = "boarding"    // the drawing player orders two or more boardings (8)
)

// Game is a game of Lepanto 1571. Every slice is kept in a canonical order (the scenario's),
// so that Encode and every rule that walks units do not depend on map iteration.
type Game struct {
	sc      *scenarioDef
	tables  *Tables
	m       *Map
	options []string

	Turn, Act   int
	Cup         []string // markers and chits still in the cup, in canonical order
	Drawn       bool     // a Group Activation Marker has been drawn this turn (2.1)
	Wind        string   // the compass point the wind blows from (11.1)
	Units       []*Unit
	Leaders     []*Leader
	Wings       []*Wing
	Groups      []*Group
	Wait        string // what the current step waits for
	WaitSides   []string
	WaitGroup   string // the group activated, or the fury chit drawn
	Over        bool
	Result      string
	SetUp       bool     // the hidden set-up of 4.5 is done
	Drawer      string   // the drawing player: the side of the group activated last (2.4.1, 8)
	LeadersStay []string // sides with the standing order LEADERS STAY (2.4.1), sorted

	trace []Trace // what the last step did, for maps only: not part of the state (Encode)
}

// byID finds the item with an id in a canonical list, or nil.
func byID[T any](items []*T, id string, key func(*T) string) *T {
	for _, x := range items {
		if key(x) == id {
			return x
		}
	}
	return nil
}

func (g *Game) unit(id string) *Unit { return byID(g.Units, id, func(u *Unit) string { return u.ID }) }

func (g *Game) group(id string) *Group {
	return byID(g.Groups, id, func(x *Group) string { return x.ID })
}

func (g *Game) wing(id string) *Wing { return byID(g.Wings, id, func(w *Wing) string { return w.ID }) }

func (g *Game) leader(id string) *Leader {
	return byID(g.Leaders, id, func(l *Leader) string { return l.ID })
}

// unitsAt lists the units in play in h, in canonical order.
func (g *Game) unitsAt(h Hex) []*Unit {
	var out []*Unit
	for _, u := range g.Units {
		if u.InPlay() && u.Hex == h {
			out = append(out, u)
		}
	}
	return out
}

// leadersAboard lists the leaders aboard u.
func (g *Game) leadersAboard(u *Unit) []*Leader {
	var out []*Leader
	for _, l := range g.Leaders {
		if l.Status == "" && l.Unit == u.ID {
			out = append(out, l)
		}
	}
	return out
}

// Encode returns the canonical state: one line per fact, in canonical order.
func (g *Game) Encode() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "lepanto1571 %s\noptions %s\nturn %d\nact %d\ncup %s\ndrawn %t\nwind %s\nwait %s %s %s\nover %t %s\nsetup %t\n",
		g.sc.ID, strings.Join(g.options, " "), g.Turn, g.Act, strings.Join(g.Cup, " "), g.Drawn, g.Wind,
		g.Wait, strings.Join(g.WaitSides, ","), g.WaitGroup, g.Over, g.Result, g.SetUp)
	if g.Drawer != "" || len(g.LeadersStay) > 0 { // standing choices: written once made
		fmt.Fprintf(&b, "drawer %s\nleaders-stay %s\n", g.Drawer, strings.Join(g.LeadersStay, ","))
	}
	for _, gr := range g.Groups {
		fmt.Fprintf(&b, "group %s acted=%t", gr.ID, gr.Acted)
		if gr.CaptainOn != "" {
			fmt.Fprintf(&b, " captain-on=%s", gr.CaptainOn)
		}
		b.WriteByte('\n')
	}
	for _, w := range g.Wings {
		fmt.Fprintf(&b, "wing %s track=%d lma=%t lf=%t captains=%d\n", w.ID, w.Track, w.LMA, w.LF, w.Captains)
	}
	for _, u := range g.Units {
		fmt.Fprintf(&b, "unit %s %s %s fired=%t mast=%t fire=%t engaged=%s status=%s return=%d grappled=%d sailing=%t", u.ID, u.Hex, u.Facing,
			u.Fired, u.MastDown, u.OnFire, strings.Join(u.Engaged, ","), u.Status, u.Return, u.GrappleTurn, u.Sailing)
		if u.HoldMove || u.HoldRam {
			fmt.Fprintf(&b, " hold-fire=%t,%t", u.HoldMove, u.HoldRam)
		}
		b.WriteByte('\n')
	}
	for _, l := range g.Leaders {
		fmt.Fprintf(&b, "leader %s %s status=%s hidden=%t", l.ID, l.Unit, l.Status, l.Hidden)
		if l.Placed {
			b.WriteString(" placed")
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func (g *Game) hasOption(o string) bool { return slices.Contains(g.options, o) }

// value reads an integer cell; the tables were checked at load, so a failure is a bug.
func (g *Game) value(table, row, col string) int {
	v, err := g.tables.Get(table).Word(row, col)
	if err != nil {
		panic(err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(err)
	}
	return n
}
