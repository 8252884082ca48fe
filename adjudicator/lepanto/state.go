package lepanto

import (
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
	EvadeStern                        bool     // standing EVADE STERN: evades stern first (9.6)
	EvadeLean                         string   // standing EVADE ... N|S: the hexsides it prefers (9.6)
	NoExtinguish                      bool     // standing LET BURN: no extinguish roll (9.2.1)
	ReactAt                           string   // standing REACT ... AT SINGLE|SQUADRON: which unit of a stack it fires at (5.3)
	ReturnAt                          string   // standing RETURN: "HEX FACING" where it comes back after fleeing (9.6)
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
	EngagedStay []string // sides with the standing order ENGAGED STAY (2.4.4), sorted

	trace []Trace // what the last step did, for maps only: not part of the state (Encode)
	// held are standing orders given by ApplyStanding for the step due, applied by its
	// Resolve: not part of the state (Encode), since they count only from then on.
	held []heldStanding
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

// Encode returns the canonical state: one line per fact, in canonical order. Its bytes are
// hashed into every state record of a game's log (adjudicator.StateHash), so they never
// change: TestEncodeGolden pins them over a played full battle. It appends to one buffer
// without fmt (fmt was half the cost of an activation).
func (g *Game) Encode() []byte {
	b := make([]byte, 0, 512+128*len(g.Units)+64*(len(g.Leaders)+len(g.Groups)+len(g.Wings)))
	b = append(b, "lepanto1571 "...)
	b = append(b, g.sc.ID...)
	b = appendJoin(append(b, "\noptions "...), g.options, " ")
	b = strconv.AppendInt(append(b, "\nturn "...), int64(g.Turn), 10)
	b = strconv.AppendInt(append(b, "\nact "...), int64(g.Act), 10)
	b = appendJoin(append(b, "\ncup "...), g.Cup, " ")
	b = strconv.AppendBool(append(b, "\ndrawn "...), g.Drawn)
	b = append(append(b, "\nwind "...), g.Wind...)
	b = append(append(b, "\nwait "...), g.Wait...)
	b = appendJoin(append(b, ' '), g.WaitSides, ",")
	b = append(append(b, ' '), g.WaitGroup...)
	b = strconv.AppendBool(append(b, "\nover "...), g.Over)
	b = append(append(b, ' '), g.Result...)
	b = strconv.AppendBool(append(b, "\nsetup "...), g.SetUp)
	b = append(b, '\n')
	if g.Drawer != "" || len(g.LeadersStay) > 0 { // standing choices: written once made
		b = append(append(b, "drawer "...), g.Drawer...)
		b = appendJoin(append(b, "\nleaders-stay "...), g.LeadersStay, ",")
		b = append(b, '\n')
	}
	if len(g.EngagedStay) > 0 { // version 0.3.0: written once chosen
		b = appendJoin(append(b, "engaged-stay "...), g.EngagedStay, ",")
		b = append(b, '\n')
	}
	for _, gr := range g.Groups {
		b = append(append(b, "group "...), gr.ID...)
		b = strconv.AppendBool(append(b, " acted="...), gr.Acted)
		if gr.CaptainOn != "" {
			b = append(append(b, " captain-on="...), gr.CaptainOn...)
		}
		b = append(b, '\n')
	}
	for _, w := range g.Wings {
		b = append(append(b, "wing "...), w.ID...)
		b = strconv.AppendInt(append(b, " track="...), int64(w.Track), 10)
		b = strconv.AppendBool(append(b, " lma="...), w.LMA)
		b = strconv.AppendBool(append(b, " lf="...), w.LF)
		b = strconv.AppendInt(append(b, " captains="...), int64(w.Captains), 10)
		b = append(b, '\n')
	}
	for _, u := range g.Units {
		b = u.appendEncoding(b)
	}
	for _, l := range g.Leaders {
		b = append(append(b, "leader "...), l.ID...)
		b = append(append(b, ' '), l.Unit...)
		b = append(append(b, " status="...), l.Status...)
		b = strconv.AppendBool(append(b, " hidden="...), l.Hidden)
		if l.Placed {
			b = append(b, " placed"...)
		}
		b = append(b, '\n')
	}
	return b
}

// appendEncoding appends u's line of Encode.
func (u *Unit) appendEncoding(b []byte) []byte {
	b = append(append(b, "unit "...), u.ID...)
	b = appendHex(append(b, ' '), u.Hex)
	b = append(append(b, ' '), u.Facing.String()...)
	b = strconv.AppendBool(append(b, " fired="...), u.Fired)
	b = strconv.AppendBool(append(b, " mast="...), u.MastDown)
	b = strconv.AppendBool(append(b, " fire="...), u.OnFire)
	b = appendJoin(append(b, " engaged="...), u.Engaged, ",")
	b = append(append(b, " status="...), u.Status...)
	b = strconv.AppendInt(append(b, " return="...), int64(u.Return), 10)
	b = strconv.AppendInt(append(b, " grappled="...), int64(u.GrappleTurn), 10)
	b = strconv.AppendBool(append(b, " sailing="...), u.Sailing)
	if u.HoldMove || u.HoldRam {
		b = strconv.AppendBool(append(b, " hold-fire="...), u.HoldMove)
		b = strconv.AppendBool(append(b, ','), u.HoldRam)
	}
	// the standing choices of version 0.3.0, written only once made (the bytes of a game
	// that makes none are as before)
	if u.EvadeStern || u.EvadeLean != "" {
		b = append(append(b, " evade="...), map[bool]string{true: "stern", false: "bow"}[u.EvadeStern]...)
		if u.EvadeLean != "" {
			b = append(append(b, ','), u.EvadeLean...)
		}
	}
	if u.NoExtinguish {
		b = append(b, " let-burn"...)
	}
	if u.ReactAt != "" {
		b = append(append(b, " react-at="...), u.ReactAt...)
	}
	if u.ReturnAt != "" {
		b = append(append(b, " return-at="...), strings.ReplaceAll(u.ReturnAt, " ", ",")...)
	}
	return append(b, '\n')
}

// appendHex appends h as Hex.String writes it ("%02d%02d").
func appendHex(b []byte, h Hex) []byte { return appendPad2(appendPad2(b, h.Col), h.Row) }

// appendPad2 appends n as fmt's %02d does: zero-padded to two characters, sign included.
func appendPad2(b []byte, n int) []byte {
	if n >= 0 && n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func appendJoin(b []byte, items []string, sep string) []byte {
	for i, s := range items {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, s...)
	}
	return b
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
