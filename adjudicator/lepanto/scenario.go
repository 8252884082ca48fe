package lepanto

import (
	"bufio"
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

//go:embed data/scenario-*.txt data/oob.txt
var scenarioFiles embed.FS

// scenarioDef is a parsed scenario file (data/scenario-*.txt).
type scenarioDef struct {
	ID, Rule, Title string
	Sections        []string // map sections in play
	Turns           int
	Chits           []string // special chits, one entry per chit, in file order
	Edges           map[string]string
	Sides           []string
	Captains        map[string]int // per wing
	Groups          []groupDef
	Units           []unitDef
	Leaders         []leaderDef
	groupIDs        []string
}

type groupDef struct{ ID, Side, Wing, Name string }

type unitDef struct {
	ID, Type, Group, Name string
	Hex                   Hex
	Facing                Dir
}

type leaderDef struct {
	ID, Kind, Unit, Name string
	Rating               int
}

// Special chits (2.4) by their file names.
const (
	ChitLeaderMove  = "leader-move"
	ChitFireRoll    = "fire-roll"
	ChitDisengage   = "disengage"
	ChitWindRoll    = "wind-roll"
	ChitBoarding    = "boarding"
	ChitBragadin    = "bragadin"
	ChitDoria       = "doria"
	ChitGloria      = "gloria-christi"
	ChitJihadNorth  = "jihad-north"
	ChitJihadCenter = "jihad-center"
	ChitJihadSouth  = "jihad-south"
)

// fury chits (2.4.2): the side they belong to and the map section they act in.
var furyChits = map[string][2]string{
	ChitBragadin: {"christian", "north"}, ChitGloria: {"christian", "center"}, ChitDoria: {"christian", "south"},
	ChitJihadNorth: {"ottoman", "north"}, ChitJihadCenter: {"ottoman", "center"}, ChitJihadSouth: {"ottoman", "south"},
}

var knownChits = []string{ChitLeaderMove, ChitFireRoll, ChitDisengage, ChitWindRoll, ChitBoarding,
	ChitBragadin, ChitDoria, ChitGloria, ChitJihadNorth, ChitJihadCenter, ChitJihadSouth}

func loadScenarios() ([]*scenarioDef, error) {
	data, err := scenarioFiles.ReadFile("data/oob.txt")
	if err != nil {
		return nil, err
	}
	oob, err := parseDefs(string(data))
	if err != nil {
		return nil, fmt.Errorf("oob.txt: %w", err)
	}
	names, err := scenarioFiles.ReadDir("data")
	if err != nil {
		return nil, err
	}
	var out []*scenarioDef
	for _, n := range names {
		if !strings.HasPrefix(n.Name(), "scenario-") {
			continue
		}
		data, err := scenarioFiles.ReadFile("data/" + n.Name())
		if err != nil {
			return nil, err
		}
		s, err := parseDefs(string(data))
		if err == nil {
			err = s.take(oob)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Name(), err)
		}
		out = append(out, s)
	}
	return out, nil
}

// take copies the groups the scenario names, with their units and leaders, from the orders
// of battle, in the orders of battle's order (which makes the cup's canonical order).
func (s *scenarioDef) take(oob *scenarioDef) error {
	for _, id := range s.groupIDs {
		if !slices.ContainsFunc(oob.Groups, func(g groupDef) bool { return g.ID == id }) {
			return fmt.Errorf("no group %s in oob.txt", id)
		}
	}
	unitGroup := map[string]string{}
	for _, g := range oob.Groups {
		if slices.Contains(s.groupIDs, g.ID) {
			s.Groups = append(s.Groups, g)
		}
	}
	for _, u := range oob.Units {
		if slices.Contains(s.groupIDs, u.Group) {
			s.Units = append(s.Units, u)
			unitGroup[u.ID] = u.Group
		}
	}
	for _, l := range oob.Leaders {
		if unitGroup[l.Unit] != "" {
			s.Leaders = append(s.Leaders, l)
		}
	}
	return s.check()
}

func parseDefs(text string) (*scenarioDef, error) {
	s := &scenarioDef{Edges: map[string]string{}, Captains: map[string]int{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	group := ""
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if err := s.parseLine(strings.Fields(line), &group); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	return s, nil
}

func (s *scenarioDef) parseLine(f []string, group *string) error {
	rest := strings.Join(f[1:], " ")
	var err error
	switch f[0] {
	case "scenario":
		s.ID = rest
	case "rule":
		s.Rule = rest
	case "title":
		s.Title = rest
	case "map":
		s.Sections = f[1:]
	case "turns":
		s.Turns, err = strconv.Atoi(rest)
	case "chit":
		err = s.parseChit(f)
	case "side":
		if len(f) != 3 {
			return fmt.Errorf("want side NAME EDGE")
		}
		s.Sides, s.Edges[f[1]] = append(s.Sides, f[1]), f[2]
	case "captains":
		if len(f) != 3 {
			return fmt.Errorf("want captains WING COUNT")
		}
		s.Captains[f[1]], err = strconv.Atoi(f[2])
	case "groups":
		s.groupIDs = f[1:]
	case "group":
		if len(f) < 5 {
			return fmt.Errorf("want group ID SIDE WING NAME")
		}
		*group = f[1]
		s.Groups = append(s.Groups, groupDef{f[1], f[2], f[3], strings.Join(f[4:], " ")})
	case "unit":
		err = s.parseUnit(f, *group)
	case "leader":
		err = s.parseLeader(f)
	default:
		err = fmt.Errorf("unknown line %q", f[0])
	}
	return err
}

func (s *scenarioDef) parseChit(f []string) error {
	if len(f) != 3 || !slices.Contains(knownChits, f[1]) {
		return fmt.Errorf("want chit NAME COUNT with a chit of 2.4")
	}
	n, err := strconv.Atoi(f[2])
	for i := 0; i < n; i++ {
		s.Chits = append(s.Chits, f[1])
	}
	return err
}

func (s *scenarioDef) parseUnit(f []string, group string) error {
	if len(f) < 6 || group == "" || !slices.Contains(UnitTypes, f[2]) {
		return fmt.Errorf("want unit ID TYPE HEX FACING NAME inside a group")
	}
	h, err := ParseHex(f[3])
	if err != nil {
		return err
	}
	d, err := ParseDir(f[4])
	s.Units = append(s.Units, unitDef{ID: f[1], Type: f[2], Group: group, Name: strings.Join(f[5:], " "), Hex: h, Facing: d})
	return err
}

func (s *scenarioDef) parseLeader(f []string) error {
	if len(f) < 6 || (f[2] != "admiral" && f[2] != "captain") {
		return fmt.Errorf("want leader ID admiral|captain RATING UNIT NAME")
	}
	r, err := strconv.Atoi(f[3])
	s.Leaders = append(s.Leaders, leaderDef{ID: f[1], Kind: f[2], Rating: r, Unit: f[4], Name: strings.Join(f[5:], " ")})
	return err
}

func (s *scenarioDef) check() error {
	if s.ID == "" || s.Rule == "" || s.Turns < 1 || len(s.Sides) != 2 || len(s.Groups) == 0 {
		return fmt.Errorf("scenario needs an id, a rule, turns, two sides and groups")
	}
	ids := map[string]bool{}
	for _, u := range s.Units {
		if ids[u.ID] {
			return fmt.Errorf("unit %s listed twice", u.ID)
		}
		ids[u.ID] = true
	}
	for _, l := range s.Leaders {
		if !ids[l.Unit] {
			return fmt.Errorf("leader %s aboard unknown unit %s", l.ID, l.Unit)
		}
	}
	return nil
}
