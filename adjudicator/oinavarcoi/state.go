package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"
)

// Squadron status.
const (
	Active  = ""
	Routing = "routing" // moves 2Avd away each turn, never rallies or fights (rule Rout.move)
	Beached = "beached" // bottled up: launches on 10+ (rule Scenarios.bottled)
	Racing  = "racing"  // a tied periplous: racing offshore in column (rule Periplous.race)
	Saved   = "saved"   // left by a friendly edge, or survived the voyage home
	Lost    = "lost"    // routed off an enemy edge or onto a hostile beach, or did not get home
	Sunk    = "sunk"    // every stand lost in melee
	Exited  = "exited"  // a freighter that left by its exit edge (rule Scenarios.convoy)
)

// Squadron is one squadron (rule Stands.squadron): four stands (eight in full-size play),
// counted in half stands.
type Squadron struct {
	ID, Name, Side, Wing  string
	Freighter             bool
	Quality, Morale, Ship int // crew quality, crew morale, ships (rule Crew.traits)
	Strategos             bool
	Formation             string
	Disordered            bool // Unformed squadrons are Disordered too (rule Disorder.effects)
	Fresh                 bool // disordered since its side's movement phase began: no rally this turn
	Pose                  table.Pose
	Halves, Start         int
	Status                string
	Melee                 []string // enemies in melee with it, sorted
	MeleeTurns            int      // melee phases fought in its current melee
	Flanked               bool     // attacked in flank or rear: fails its first Battle test (rule Flank.victim)
	FlankAttacker         bool     // made a flank or rear attack this melee (rule Flank.attacker)
	Frontal               bool     // engaged frontally (rule Melee.ranks: forms line next turn)
	Failed                bool     // failed a Battle test this turn (rule Morale.test)
	Fought                bool     // took its Battle test this turn (the immediate melee of a diekplous)
	Broken                bool     // outnumbered in a melee this turn: routs in the morale phase (rule Flank.outnumbered)
	Katastrophe           bool     // flanked this melee: the Katastrophe morale malus
	Moved                 bool     // moved or manoeuvred this movement phase (rule Disorder.rally)
	Hold                  bool     // a pursuer that does not move in the next movement phase
	Pursuing              string   // the router it pursues (rule Pursuit)
	RaceWith              string   // the other racer of a tied periplous
	Fled                  []string // enemies it routed from (it moves directly away from them)
	Reform                string   // an unformed squadron reforming into this formation (rule Formations.unformed)
}

// InPlay reports whether s is on the table and not routing.
func (s *Squadron) InPlay() bool { return s.Status == Active }

// OnTable reports whether s is a model on the table.
func (s *Squadron) OnTable() bool {
	return s.Status == Active || s.Status == Routing || s.Status == Beached || s.Status == Racing
}

// Stands returns the squadron's stands as written: "3.5".
func (s *Squadron) Stands() string {
	if s.Halves%2 == 1 {
		return fmt.Sprintf("%d.5", s.Halves/2)
	}
	return fmt.Sprint(s.Halves / 2)
}

// Flotsam is a marker left where a rout happened (rule Flotsam).
type Flotsam struct{ Pose table.Pose }

// SignalEntry is one signal of a side's pre-battle list (rule Signals.list).
type SignalEntry struct {
	Kind, Wing string
	Used       bool
}

// Game is a game of Oi Navarcoi!. Slices keep the scenario's order, so Encode and every rule
// that walks squadrons never depend on map iteration.
type Game struct {
	data *Data
	sc   *Scenario
	full bool // full-size play (rule Stands.full)

	Deployed  bool
	Turn, Act int
	Phase     string // "" (start of turn next), phaseChoose, phaseMove1, phaseMove2
	First     string // the side that moves first this turn
	Winner    string // the initiative winner who chooses
	Moved     int    // sides that have moved this turn
	Weather   int    // weather worsened this many times (rule Event.table)
	Signalled [2]bool
	Signals   [2][]SignalEntry
	Admiral   [2]bool // the side's strategos (admiral) was killed (rule Event.withdrawal)
	// OmenPrefer and NavarchPrefer are the sides' standing OMEN and NAVARCH orders: their
	// squadrons preferred for good omens and a navarch killed (standing.go); nil: default.
	OmenPrefer, NavarchPrefer [2][]string
	// SharePrefer is the SHARE standing order: the side's squadrons, in the order that takes
	// the odd half stand of a loss two of them share (rule Melee.two); nil: the fleet list's.
	SharePrefer [2][]string
	// Initiative is the INITIATIVE standing order: FIRST or SECOND, the side's choice when it
	// wins the initiative, made at once with no step of its own (rule Initiative); "": asked.
	Initiative [2]string
	Squadrons  []*Squadron
	Flotsam    []Flotsam
	Phalanxes  []*Phalanx // the armies of the amphibious battle (rules Phalanx.*)
	Over       bool
	Result     string

	// trace is what the last step moved, for the map only: it is recomputed by replaying
	// that step, so it is not part of Encode.
	trace []Moved
	// held are standing orders given by ApplyStanding for the step due: not part of the state
	// (Encode), applied by its Resolve.
	held []heldStanding
}

