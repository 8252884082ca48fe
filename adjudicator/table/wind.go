package table

// OffWind returns the angle between heading h and the direction the wind blows from, 0..180:
// 0 is head to wind, 90 wind on the beam, 180 dead before the wind.
func OffWind(h, windFrom Deg) Deg {
	d := Diff(h, windFrom)
	return max(d, -d)
}

// Downwind returns the bearing the wind blows towards.
func Downwind(windFrom Deg) Deg { return Norm(windFrom + 180) }

// PointOfSailing is how a heading lies to the wind.
type PointOfSailing int

// The points of sailing a ruleset tells apart (the medieval table's two columns and the
// heading it forbids).
const (
	IntoWind PointOfSailing = iota // closer to the wind than the ship can sail
	Beating                        // wind forward of the limit set by Points.Beat
	Running                        // wind abeam or abaft (as Points.Beat sets)
)

func (p PointOfSailing) String() string {
	switch p {
	case IntoWind:
		return "into the wind"
	case Beating:
		return "beating"
	}
	return "running"
}

// Points divides OffWind angles: below NoGo is IntoWind, below Beat is Beating, the rest is
// Running. The numbers are a ruleset's (data files; the texts give none).
type Points struct{ NoGo, Beat Deg }

// Of returns the point of sailing of heading h in wind windFrom.
func (ps Points) Of(h, windFrom Deg) PointOfSailing {
	switch a := OffWind(h, windFrom); {
	case a < ps.NoGo:
		return IntoWind
	case a < ps.Beat:
		return Beating
	}
	return Running
}
