package table

import (
	"math/rand/v2"
	"slices"
	"testing"
)

var ship = Base{Length: 6 * Inch, Beam: 2 * Inch}

func pose(x, y Len, h Deg) Pose { return Pose{Point{x * Inch, y * Inch}, h} }

func TestCorners(t *testing.T) {
	got := ship.Corners(pose(10, 10, 0))
	want := Polygon{{900, 1300}, {1100, 1300}, {1100, 700}, {900, 700}}
	if !slices.Equal(got, want) {
		t.Errorf("heading 0: %v, want %v", got, want)
	}
	got = ship.Corners(pose(10, 10, 90))
	want = Polygon{{1300, 1100}, {1300, 900}, {700, 900}, {700, 1100}}
	if !slices.Equal(got, want) {
		t.Errorf("heading 90: %v, want %v", got, want)
	}
	// heading 30: bow-starboard = centre + 3"·(sin30, cos30) + 1"·(cos30, -sin30)
	got = ship.Corners(pose(0, 0, 30))
	if got[BowStarboard] != (Point{150 + 87, 260 - 50}) {
		t.Errorf("heading 30 bow-starboard %v", got[BowStarboard])
	}
}

// randPose returns a pose within 100 inches of the origin.
func randPose(r *rand.Rand) Pose {
	return Pose{Point{r.Int64N(20000) - 10000, r.Int64N(20000) - 10000}, r.IntN(360)}
}

func randPath(r *rand.Rand) Path {
	var p Path
	for range r.IntN(6) {
		if r.IntN(2) == 0 {
			p = append(p, Step{Turn: r.IntN(61) - 30})
		} else {
			p = append(p, Step{Move: r.Int64N(2000) - 500})
		}
	}
	return p
}

// TestMoveAndReverse: a path followed by its reverse returns every pose exactly.
func TestMoveAndReverse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		start, path := randPose(r), randPath(r)
		poses := Apply(start, path)
		end := start
		if len(poses) > 0 {
			end = poses[len(poses)-1]
		}
		back := Apply(end, path.Reverse())
		if len(back) > 0 && back[len(back)-1] != start {
			t.Fatalf("%v then %v from %v ends at %v", path, path.Reverse(), start, back[len(back)-1])
		}
	}
}

func TestPathPattern(t *testing.T) {
	// TURN P30 MOVE 1.5 TURN P30 MOVE 1.5 from heading 0 ends heading 300.
	path := Path{{Turn: -30}, {Move: 150}, {Turn: -30}, {Move: 150}}
	poses := Apply(pose(10, 10, 0), path)
	end := poses[3]
	if end.Heading != 300 {
		t.Errorf("heading %d", end.Heading)
	}
	// 1.5" at 330: (-75, 130); 1.5" at 300: (-130, 75).
	if end.At != (Point{1000 - 75 - 130, 1000 + 130 + 75}) {
		t.Errorf("ends at %v", end.At)
	}
	if path.String() != "TURN P30 MOVE 1.5 TURN P30 MOVE 1.5" || path.Turns() != 2 || path.Distance() != 300 {
		t.Errorf("path %q turns %d distance %d", path, path.Turns(), path.Distance())
	}
}

func mirror(p Pose) Pose { return Pose{Point{-p.At.X, p.At.Y}, Norm(-p.Heading)} }

var mirrorArc = map[Arc]Arc{Bow: Bow, Stern: Stern, Port: Starboard, Starboard: Port}

// TestArcMirror: mirroring a position across the y axis swaps port and starboard exactly.
func TestArcMirror(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		a, b := randPose(r), randPose(r)
		arcs := ship.ArcsOf(a, ship.Corners(b), 200*Inch)
		marcs := ship.ArcsOf(mirror(a), ship.Corners(mirror(b)), 200*Inch)
		var want []Arc
		for _, x := range arcs {
			want = append(want, mirrorArc[x])
		}
		slices.Sort(want)
		slices.Sort(marcs)
		if !slices.Equal(want, marcs) {
			t.Fatalf("%v from %v: %v; mirrored %v", b, a, arcs, marcs)
		}
	}
}

