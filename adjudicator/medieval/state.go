package medieval

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"
)

// Ship status (rule "Damage").
const (
	Afloat      = ""
	Sunk        = "sunk"        // Seaworthiness reduced to NNE
	Surrendered = "surrendered" // Combat NNE within 2" of an enemy
	Leaving     = "leaving"     // Combat NNE: takes no further part, tries to leave the table
	Left        = "left"        // off the table
	Burnt       = "burnt"       // fire out of control: lost, burning and drifting (rule "Fires")
)

// Broadside indexes of Ship.Loaded.
const (
	portSide      = 0
	starboardSide = 1
)

func sideIndex(a table.Arc) int {
	if a == table.Port {
		return portSide
	}
	return starboardSide
}

// Ship is one ship, one model (rule "Scale").
type Ship struct {
	ID, Name, Type, Side, Division string
	Flagship                       bool
	Pose                           table.Pose
	Base                           table.Base
	Start, F                       Factors  // the starting and the current factors
	Loaded                         [2]Level // the broadside tracks, port and starboard (rule "Gunnery")
	Status                         string
	Burning                        bool     // on fire (rule "Fires")
	FireTries                      int      // attempts to extinguish made on this fire
	FireTurns                      int      // her Command and Control phases this fire has burnt through (rule "Fires": four)
	Grappled                       []string // enemies grappled with, sorted (rule "Grappling")
	Lashed                         []string // friends lashed to, sorted (rule "Lashing")
	CutAt                          []string // lashed friends whose lashing to her has had one successful cut, by either, sorted (rule "Lashing": two free the pair)
	NoGrapple                      bool     // her standing wish not to grapple (rule "Grappling")
	Against                        string   // the phasing enemy she fights against when not phasing, if in contact (rule "Boarding" iii)
}

// Active reports whether s still takes part: afloat, not surrendered, leaving or lost.
func (s *Ship) Active() bool { return s.Status == Afloat }

// OnTable reports whether s is still a base on the table: all but the sunk and those gone
// off the table (surrendered prizes stay; burnt hulks stay and drift).
func (s *Ship) OnTable() bool { return s.Status != Sunk && s.Status != Left }

// Corners returns the ship's base.
func (s *Ship) Corners() table.Polygon { return s.Base.Corners(s.Pose) }

// Game is a game of the medieval d10 rules. Slices are kept in the scenario's order, so
// that Encode and every rule that walks ships never depend on map iteration.
type Game struct {
	data *Data
	sc   *Scenario

	Turn   int
	Act    int
	Deck   []string // cards still to come this turn, in the order drawn (rule "Sequence")
	Card   string   // the card whose phase waits for orders, "" if none
	Wind   table.Deg
	Ships  []*Ship
	Over   bool
	Result string
	Last   []Trace // what the last card's phase did, for the map (Trace)
	// held are ships' standing orders given by ApplyStanding for the card due: not part of
	// the state (Encode), applied by its Resolve.
	held []*Order
}

// newGame sets up scenario sc: every ship at its place with its type's factors, broadsides
// loaded to their Gunnery, lashings made.
func newGame(d *Data, sc *Scenario) (*Game, error) {
	g := &Game{data: d, sc: sc, Wind: sc.Wind}
	for _, def := range sc.Ships {
		t := d.Type(def.Type)
		dv := g.division(def.Division)
		s := &Ship{ID: def.ID, Name: def.Name, Type: def.Type, Side: dv.Side, Division: def.Division,
			Flagship: def.Flagship, Pose: def.Pose, Base: t.Base, Start: t.Factors, F: t.Factors,
			Loaded: [2]Level{t.Factors.GunPort, t.Factors.GunStarboard}}
		if g.ship(s.ID) != nil {
			return nil, fmt.Errorf("%w: scenario %s: ship %s twice", ErrData, sc.ID, s.ID)
		}
		g.Ships = append(g.Ships, s)
	}
	for _, l := range sc.Lashed {
		a, b := g.ship(l[0]), g.ship(l[1])
		if a == nil || b == nil || a.Side != b.Side || !table.BeamToBeam(a.Base, a.Pose, b.Base, b.Pose) {
			return nil, fmt.Errorf("%w: scenario %s: %s and %s are not friends beam to beam (rule Lashing)", ErrData, sc.ID, l[0], l[1])
		}
		lash(a, b)
	}
	return g, nil
}

func lash(a, b *Ship) {
	a.Lashed = addSorted(a.Lashed, b.ID)
	b.Lashed = addSorted(b.Lashed, a.ID)
}

func addSorted(list []string, id string) []string {
	if i, found := slices.BinarySearch(list, id); !found {
		list = slices.Insert(list, i, id)
	}
	return list
}

func removeID(list []string, id string) []string {
	return slices.DeleteFunc(list, func(x string) bool { return x == id })
}

func (g *Game) ship(id string) *Ship {
	for _, s := range g.Ships {
		if s.ID == id {
			return s
		}
	}
	return nil
}

func (g *Game) division(id string) *Division {
	for i := range g.sc.Divisions {
		if g.sc.Divisions[i].ID == id {
			return &g.sc.Divisions[i]
		}
	}
	return nil
}

// Encode returns the whole state in a canonical text form.
func (g *Game) Encode() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "medieval %s\nturn %d\nact %d\ndeck %s\ncard %s\nwind %d\nover %t %s\n",
		g.sc.ID, g.Turn, g.Act, strings.Join(g.Deck, " "), g.Card, g.Wind, g.Over, g.Result)
	for _, s := range g.Ships {
		fmt.Fprintf(&b, "ship %s %d %d %d %v loaded=%v/%v status=%s fire=%t/%d/%d grappled=%s lashed=%s cuts=%s nograpple=%t against=%s\n",
			s.ID, s.Pose.At.X, s.Pose.At.Y, s.Pose.Heading, s.F, s.Loaded[0], s.Loaded[1], s.Status,
			s.Burning, s.FireTries, s.FireTurns, strings.Join(s.Grappled, ","), strings.Join(s.Lashed, ","), strings.Join(s.CutAt, ","), s.NoGrapple, s.Against)
	}
	for _, t := range g.Last {
		fmt.Fprintf(&b, "last %v\n", t)
	}
	return []byte(b.String())
}

// onTable reports whether s is a base on the table: afloat, leaving or burning adrift, and
// not wholly off the table's edges.
func (g *Game) onTable(s *Ship) bool { return s.OnTable() && !g.sc.Table.Off(s.Corners()) }
