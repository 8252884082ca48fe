package oinavarcoi

import (
	"embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"navarch/adjudicator/table"
)

//go:embed data/*.txt
var dataFS embed.FS

// ErrData marks a data file that cannot be used; the message names the file and line.
var ErrData = errors.New("oinavarcoi: data file")

// Formations (rule Formations.kinds).
const (
	Mias     = "EPI-MIAS"
	Pollon   = "EPI-POLLON"
	Keras    = "EPI-KERAS"
	Kyklos   = "KYKLOS"
	Unformed = "UNFORMED"
)

// Formations lists the formations a squadron may be ordered into.
var Formations = []string{Mias, Pollon, Keras, Kyklos}

// rank is the melee rank of a formation (rule Melee.ranks): 1 epi mias and kyklos, 2 epi
// pollon, 3 unformed, 4 epi keras.
func rank(f string) int {
	switch f {
	case Pollon:
		return 2
	case Unformed:
		return 3
	case Keras:
		return 4
	}
	return 1
}

// Rules holds data/rules.txt (SUBSTITUTE numbers).
type Rules struct {
	StandWidth, StandDepth table.Len
	Footprint              map[string][2]table.Len // across, deep in hundredths of stands
	EnemyNear              table.Len
	DeployNear, DeployFar  table.Len
	DeploySide             table.Len
	LaunchDistance         table.Len
	RaceDistance           table.Len
	RaceLossDie            int // a racer carried off the table loses 1dN half stands (rule Dice.d3)
	PhalanxWidth           table.Len
	PhalanxDepth           table.Len
	PhalanxMove            table.Len
	PhalanxPush            table.Len
	Respect                table.Len
}

// SquadronDef is a squadron line of a scenario.
type SquadronDef struct {
	Side, ID, Wing, Name  string
	Quality, Morale, Ship int
	Formation             string
	Pose                  table.Pose
	Strategos, Beached    bool
	Freighter             bool
}

// PhalanxDef is a phalanx line of the amphibious battle.
type PhalanxDef struct {
	Side, ID, Wing    string
	Hoplites, Euzonoi int
	Pose              table.Pose
}

// Scenario is one scenario of data/scenarios.txt.
type Scenario struct {
	ID, Title string
	Turns     int
	Table     table.Table
	Wind      table.Deg
	Sides     [2]string
	North     [2]bool      // the side deploys north of the centre line
	Edges     [2][4]string // by side, by table.Side: friendly, neutral or enemy
	NoSignals [2]bool
	Defender  string
	KerasOnly [2]bool
	Cape      table.Polygon
	Beach     [2]table.Polygon // the side's own beach (hostile to the other)
	Offshore  table.Deg
	Exit      [2]int // the edge a side's freighters must leave by, -1 if none
	Squadrons []SquadronDef
	Phalanxes []PhalanxDef
}

// SideIndex returns 0 or 1 for a side of the scenario, -1 for none.
func (sc *Scenario) SideIndex(side string) int { return slices.Index(sc.Sides[:], side) }

// Data is the ruleset's data files.
type Data struct {
	Rules     Rules
	Scenarios []*Scenario
}

// LoadData reads the built-in data files.
func LoadData() (*Data, error) {
	d := &Data{}
	rules, err := dataFS.ReadFile("data/rules.txt")
	if err != nil {
		return nil, err
	}
	if d.Rules, err = parseRules(string(rules)); err != nil {
		return nil, err
	}
	scs, err := dataFS.ReadFile("data/scenarios.txt")
	if err != nil {
		return nil, err
	}
	if d.Scenarios, err = parseScenarios(string(scs)); err != nil {
		return nil, err
	}
	return d, nil
}

func fields(text string, each func(n int, f []string) error) error {
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if err := each(i+1, f); err != nil {
			return fmt.Errorf("%w: line %d: %v", ErrData, i+1, err)
		}
	}
	return nil
}

func inch(s string) (table.Len, error) { return table.ParseInches(s) }

func parseRules(text string) (Rules, error) {
	return parseRulesOver(Rules{Footprint: map[string][2]table.Len{}}, text)
}