func TestArcs(t *testing.T) {
	me := pose(20, 20, 0) // bow line y=23, stern line y=17, sides x=19 and x=21
	cases := []struct {
		at   Pose
		want []Arc
	}{
		{pose(30, 20, 0), []Arc{Starboard}},
		{pose(10, 20, 90), []Arc{Port}},
		{pose(20, 30, 0), []Arc{Bow}},
		{pose(20, 10, 0), []Arc{Stern}},
		{pose(30, 23, 90), []Arc{Bow, Starboard}}, // straddles the bow line extended
		{pose(30, 30, 0), []Arc{Bow}},
		{pose(24, 27, 0), []Arc{Bow}},            // stern y=24 is beyond the bow line: not in the flank
		{pose(24, 26, 0), []Arc{Bow}},            // stern exactly on the bow line: touching is not in
		{pose(24, 25, 0), []Arc{Bow, Starboard}}, // stern y=22 inside the flank band
	}
	for _, c := range cases {
		got := ship.ArcsOf(me, ship.Corners(c.at), 50*Inch)
		if !slices.Equal(got, c.want) {
			t.Errorf("target at %v: arcs %v, want %v", c.at, got, c.want)
		}
	}
	if got := ship.ArcsOf(me, ship.Corners(pose(80, 20, 0)), 20*Inch); len(got) != 0 {
		t.Errorf("a target 58\" away is within a 20\" reach: %v", got)
	}
}

// TestArcsCoverTable: every small target within reach is in some arc or meets the base.
func TestArcsCoverTable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		me := randPose(r)
		c := me.At.Add(Point{r.Int64N(3000) - 1500, r.Int64N(3000) - 1500})
		target := Polygon{c, c.Add(Point{2, 0}), c.Add(Point{2, 2}), c.Add(Point{0, 2})}
		if len(ship.ArcsOf(me, target, 20*Inch)) == 0 && !Meet(ship.Corners(me), target) {
			t.Fatalf("target %v of %v is in no arc", c, me)
		}
	}
}

func TestDistance(t *testing.T) {
	a := ship.Corners(pose(10, 10, 0)) // x 9..11
	cases := []struct {
		b    Pose
		want Len
	}{
		{pose(16, 10, 0), 400},  // side to side: 15 - 11
		{pose(10, 20, 0), 400},  // bow to stern: 17 - 13
		{pose(15, 20, 0), 500},  // corner to corner: (3, 4)
		{pose(12, 10, 0), 0},    // touching sides
		{pose(11, 11, 45), 0},   // overlapping
		{pose(14, 10, 90), 0},   // bow to side: x 11..17 touches x=11
		{pose(15, 10, 90), 100}, // bow to side: x 12..18
	}
	for _, c := range cases {
		b := ship.Corners(c.b)
		if got := Distance(a, b); got != c.want {
			t.Errorf("distance to %v = %d, want %d", c.b, got, c.want)
		}
	}
	// Rounded up: corner (1,1) from a corner is sqrt(2) hundredths, reported 2.
	if got := Distance(Polygon{{0, 0}}, Polygon{{1, 1}}); got != 2 {
		t.Errorf("sqrt(2) rounds up to %d", got)
	}
}

func rot90(p Pose) Pose { return Pose{Point{p.At.Y, -p.At.X}, Norm(p.Heading + 90)} }

// TestRangeSymmetry: range is symmetric and unchanged by mirroring, a quarter turn of the
// whole table and a translation.
func TestRangeSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	other := Base{Length: 4 * Inch, Beam: 150}
	for range 5000 {
		a, b := randPose(r), randPose(r)
		d := Distance(ship.Corners(a), other.Corners(b))
		if e := Distance(other.Corners(b), ship.Corners(a)); e != d {
			t.Fatalf("range %v->%v %d, back %d", a, b, d, e)
		}
		if e := Distance(ship.Corners(mirror(a)), other.Corners(mirror(b))); e != d {
			t.Fatalf("mirrored range %d, was %d", e, d)
		}
		if e := Distance(ship.Corners(rot90(a)), other.Corners(rot90(b))); e != d {
			t.Fatalf("rotated range %d, was %d", e, d)
		}
		shift := Point{r.Int64N(1000), r.Int64N(1000)}
		a2, b2 := Pose{a.At.Add(shift), a.Heading}, Pose{b.At.Add(shift), b.Heading}
		if e := Distance(ship.Corners(a2), other.Corners(b2)); e != d {
			t.Fatalf("shifted range %d, was %d", e, d)
		}
	}
}