// Moved is a squadron the last step moved: its centre before and after.
type Moved struct {
	ID       string
	From, To table.Point
}

// Phases of a turn.
const (
	phaseChoose = "choose"
	phaseMove1  = "move1"
	phaseMove2  = "move2"
)

func (g *Game) sq(id string) *Squadron {
	for _, s := range g.Squadrons {
		if s.ID == id {
			return s
		}
	}
	return nil
}

func (g *Game) side(i int) string { return g.sc.Sides[i] }

func (g *Game) enemy(side string) string {
	if g.sc.Sides[0] == side {
		return g.sc.Sides[1]
	}
	return g.sc.Sides[0]
}

// footprint returns the base of a squadron in formation f (data/rules.txt).
func (g *Game) footprint(s *Squadron, f string) table.Base {
	fp := g.data.Rules.Footprint[f]
	if s.Freighter {
		fp = [2]table.Len{100, 100}
	}
	across, deep := fp[0], fp[1]
	if g.full {
		if f == Keras {
			deep *= 2
		} else {
			across *= 2
		}
	}
	return table.Base{Length: deep * g.data.Rules.StandDepth / 100, Beam: across * g.data.Rules.StandWidth / 100}
}

func (g *Game) base(s *Squadron) table.Base { return g.footprint(s, s.Formation) }

func (g *Game) corners(s *Squadron) table.Polygon { return g.base(s).Corners(s.Pose) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Encode returns the whole state in a canonical text form.
func (g *Game) Encode() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "oinavarcoi %s full=%t\ndeployed %t\nturn %d act %d phase %q first %q winner %q moved %d\n",
		g.sc.ID, g.full, g.Deployed, g.Turn, g.Act, g.Phase, g.First, g.Winner, g.Moved)
	fmt.Fprintf(&b, "weather %d admiral %t %t signalled %t %t\nover %t %q\n", g.Weather, g.Admiral[0], g.Admiral[1],
		g.Signalled[0], g.Signalled[1], g.Over, g.Result)
	for i, list := range g.Signals {
		for _, e := range list {
			fmt.Fprintf(&b, "signal %s %s %s used=%t\n", g.side(i), e.Kind, e.Wing, e.Used)
		}
	}
	for i := range g.OmenPrefer {
		if len(g.OmenPrefer[i]) > 0 {
			fmt.Fprintf(&b, "standing %s OMEN %s\n", g.side(i), strings.Join(g.OmenPrefer[i], " "))
		}
		if len(g.NavarchPrefer[i]) > 0 {
			fmt.Fprintf(&b, "standing %s NAVARCH %s\n", g.side(i), strings.Join(g.NavarchPrefer[i], " "))
		}
		if len(g.SharePrefer[i]) > 0 {
			fmt.Fprintf(&b, "standing %s SHARE %s\n", g.side(i), strings.Join(g.SharePrefer[i], " "))
		}
		if g.Initiative[i] != "" {
			fmt.Fprintf(&b, "standing %s INITIATIVE %s\n", g.side(i), g.Initiative[i])
		}
	}
	for _, s := range g.Squadrons {
		fmt.Fprintf(&b, "sq %s %s wing=%s %d/%d/%d strat=%t %s dis=%t %d %d %d halves=%d/%d status=%q melee=%s mt=%d fl=%t fa=%t fr=%t failed=%t kat=%t moved=%t hold=%t pursuing=%q race=%q fled=%s reform=%q fresh=%t fought=%t broken=%t\n",
			s.ID, s.Side, s.Wing, s.Quality, s.Morale, s.Ship, s.Strategos, s.Formation, s.Disordered,
			s.Pose.At.X, s.Pose.At.Y, s.Pose.Heading, s.Halves, s.Start, s.Status, strings.Join(s.Melee, ","),
			s.MeleeTurns, s.Flanked, s.FlankAttacker, s.Frontal, s.Failed, s.Katastrophe, s.Moved, s.Hold,
			s.Pursuing, s.RaceWith, strings.Join(s.Fled, ","), s.Reform, s.Fresh, s.Fought, s.Broken)
	}
	encodePhalanxes(&b, g.Phalanxes)
	for _, f := range g.Flotsam {
		fmt.Fprintf(&b, "flotsam %d %d %d\n", f.Pose.At.X, f.Pose.At.Y, f.Pose.Heading)
	}
	return []byte(b.String())
}

func addSorted(list []string, id string) []string {
	if i, found := slices.BinarySearch(list, id); !found {
		list = slices.Insert(list, i, id)
	}
	return list
}

func removeID(list []string, id string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(x string) bool { return x == id })
}
