package table

// Table is the playing area: x in 0..Width, y in 0..Height.
type Table struct{ Width, Height Len }

// Side is a table edge.
type Side int

// The table edges.
const (
	North Side = iota
	East
	South
	West
)

var sideNames = [...]string{"north", "east", "south", "west"}

func (s Side) String() string {
	if s < North || s > West {
		return "edge?"
	}
	return sideNames[s]
}

// Polygon returns the table's outline.
func (t Table) Polygon() Polygon {
	return Polygon{{0, 0}, {0, t.Height}, {t.Width, t.Height}, {t.Width, 0}}
}

// Inside reports whether pg lies wholly on the table (touching an edge counts as on).
func (t Table) Inside(pg Polygon) bool {
	for _, p := range pg {
		if p.X < 0 || p.Y < 0 || p.X > t.Width || p.Y > t.Height {
			return false
		}
	}
	return true
}

// Off reports whether pg has wholly left the table (it shares no interior with it).
func (t Table) Off(pg Polygon) bool { return !Overlap(t.Polygon(), pg) }

// Over returns the edges pg reaches past, in North, East, South, West order.
func (t Table) Over(pg Polygon) []Side {
	var over [4]bool
	for _, p := range pg {
		over[North] = over[North] || p.Y > t.Height
		over[East] = over[East] || p.X > t.Width
		over[South] = over[South] || p.Y < 0
		over[West] = over[West] || p.X < 0
	}
	var out []Side
	for s, o := range over {
		if o {
			out = append(out, Side(s))
		}
	}
	return out
}

// ToEdge returns the distance from p to side s (negative beyond it).
func (t Table) ToEdge(p Point, s Side) Len {
	switch s {
	case North:
		return t.Height - p.Y
	case East:
		return t.Width - p.X
	case South:
		return p.Y
	}
	return p.X
}
