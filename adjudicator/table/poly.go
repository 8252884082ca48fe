package table

import "math/bits"

// Polygon is a convex polygon, its vertices in order (either sense). A polygon of two points
// is a segment and of one point a point; the tests below hold for those too.
type Polygon []Point

// cross returns the z component of a×b.
func cross(a, b Point) int64 { return a.X*b.Y - a.Y*b.X }

func dot(a, b Point) int64 { return a.X*b.X + a.Y*b.Y }

// project returns the least and greatest of p·n over the vertices.
func (pg Polygon) project(n Point) (lo, hi int64) {
	lo, hi = dot(pg[0], n), dot(pg[0], n)
	for _, p := range pg[1:] {
		v := dot(p, n)
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// separated reports whether an axis normal to an edge of a or b separates them; strict
// separation allows touching (the polygons share no interior), otherwise touching is not
// separation.
func separated(a, b Polygon, touching bool) bool {
	for _, pg := range []Polygon{a, b} {
		for i := range pg {
			e := pg[(i+1)%len(pg)].Sub(pg[i])
			n := Point{-e.Y, e.X}
			if n == (Point{}) {
				continue
			}
			alo, ahi := a.project(n)
			blo, bhi := b.project(n)
			if ahi < blo || bhi < alo || (touching && (ahi == blo || bhi == alo)) {
				return true
			}
		}
	}
	// Two points (no edges): separated unless equal.
	if len(a) == 1 && len(b) == 1 {
		return a[0] != b[0] || touching
	}
	return false
}

// Overlap reports whether a and b share interior points (a segment crossing a base's
// interior overlaps it; a segment along its edge does not). The polygons must be convex.
func Overlap(a, b Polygon) bool { return !separated(a, b, true) }

// Meet reports whether a and b share any point, touching included.
func Meet(a, b Polygon) bool { return !separated(a, b, false) }

// Distance returns the least distance between a and b in Len, rounded up (0 when they meet):
// Distance(a, b) <= r holds exactly when the true distance is at most r.
func Distance(a, b Polygon) Len {
	if Meet(a, b) {
		return 0
	}
	best := uint64(1<<63 - 1)
	for _, pair := range [2][2]Polygon{{a, b}, {b, a}} {
		for _, p := range pair[0] {
			pg := pair[1]
			for i := range pg {
				best = min(best, segDist2Ceil(p, pg[i], pg[(i+1)%len(pg)]))
			}
		}
	}
	return Len(ceilSqrt(best))
}

// segDist2Ceil returns the squared distance from p to segment ab, rounded up to an integer.
func segDist2Ceil(p, a, b Point) uint64 {
	ab, ap := b.Sub(a), p.Sub(a)
	l2 := dot(ab, ab)
	t := dot(ap, ab)
	switch {
	case l2 == 0 || t <= 0:
		return uint64(dot(ap, ap))
	case t >= l2:
		bp := p.Sub(b)
		return uint64(dot(bp, bp))
	}
	c := cross(ab, ap)
	if c < 0 {
		c = -c
	}
	hi, lo := bits.Mul64(uint64(c), uint64(c)) // c² / l2 < 2^64 inside the bounds
	q, r := bits.Div64(hi, lo, uint64(l2))
	if r > 0 {
		q++
	}
	return q
}

// Hull returns the convex hull of points, counter-clockwise, without collinear points.
func Hull(points []Point) Polygon {
	ps := dedupe(points)
	sortPoints(ps)
	if len(ps) < 3 {
		return Polygon(ps)
	}
	var h []Point
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, p := range ps {
			for len(h) >= start+2 && cross(h[len(h)-1].Sub(h[len(h)-2]), p.Sub(h[len(h)-2])) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, p)
		}
		h = h[:len(h)-1]
		for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
			ps[i], ps[j] = ps[j], ps[i]
		}
	}
	return Polygon(h)
}

func sortPoints(ps []Point) {
	for i := 1; i < len(ps); i++ { // insertion sort: few points, no allocation
		for j := i; j > 0 && (ps[j].X < ps[j-1].X || (ps[j].X == ps[j-1].X && ps[j].Y < ps[j-1].Y)); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// dedupe removes repeated points (all equal gives one point).
func dedupe(ps []Point) []Point {
	var out []Point
	for _, p := range ps {
		seen := false
		for _, q := range out {
			seen = seen || p == q
		}
		if !seen {
			out = append(out, p)
		}
	}
	return out
}