// parseRulesOver reads rules lines over base: the keys the text gives replace base's.
func parseRulesOver(base Rules, text string) (Rules, error) {
	r := base
	r.Footprint = maps.Clone(base.Footprint)
	err := fields(text, func(_ int, f []string) error {
		if f[0] == "footprint" {
			if len(f) != 4 || !slices.Contains(append(slices.Clone(Formations), Unformed), f[1]) {
				return fmt.Errorf("want footprint FORMATION ACROSS DEEP")
			}
			a, err1 := inch(f[2])
			b, err2 := inch(f[3])
			if err := errors.Join(err1, err2); err != nil || a <= 0 || b <= 0 {
				return fmt.Errorf("bad footprint %v", f)
			}
			r.Footprint[f[1]] = [2]table.Len{a, b}
			return nil
		}
		if len(f) != 2 {
			return fmt.Errorf("want KEY VALUE")
		}
		if f[0] == "race-loss-die" {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 6 {
				return fmt.Errorf("race-loss-die %q: want the sides of a die, 1 to 6", f[1])
			}
			r.RaceLossDie = n
			return nil
		}
		v, err := inch(f[1])
		if err != nil {
			return err
		}
		dst := map[string]*table.Len{"stand-width": &r.StandWidth, "stand-depth": &r.StandDepth,
			"enemy-near": &r.EnemyNear, "deploy-near": &r.DeployNear, "deploy-far": &r.DeployFar,
			"deploy-side": &r.DeploySide, "launch-distance": &r.LaunchDistance, "race-distance": &r.RaceDistance,
			"phalanx-width": &r.PhalanxWidth, "phalanx-depth": &r.PhalanxDepth, "phalanx-move": &r.PhalanxMove,
			"phalanx-push": &r.PhalanxPush, "respect": &r.Respect}[f[0]]
		if dst == nil {
			return fmt.Errorf("unknown key %q", f[0])
		}
		*dst = v
		return nil
	})
	if err != nil {
		return r, err
	}
	return r, r.check()
}

// check refuses rules the geometry cannot use: every length from a tenth of an inch to 100
// inches, a footprint per formation of at least half a stand each way and at most 10.
func (r Rules) check() error {
	if r.RaceLossDie == 0 {
		return fmt.Errorf("%w: rules.txt needs race-loss-die", ErrData)
	}
	if len(r.Footprint) != 5 {
		return fmt.Errorf("%w: rules.txt needs a footprint per formation", ErrData)
	}
	for _, v := range []table.Len{r.StandWidth, r.StandDepth, r.EnemyNear, r.DeployNear, r.DeployFar, r.DeploySide,
		r.LaunchDistance, r.RaceDistance, r.PhalanxWidth, r.PhalanxDepth, r.PhalanxMove, r.PhalanxPush, r.Respect} {
		if v < 10 || v > 100*table.Inch {
			return fmt.Errorf("%w: rules.txt: every length must be 0.1 to 100 inches", ErrData)
		}
	}
	for f, fp := range r.Footprint {
		if fp[0] < 50 || fp[1] < 50 || fp[0] > 1000 || fp[1] > 1000 {
			return fmt.Errorf("%w: rules.txt: footprint %s must be 0.5 to 10 stands each way", ErrData, f)
		}
	}
	return nil
}

// arity is the least and most fields of each scenario line (0: no most).
var arity = map[string][2]int{
	"scenario": {2, 2}, "title": {2, 0}, "turns": {2, 2}, "table": {3, 3}, "wind": {2, 2}, "offshore": {2, 2},
	"side": {3, 3}, "edge": {4, 4}, "signals": {3, 3}, "defender": {2, 2}, "deploy": {3, 3}, "cape": {7, 0},
	"beach": {8, 0}, "exit": {3, 3}, "squadron": {12, 0}, "freighter": {7, 0}, "phalanx": {9, 9},
}

var edgeNames = []string{"north", "east", "south", "west"}

func trait(s string, plus, minus string) (int, error) {
	switch s {
	case plus:
		return 1, nil
	case minus:
		return -1, nil
	case "-":
		return 0, nil
	}
	return 0, fmt.Errorf("%q is neither %s, %s nor -", s, plus, minus)
}

func polygon(f []string) (table.Polygon, error) {
	if len(f) < 6 || len(f)%2 != 0 {
		return nil, fmt.Errorf("a polygon needs at least three X Y pairs")
	}
	var pg table.Polygon
	for i := 0; i < len(f); i += 2 {
		x, err1 := inch(f[i])
		y, err2 := inch(f[i+1])
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		pg = append(pg, table.Point{X: x, Y: y})
	}
	return table.Hull(pg), nil
}

