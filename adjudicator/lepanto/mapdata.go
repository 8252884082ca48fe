package lepanto

import (
	"bufio"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed data/map.txt
var defaultMap []byte

// Terrain of a hex (1.2, 3.4).
type Terrain byte

// Terrain kinds as the map file writes them.
const (
	OffMap  Terrain = 0
	Deep    Terrain = '.'
	Shallow Terrain = ':'
	Coast   Terrain = '#'
)

// Map is the battle map: terrain per hex and the row ranges of its three sections.
type Map struct {
	Cols, Rows int
	Substitute bool
	grid       []string
	sections   map[string][2]int
}

// Terrain returns the terrain of h, OffMap outside the map.
func (m *Map) Terrain(h Hex) Terrain {
	if h.Col < 1 || h.Col > m.Cols || h.Row < 1 || h.Row > m.Rows {
		return OffMap
	}
	return Terrain(m.grid[h.Row-1][h.Col-1])
}

// InSection reports whether h lies in the named section ("north", "center", "south").
func (m *Map) InSection(h Hex, section string) bool {
	r, ok := m.sections[section]
	return ok && h.Row >= r[0] && h.Row <= r[1] && m.Terrain(h) != OffMap
}

// onMap reports whether h is an enterable hex of the map sections the scenario uses (1.2;
// 13.2.2, 13.3.2 and 13.4.2 each "use only" one map).
func (g *Game) onMap(h Hex) bool {
	if !g.m.Enterable(h) {
		return false
	}
	for _, s := range g.sc.Sections {
		if g.m.InSection(h, s) {
			return true
		}
	}
	return false
}

// Enterable reports whether a unit may be in h at all: on the map and not coast (1.2).
func (m *Map) Enterable(h Hex) bool { t := m.Terrain(h); return t == Deep || t == Shallow }

func parseMap(data []byte) (*Map, error) {
	m := &Map{sections: map[string][2]int{}}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	inGrid := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if err := m.parseLine(line, &inGrid); err != nil {
			return nil, fmt.Errorf("map line %d: %w", n, err)
		}
	}
	if len(m.grid) != m.Rows || m.Rows == 0 || inGrid {
		return nil, fmt.Errorf("map: %d grid rows for size %d, or no end line", len(m.grid), m.Rows)
	}
	return m, nil
}

func (m *Map) parseLine(line string, inGrid *bool) error {
	switch {
	case *inGrid && line == "end":
		*inGrid = false
	case *inGrid:
		if len(line) != m.Cols || strings.Trim(line, ".:#") != "" {
			return fmt.Errorf("grid row %q: want %d of . : #", line, m.Cols)
		}
		m.grid = append(m.grid, line)
	case line == "" || line[0] == '#':
	case line == "grid":
		*inGrid = true
	case line == "source substitute":
		m.Substitute = true
	default:
		return m.parseSetting(strings.Fields(line))
	}
	return nil
}

func (m *Map) parseSetting(f []string) error {
	nums := func(s []string) ([]int, error) {
		out := make([]int, len(s))
		for i, x := range s {
			n, err := strconv.Atoi(x)
			if err != nil || n < 1 || n > 99 {
				return nil, fmt.Errorf("%q is not a number 1-99", x)
			}
			out[i] = n
		}
		return out, nil
	}
	switch {
	case len(f) == 3 && f[0] == "size":
		v, err := nums(f[1:])
		if err == nil {
			m.Cols, m.Rows = v[0], v[1]
		}
		return err
	case len(f) == 4 && f[0] == "section":
		v, err := nums(f[2:])
		if err == nil {
			m.sections[f[1]] = [2]int{v[0], v[1]}
		}
		return err
	case len(f) == 2 && f[0] == "source" && f[1] == "printed":
		return nil
	}
	return fmt.Errorf("unknown line %q", strings.Join(f, " "))
}
