package medieval

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"navarch/adjudicator/table"
)

//go:embed data/*.txt
var dataFS embed.FS

// ErrData marks a data file that cannot be used; the message names the file and line.
var ErrData = errors.New("medieval: data file")

// Level is a factor on the seven-level scale (rule "Factors").
type Level int

// The seven levels.
const (
	NNE Level = iota
	PNY
	FRL
	WKN
	STR
	MTY
	IMM
)

var levelNames = [...]string{"NNE", "PNY", "FRL", "WKN", "STR", "MTY", "IMM"}

func (l Level) String() string {
	if l < NNE || l > IMM {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level's abbreviation (NNE..IMM) or its number 0..6.
func ParseLevel(s string) (Level, error) {
	if i := slices.Index(levelNames[:], strings.ToUpper(s)); i >= 0 {
		return Level(i), nil
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 6 {
		return Level(n), nil
	}
	return 0, fmt.Errorf("%q is not a level (NNE PNY FRL WKN STR MTY IMM)", s)
}

// Factors are a ship's six factors (rule "Factors"); Gunnery has one per broadside.
type Factors struct {
	Sea, GunPort, GunStarboard, Defence, Combat, Missile Level
}

// Gun returns the Gunnery factor of broadside side (table.Port or table.Starboard).
func (f *Factors) Gun(side table.Arc) *Level {
	if side == table.Port {
		return &f.GunPort
	}
	return &f.GunStarboard
}

func (f Factors) String() string {
	return fmt.Sprintf("SEA %v GUN %v/%v DEF %v CMB %v MSL %v", f.Sea, f.GunPort, f.GunStarboard, f.Defence, f.Combat, f.Missile)
}

// ShipType is a row of data/ships.txt.
type ShipType struct {
	ID, Name string
	Factors  Factors
	Base     table.Base
	Value    int
}

// Rules holds data/rules.txt.
type Rules struct {
	Points                  table.Points
	MissileRange            table.Len
	Prize, Flagship, Margin int // victory (a designed rule)
}

// Division is a Division of a fleet (rule "Organisation").
type Division struct{ ID, Side, Name string }

// ShipDef places a ship at the start of a scenario.
type ShipDef struct {
	ID, Type, Division, Name string
	Pose                     table.Pose
	Flagship                 bool
}

// Scenario is a data/scenario-*.txt file.
type Scenario struct {
	ID, Title string
	Table     table.Table
	Wind      table.Deg
	Turns     int
	Sides     []string
	Divisions []Division
	Ships     []ShipDef
	Lashed    [][2]string
}

// Data is everything the data files hold.
type Data struct {
	Types     []ShipType
	Rules     Rules
	Scenarios []*Scenario
}

// Type returns the ship type id, or nil.
func (d *Data) Type(id string) *ShipType {
	for i := range d.Types {
		if d.Types[i].ID == id {
			return &d.Types[i]
		}
	}
	return nil
}

// LoadData reads the built-in data files.
func LoadData() (*Data, error) {
	d := &Data{}
	files := map[string]func(string, [][]string) error{
		"data/ships.txt": d.readTypes,
		"data/rules.txt": d.readRules,
	}
	for _, name := range []string{"data/ships.txt", "data/rules.txt"} {
		if err := readFile(name, files[name]); err != nil {
			return nil, err
		}
	}
	entries, err := dataFS.ReadDir("data")
	if err != nil {
		return nil, err
	}
	for _, e := range entries { // ReadDir returns names sorted
		if strings.HasPrefix(e.Name(), "scenario-") {
			if err := readFile("data/"+e.Name(), d.readScenario); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// readFile calls read with the file's non-comment lines split into fields; read gets the
// file name for messages and all lines at once.
func readFile(name string, read func(string, [][]string) error) error {
	data, err := dataFS.ReadFile(name)
	if err != nil {
		return err
	}
	var lines [][]string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			f = nil
		}
		lines = append(lines, f)
	}
	return read(name, lines)
}

func lineErr(file string, i int, format string, a ...any) error {
	return fmt.Errorf("%w %s line %d: %s", ErrData, file, i+1, fmt.Sprintf(format, a...))
}

func (d *Data) readTypes(file string, lines [][]string) error {
	for i, f := range lines {
		if f == nil {
			continue
		}
		if f[0] != "type" || len(f) < 12 {
			return lineErr(file, i, "want type ID SEA GUN GUN DEF CMB MSL LENGTH BEAM VALUE NAME")
		}
		var lv [6]Level
		for k := range lv {
			l, err := ParseLevel(f[2+k])
			if err != nil {
				return lineErr(file, i, "%v", err)
			}
			lv[k] = l
		}
		if lv[1] > WKN || lv[2] > WKN {
			return lineErr(file, i, "Gunnery may only be NNE..WKN (rule Factors)")
		}
		length, err1 := table.ParseInches(f[8])
		beam, err2 := table.ParseInches(f[9])
		value, err3 := strconv.Atoi(f[10])
		base := table.Base{Length: length, Beam: beam}
		if err := errors.Join(err1, err2, err3, base.Valid()); err != nil {
			return lineErr(file, i, "%v", err)
		}
		d.Types = append(d.Types, ShipType{ID: f[1], Name: strings.Join(f[11:], " "), Base: base, Value: value,
			Factors: Factors{Sea: lv[0], GunPort: lv[1], GunStarboard: lv[2], Defence: lv[3], Combat: lv[4], Missile: lv[5]}})
	}
	return nil
}

func (d *Data) readRules(file string, lines [][]string) error {
	for i, f := range lines {
		if f == nil {
			continue
		}
		if len(f) != 2 {
			return lineErr(file, i, "want NAME VALUE")
		}
		var err error
		switch f[0] {
		case "nogo":
			d.Rules.Points.NoGo, err = strconv.Atoi(f[1])
		case "beat":
			d.Rules.Points.Beat, err = strconv.Atoi(f[1])
		case "prize":
			d.Rules.Prize, err = strconv.Atoi(f[1])
		case "flagship":
			d.Rules.Flagship, err = strconv.Atoi(f[1])
		case "margin":
			d.Rules.Margin, err = strconv.Atoi(f[1])
		case "missile-range":
			d.Rules.MissileRange, err = table.ParseInches(f[1])
		default:
			err = fmt.Errorf("unknown value %q", f[0])
		}
		if err != nil {
			return lineErr(file, i, "%v", err)
		}
	}
	return nil
}

func (d *Data) readScenario(file string, lines [][]string) error {
	s := &Scenario{}
	for i, f := range lines {
		if f == nil {
			continue
		}
		if err := s.readLine(d, f); err != nil {
			return lineErr(file, i, "%v", err)
		}
	}
	if s.ID == "" || len(s.Sides) != 2 || len(s.Ships) == 0 || s.Turns < 1 {
		return lineErr(file, len(lines)-1, "a scenario needs an id, two sides, ships and turns")
	}
	for _, dv := range s.Divisions { // rule "Organisation": one flagship in each Division
		n := 0
		for _, sh := range s.Ships {
			if sh.Division == dv.ID && sh.Flagship {
				n++
			}
		}
		if n != 1 {
			return lineErr(file, len(lines)-1, "division %s has %d flagships, not one (rule Organisation)", dv.ID, n)
		}
	}
	d.Scenarios = append(d.Scenarios, s)
	return nil
}

func (s *Scenario) readLine(d *Data, f []string) error {
	need := map[string]int{"scenario": 2, "title": 2, "table": 3, "wind": 2, "turns": 2, "side": 2, "division": 4, "ship": 8, "lashed": 3}
	if n, ok := need[f[0]]; !ok || len(f) < n {
		return fmt.Errorf("unknown or short line %q", strings.Join(f, " "))
	}
	var err error
	switch f[0] {
	case "scenario":
		s.ID = f[1]
	case "title":
		s.Title = strings.Join(f[1:], " ")
	case "table":
		w, err1 := table.ParseInches(f[1])
		h, err2 := table.ParseInches(f[2])
		s.Table, err = table.Table{Width: w, Height: h}, errors.Join(err1, err2)
	case "wind":
		s.Wind, err = strconv.Atoi(f[1])
		s.Wind = table.Norm(s.Wind)
	case "turns":
		s.Turns, err = strconv.Atoi(f[1])
	case "side":
		s.Sides = append(s.Sides, f[1])
	case "division":
		if !slices.Contains(s.Sides, f[2]) {
			return fmt.Errorf("division %s of unknown side %s", f[1], f[2])
		}
		s.Divisions = append(s.Divisions, Division{ID: f[1], Side: f[2], Name: strings.Join(f[3:], " ")})
	case "ship":
		return s.readShip(d, f)
	case "lashed":
		s.Lashed = append(s.Lashed, [2]string{f[1], f[2]})
	}
	return err
}

func (s *Scenario) readShip(d *Data, f []string) error {
	if d.Type(f[2]) == nil {
		return fmt.Errorf("unknown ship type %s", f[2])
	}
	if !slices.ContainsFunc(s.Divisions, func(dv Division) bool { return dv.ID == f[3] }) {
		return fmt.Errorf("unknown division %s", f[3])
	}
	x, err1 := table.ParseInches(f[4])
	y, err2 := table.ParseInches(f[5])
	h, err3 := strconv.Atoi(f[6])
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	def := ShipDef{ID: f[1], Type: f[2], Division: f[3], Pose: table.Pose{At: table.Point{X: x, Y: y}, Heading: table.Norm(h)}}
	rest := f[7:]
	if len(rest) > 0 && rest[0] == "flagship" {
		def.Flagship, rest = true, rest[1:]
	}
	def.Name = strings.Join(rest, " ")
	s.Ships = append(s.Ships, def)
	return nil
}

// TablesKey is the Config.Tables key of a referee's corrected data for a game.
const TablesKey = "medieval"

// maxOverride bounds a corrected data file.
const maxOverride = 64 << 10

// WithOverride returns a copy of d with a referee's corrected data applied: "type …" lines
// (the syntax of data/ships.txt) replace or add ship types by id, and "NAME VALUE" lines
// (the syntax of data/rules.txt) replace those values. What the file does not name keeps the
// built-in (substitute) value. d itself is not changed.
func (d *Data) WithOverride(text []byte) (*Data, error) {
	if len(text) > maxOverride {
		return nil, fmt.Errorf("%w override: more than %d bytes", ErrData, maxOverride)
	}
	out := *d
	out.Types = slices.Clone(d.Types)
	var types, rules [][]string
	for _, line := range strings.Split(string(text), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			types, rules = append(types, nil), append(rules, nil)
		case f[0] == "type":
			types, rules = append(types, f), append(rules, nil)
		default:
			types, rules = append(types, nil), append(rules, f)
		}
	}
	fresh := &Data{Rules: d.Rules}
	if err := fresh.readTypes("override", types); err != nil {
		return nil, err
	}
	if err := fresh.readRules("override", rules); err != nil {
		return nil, err
	}
	for _, t := range fresh.Types {
		if i := slices.IndexFunc(out.Types, func(x ShipType) bool { return x.ID == t.ID }); i >= 0 {
			out.Types[i] = t
		} else {
			out.Types = append(out.Types, t)
		}
	}
	out.Rules = fresh.Rules
	if p := out.Rules.Points; p.NoGo < 0 || p.NoGo > p.Beat || p.Beat > 180 || out.Rules.MissileRange < 0 || out.Rules.MissileRange > 20*table.Inch {
		return nil, fmt.Errorf("%w override: points of sailing need 0 <= nogo <= beat <= 180 and a missile range of 0-20 inches", ErrData)
	}
	return &out, nil
}
