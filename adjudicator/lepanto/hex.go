package lepanto

import (
	"fmt"
	"strconv"
)

// Hex is a map hex by its printed CCRR code (1.2): column CC counts west to east from 01,
// row RR north to south from 01. Hexes are flat-topped; even columns sit half a hex lower
// than odd ones (a map substitute: the printed map is not available, see data/map.txt).
type Hex struct{ Col, Row int }

// ParseHex reads a four-digit hex code.
func ParseHex(s string) (Hex, error) {
	if len(s) != 4 {
		return Hex{}, fmt.Errorf("hex %q: want four digits CCRR", s)
	}
	c, err1 := strconv.Atoi(s[:2])
	r, err2 := strconv.Atoi(s[2:])
	if err1 != nil || err2 != nil || s[0] == '-' || s[2] == '-' || s[0] == '+' || s[2] == '+' {
		return Hex{}, fmt.Errorf("hex %q: want four digits CCRR", s)
	}
	return Hex{c, r}, nil
}

func (h Hex) String() string { return fmt.Sprintf("%02d%02d", h.Col, h.Row) }

// Dir is a hexside direction; a unit's facing is one of them (3.1).
type Dir int

// The six hexside directions of flat-topped hexes.
const (
	N Dir = iota
	NE
	SE
	S
	SW
	NW
)

var dirNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

func (d Dir) String() string { return dirNames[d.norm()] }

func (d Dir) norm() Dir { return ((d % 6) + 6) % 6 }

// Turn returns the direction n hexsides clockwise (negative: anticlockwise).
func (d Dir) Turn(n int) Dir { return (d + Dir(n)).norm() }

// Opposite is the direction behind.
func (d Dir) Opposite() Dir { return d.Turn(3) }

// ParseDir reads N, NE, SE, S, SW or NW (any case).
func ParseDir(s string) (Dir, error) {
	for i, n := range dirNames {
		if equalFold(s, n) {
			return Dir(i), nil
		}
	}
	return 0, fmt.Errorf("direction %q: want N, NE, SE, S, SW or NW", s)
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// axial coordinates of flat-topped hexes (q = column, r chosen so that N is (0, -1)).
type axial struct{ q, r int }

func (h Hex) axial() axial { return axial{h.Col, h.Row - (h.Col+(h.Col&1))/2} }

func (a axial) hex() Hex { return Hex{a.q, a.r + (a.q+(a.q&1))/2} }

var axialDirs = [6]axial{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}

// Neighbor returns the adjacent hex across hexside d.
func (h Hex) Neighbor(d Dir) Hex {
	a, v := h.axial(), axialDirs[d.norm()]
	return axial{a.q + v.q, a.r + v.r}.hex()
}

// Distance is the number of hexes between h and o.
func (h Hex) Distance(o Hex) int {
	a, b := h.axial(), o.axial()
	dq, dr := a.q-b.q, a.r-b.r
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

// DirTo returns the hexside of h that o lies across, if o is adjacent.
func (h Hex) DirTo(o Hex) (Dir, bool) {
	for d := N; d <= NW; d++ {
		if h.Neighbor(d) == o {
			return d, true
		}
	}
	return 0, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