func TestFollowStopsAtContact(t *testing.T) {
	enemy := ship.Corners(pose(20, 20, 90))
	for h := 0; h < 360; h += 15 {
		start := pose(20, 20, h).Forward(-10 * Inch) // 10" short of the enemy's centre
		poses, blk := ship.Follow(start, Path{{Move: 12 * Inch}}, []Polygon{enemy})
		if blk == nil || blk.Obstacle != 0 {
			t.Fatalf("heading %d: not stopped (%v)", h, poses)
		}
		end := ship.Corners(poses[len(poses)-1])
		if Overlap(end, enemy) || !Contact(end, enemy) {
			t.Errorf("heading %d: stopped at distance %d, overlapping %v", h, Distance(end, enemy), Overlap(end, enemy))
		}
	}
	// A clear path is followed to its end.
	poses, blk := ship.Follow(pose(0, 0, 0), Path{{Turn: 30}, {Move: 300}, {Turn: -30}}, []Polygon{enemy})
	if blk != nil || len(poses) != 3 || poses[2].Heading != 0 {
		t.Errorf("clear path: %v %v", poses, blk)
	}
	// A turn into an obstacle is not made.
	beside := ship.Corners(pose(12, 10, 0))
	poses, blk = ship.Follow(pose(10, 10, 0), Path{{Turn: 30}}, []Polygon{beside})
	if blk == nil || len(poses) != 0 {
		t.Errorf("turn into a touching base made: %v", poses)
	}
}

func TestClear(t *testing.T) {
	between := ship.Corners(pose(20, 10, 0)) // x 19..21, y 7..13
	if Clear(Point{1000, 1000}, Point{3000, 1000}, []Polygon{between}) {
		t.Error("line through a base is clear")
	}
	if !Clear(Point{1000, 1300}, Point{3000, 1300}, []Polygon{between}) {
		t.Error("line along a base's bow edge is blocked")
	}
	if !Clear(Point{1000, 1400}, Point{3000, 1400}, []Polygon{between}) {
		t.Error("line past a base is blocked")
	}
}

func TestBeamToBeam(t *testing.T) {
	a := pose(10, 10, 0)
	for _, c := range []struct {
		b    Pose
		want bool
	}{
		{pose(12, 10, 0), true},
		{pose(8, 11, 180), true},
		{pose(12, 15, 0), true},  // overlapping 1" along
		{pose(12, 16, 0), false}, // corner to corner
		{pose(13, 10, 0), false}, // 1" apart
		{pose(12, 10, 10), false},
		{pose(10, 16, 0), false}, // bow to stern
	} {
		if got := BeamToBeam(ship, a, ship, c.b); got != c.want {
			t.Errorf("beam to beam with %v: %v", c.b, got)
		}
	}
	// Rotated 30 degrees: still beam to beam after rounding.
	b := pose(10, 10, 30)
	side := Pose{b.At.Add(Offset(120, 2*Inch)), 30}
	if !BeamToBeam(ship, b, ship, side) {
		t.Errorf("rotated beam to beam: distance %d", Distance(ship.Edge(b, Starboard), ship.Edge(side, Port)))
	}
}

func TestPointsOfSailing(t *testing.T) {
	ps := Points{NoGo: 60, Beat: 90}
	for _, c := range []struct {
		h, from Deg
		want    PointOfSailing
	}{{0, 0, IntoWind}, {59, 0, IntoWind}, {301, 0, IntoWind}, {60, 0, Beating}, {300, 0, Beating}, {89, 0, Beating}, {90, 0, Running}, {180, 0, Running}, {45, 270, Running}, {200, 270, Beating}} {
		if got := ps.Of(c.h, c.from); got != c.want {
			t.Errorf("heading %d wind from %d: %v, want %v", c.h, c.from, got, c.want)
		}
	}
	if OffWind(10, 350) != 20 || Downwind(270) != 90 {
		t.Error("OffWind / Downwind")
	}
	// Drifting downwind from a west wind moves east.
	if p := pose(10, 10, 0).Drift(Downwind(270), 600); p.At != (Point{1600, 1000}) || p.Heading != 0 {
		t.Errorf("drift %v", p)
	}
}