func pose(x, y, h string) (table.Pose, error) {
	px, err1 := inch(x)
	py, err2 := inch(y)
	hd, err3 := strconv.Atoi(h)
	if err := errors.Join(err1, err2, err3); err != nil {
		return table.Pose{}, err
	}
	if hd < 0 || hd > 359 {
		return table.Pose{}, fmt.Errorf("heading %d outside 0..359", hd)
	}
	return table.Pose{At: table.Point{X: px, Y: py}, Heading: hd}, nil
}

func parseScenarios(text string) ([]*Scenario, error) {
	var out []*Scenario
	var sc *Scenario
	err := fields(text, func(_ int, f []string) error {
		if n, ok := arity[f[0]]; ok && (len(f) < n[0] || n[1] > 0 && len(f) > n[1]) {
			return fmt.Errorf("%s: wrong number of fields", f[0])
		}
		if f[0] == "scenario" {
			sc = &Scenario{ID: f[1], Exit: [2]int{-1, -1}}
			out = append(out, sc)
			return nil
		}
		if sc == nil {
			return fmt.Errorf("%s before a scenario line", f[0])
		}
		side := func(s string) (int, error) {
			if i := sc.SideIndex(s); i >= 0 {
				return i, nil
			}
			return 0, fmt.Errorf("no side %q", s)
		}
		switch f[0] {
		case "title":
			sc.Title = strings.Join(f[1:], " ")
		case "turns":
			sc.Turns, _ = strconv.Atoi(f[1])
		case "table":
			w, err1 := inch(f[1])
			h, err2 := inch(f[2])
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			sc.Table = table.Table{Width: w, Height: h}
		case "wind", "offshore":
			d, err := strconv.Atoi(f[1])
			if err != nil {
				return err
			}
			if f[0] == "wind" {
				sc.Wind = table.Norm(d)
			} else {
				sc.Offshore = table.Norm(d)
			}
		case "side":
			i := 0
			if sc.Sides[0] != "" {
				i = 1
			}
			if sc.Sides[1] != "" || f[2] != "south" && f[2] != "north" {
				return fmt.Errorf("want two lines side ID south|north")
			}
			sc.Sides[i], sc.North[i] = f[1], f[2] == "north"
		case "edge":
			i, err := side(f[1])
			e := slices.Index(edgeNames, f[2])
			if err != nil || e < 0 || !slices.Contains([]string{"friendly", "neutral", "enemy"}, f[3]) {
				return fmt.Errorf("want edge SIDE EDGE friendly|neutral|enemy")
			}
			sc.Edges[i][e] = f[3]
		case "signals":
			i, err := side(f[1])
			sc.NoSignals[i] = f[2] == "no"
			return err
		case "defender":
			sc.Defender = f[1]
		case "deploy":
			i, err := side(f[1])
			sc.KerasOnly[i] = f[2] == "keras"
			return err
		case "cape":
			pg, err := polygon(f[1:])
			sc.Cape = pg
			return err
		case "beach":
			i, err := side(f[1])
			if err != nil {
				return err
			}
			sc.Beach[i], err = polygon(f[2:])
			return err
		case "exit":
			i, err := side(f[1])
			sc.Exit[i] = slices.Index(edgeNames, f[2])
			return err
		case "squadron", "freighter":
			return parseSquadron(sc, f)
		case "phalanx":
			if len(f) != 9 {
				return fmt.Errorf("want phalanx SIDE ID WING HOPLITES EUZONOI X Y HEADING")
			}
			p, err := pose(f[6], f[7], f[8])
			h, _ := strconv.Atoi(f[4])
			e, _ := strconv.Atoi(f[5])
			sc.Phalanxes = append(sc.Phalanxes, PhalanxDef{Side: f[1], ID: f[2], Wing: f[3], Hoplites: h, Euzonoi: e, Pose: p})
			return err
		default:
			return fmt.Errorf("unknown line %q", f[0])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, sc := range out {
		if err := sc.check(); err != nil {
			return nil, fmt.Errorf("%w: scenario %s: %v", ErrData, sc.ID, err)
		}
	}
	return out, nil
}

// check refuses a scenario the engine cannot play: two sides, a table, a turn limit, each
// side with a squadron, every squadron and phalanx of a side, unique ids, valid poses.
func (sc *Scenario) check() error {
	switch {
	case sc.Sides[0] == "" || sc.Sides[1] == "" || sc.Sides[0] == sc.Sides[1]:
		return fmt.Errorf("needs two sides")
	case sc.Table.Width < 20*table.Inch || sc.Table.Height < 20*table.Inch || sc.Table.Width > 1000*table.Inch || sc.Table.Height > 1000*table.Inch:
		return fmt.Errorf("the table must be 20 to 1000 inches a side")
	case sc.Turns < 1:
		return fmt.Errorf("needs a turn limit")
	}
	seen := map[string]bool{}
	var has [2]bool
	for _, s := range sc.Squadrons {
		i := sc.SideIndex(s.Side)
		if i < 0 || seen[s.ID] || !validID(s.ID) || slices.Contains(keywords, s.ID) || s.Pose.Valid() != nil {
			return fmt.Errorf("squadron %q: unknown side, bad or repeated id (or an order word), or bad position", s.ID)
		}
		seen[s.ID] = true
		has[i] = has[i] || !s.Freighter
	}
	for _, p := range sc.Phalanxes {
		if sc.SideIndex(p.Side) < 0 || seen[p.ID] || !validID(p.ID) || p.Hoplites < 0 || p.Euzonoi < 0 || p.Hoplites+p.Euzonoi < 1 || p.Hoplites+p.Euzonoi > 20 {
			return fmt.Errorf("phalanx %q: unknown side, bad or repeated id, or bad stands", p.ID)
		}
		seen[p.ID] = true
	}
	if !has[0] || !has[1] {
		return fmt.Errorf("each side needs a squadron")
	}
	return nil
}

func parseSquadron(sc *Scenario, f []string) error {
	if f[0] == "freighter" {
		if len(f) < 7 {
			return fmt.Errorf("want freighter SIDE ID X Y HEADING NAME")
		}
		p, err := pose(f[3], f[4], f[5])
		sc.Squadrons = append(sc.Squadrons, SquadronDef{Side: f[1], ID: f[2], Formation: Unformed, Pose: p,
			Freighter: true, Name: strings.Join(f[6:], " ")})
		return err
	}
	if len(f) < 12 {
		return fmt.Errorf("want squadron SIDE ID WING QUAL MORALE SHIP FORMATION X Y HEADING NAME")
	}
	q, err1 := trait(f[4], "well", "green")
	m, err2 := trait(f[5], "determined", "poor")
	s, err3 := trait(f[6], "fast", "heavy")
	p, err4 := pose(f[8], f[9], f[10])
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return err
	}
	if !slices.Contains(Formations, f[7]) {
		return fmt.Errorf("formation %q", f[7])
	}
	d := SquadronDef{Side: f[1], ID: f[2], Wing: f[3], Quality: q, Morale: m, Ship: s, Formation: f[7], Pose: p}
	rest := f[11:]
	for len(rest) > 0 && (rest[0] == "strategos" || rest[0] == "beached") {
		d.Strategos = d.Strategos || rest[0] == "strategos"
		d.Beached = d.Beached || rest[0] == "beached"
		rest = rest[1:]
	}
	d.Name = strings.Join(rest, " ")
	sc.Squadrons = append(sc.Squadrons, d)
	return nil
}

// WithOverride returns the data with a referee's replacement file applied (the game's tables,
// adjudicator.Config.Tables["oinavarcoi"]): rules lines before the first "scenario" line
// replace those keys of data/rules.txt; each scenario block replaces the built-in scenario of
// the same ID, whole.
func (d *Data) WithOverride(text string) (*Data, error) {
	lines := strings.Split(text, "\n")
	cut := slices.IndexFunc(lines, func(l string) bool {
		f := strings.Fields(l)
		return len(f) > 0 && f[0] == "scenario"
	})
	if cut < 0 {
		cut = len(lines)
	}
	rules, err := parseRulesOver(d.Rules, strings.Join(lines[:cut], "\n"))
	if err != nil {
		return nil, err
	}
	scs, err := parseScenarios(strings.Join(lines[cut:], "\n"))
	if err != nil {
		return nil, err
	}
	out := &Data{Rules: rules, Scenarios: slices.Clone(d.Scenarios)}
	for _, sc := range scs {
		i := slices.IndexFunc(out.Scenarios, func(s *Scenario) bool { return s.ID == sc.ID })
		if i < 0 {
			return nil, fmt.Errorf("%w: the override has scenario %q, which the ruleset does not", ErrData, sc.ID)
		}
		out.Scenarios[i] = sc
	}
	return out, nil
}