func TestTableEdges(t *testing.T) {
	tb := Table{Width: 72 * Inch, Height: 48 * Inch}
	if !tb.Inside(ship.Corners(pose(10, 10, 0))) || tb.Inside(ship.Corners(pose(1, 10, 45))) {
		t.Error("Inside")
	}
	if got := tb.Over(ship.Corners(Pose{Point{7150, 4700}, 0})); !slices.Equal(got, []Side{North, East}) {
		t.Errorf("Over: %v", got)
	}
	if tb.Off(ship.Corners(pose(71, 10, 0))) || !tb.Off(ship.Corners(pose(75, 10, 90))) || !tb.Off(ship.Corners(pose(76, 10, 0))) {
		t.Error("Off")
	}
	if tb.ToEdge(Point{100, 200}, South) != 200 || tb.ToEdge(Point{100, 200}, East) != 7100 {
		t.Error("ToEdge")
	}
}

func TestHull(t *testing.T) {
	h := Hull([]Point{{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 0}, {0, 0}})
	if len(h) != 4 {
		t.Errorf("hull %v", h)
	}
	if h := Hull([]Point{{1, 1}, {1, 1}}); len(h) != 1 {
		t.Errorf("hull of one point %v", h)
	}
	if h := Hull([]Point{{0, 0}, {1, 1}, {2, 2}}); len(h) != 2 {
		t.Errorf("hull of a line %v", h)
	}
}

func TestSlide(t *testing.T) {
	wall := ship.Corners(pose(20, 10, 0)) // x 19..21
	got, j := ship.Slide(pose(10, 10, 0), 90, 20*Inch, []Polygon{wall})
	if j != 0 || got.Heading != 0 || got.At != (Point{1800, 1000}) { // x 17..19 touches the wall
		t.Errorf("slide east into a base: %v %d", got, j)
	}
	got, j = ship.Slide(pose(10, 10, 0), 270, 5*Inch, []Polygon{wall})
	if j != -1 || got.At != (Point{500, 1000}) {
		t.Errorf("slide west: %v %d", got, j)
	}
}

// TestWheel: the pivot corner stays put and a wheel back returns exactly.
func TestWheel(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		p, k, d := randPose(r), r.IntN(4), r.IntN(181)-90
		q := ship.Wheel(p, k, d)
		if ship.Corners(q)[k] != ship.Corners(p)[k] || q.Heading != Norm(p.Heading+d) {
			t.Fatalf("wheel %d about corner %d of %v moved the pivot: %v -> %v", d, k, p, ship.Corners(p)[k], ship.Corners(q)[k])
		}
		if back := ship.Wheel(q, k, -d); back != p {
			t.Fatalf("wheel %d and back about corner %d of %v ends at %v", d, k, p, back)
		}
	}
	// A quarter wheel to starboard about the bow-starboard corner of a north-facing base.
	q := ship.Wheel(pose(10, 10, 0), BowStarboard, 90)
	if q != (Pose{Point{800, 1400}, 90}) { // pivot (11, 13) less the new offset (3, -1)
		t.Errorf("quarter wheel: %v", q)
	}
}

func TestDirectlyBehind(t *testing.T) {
	me := pose(20, 20, 0) // stern line y=17, sides x=19 and x=21
	cases := []struct {
		at   Pose
		want bool
	}{
		{pose(20, 10, 0), true},  // her bow at 13, 4" behind the stern line at 17
		{pose(20, 8, 0), true},   // bow at 11: 6" exactly
		{pose(20, 7, 0), false},  // bow at 10: 7"
		{pose(23, 10, 0), false}, // x 22..24, beside the band
		{pose(21, 10, 0), true},  // x 20..22, straddles the starboard side extended
		{pose(20, 30, 0), false}, // ahead
	}
	for _, c := range cases {
		if got := ship.DirectlyBehind(me, ship.Corners(c.at), 6*Inch); got != c.want {
			t.Errorf("%v directly behind %v: %v, want %v", c.at, me, got, c.want)
		}
	}
	if !Overlap(ship.Directly(me, true, 6*Inch), ship.Corners(pose(20, 30, 90))) {
		t.Error("a base ahead is not in the band ahead")
	}
}
