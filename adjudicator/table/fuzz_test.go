package table

import "testing"

// clampTo maps v into -lim..lim.
func clampTo(v, lim int64) int64 {
	m := v % (2*lim + 1)
	if m < 0 {
		m += 2*lim + 1
	}
	return m - lim
}

func fuzzBase(l, w int64) Base {
	return Base{Length: MinSide + (clampTo(l, MaxSide)+MaxSide)%(MaxSide-MinSide+1), Beam: MinSide + (clampTo(w, MaxSide)+MaxSide)%(MaxSide-MinSide+1)}
}

// FuzzGeometry checks the package's invariants on arbitrary positions inside the bounds: a
// path and its reverse, range symmetry and agreement with Meet, arcs covering every target in
// reach, and Follow never ending inside an obstacle it started clear of.
func FuzzGeometry(f *testing.F) {
	f.Add(int64(1000), int64(1000), 0, int64(1500), int64(1200), 90, int64(600), int64(200), int64(400), int64(150), 30, int64(150), int64(2000))
	f.Add(int64(-4000000), int64(4000000), 359, int64(4000000), int64(-4000000), 181, int64(65536), int64(10), int64(10), int64(65536), -30, int64(-99999), int64(1<<22))
	f.Fuzz(func(t *testing.T, ax, ay int64, ah int, bx, by int64, bh int, al, aw, bl, bw int64, turn int, move, reach int64) {
		lim := MaxCoord / 4
		a := Pose{Point{clampTo(ax, lim), clampTo(ay, lim)}, Norm(ah)}
		b := Pose{Point{clampTo(bx, lim), clampTo(by, lim)}, Norm(bh)}
		ba, bb := fuzzBase(al, aw), fuzzBase(bl, bw)
		if a.Valid() != nil || b.Valid() != nil || ba.Valid() != nil || bb.Valid() != nil {
			t.Fatalf("clamped values invalid: %v %v %v %v", a, b, ba, bb)
		}
		reach = (clampTo(reach, lim) + lim) / 2
		pa, pb := ba.Corners(a), bb.Corners(b)

		d := Distance(pa, pb)
		if Distance(pb, pa) != d || (d == 0) != Meet(pa, pb) || (Overlap(pa, pb) && !Meet(pa, pb)) {
			t.Fatalf("distance %d / %d, meet %v, overlap %v", d, Distance(pb, pa), Meet(pa, pb), Overlap(pa, pb))
		}
		if d > 0 && d+3 <= reach && len(ba.ArcsOf(a, pb, reach)) == 0 {
			t.Fatalf("target at %d within reach %d in no arc", d, reach)
		}

		path := Path{{Turn: Deg(clampTo(int64(turn), 180))}, {Move: clampTo(move, 100*Inch)}, {Turn: 15}, {Move: 100}}
		poses := Apply(a, path)
		back := Apply(poses[len(poses)-1], path.Reverse())
		if back[len(back)-1] != a {
			t.Fatalf("%v and back from %v ends at %v", path, a, back[len(back)-1])
		}
		if !Overlap(pa, pb) {
			got, _ := ba.Follow(a, path, []Polygon{pb})
			for _, p := range got {
				if Overlap(ba.Corners(p), pb) {
					t.Fatalf("Follow %v from %v ends inside the obstacle at %v", path, a, p)
				}
			}
		}
	})
}

// FuzzParseInches: no input panics, and what is read formats back to the same length.
func FuzzParseInches(f *testing.F) {
	for _, s := range []string{"3", "1.5", ".25", "1.", "-1", "99999.99", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseInches(s)
		if err != nil {
			return
		}
		if n < 0 || n > 99999*Inch+99 {
			t.Fatalf("%q reads as %d", s, n)
		}
		if back, err := ParseInches(FormatInches(n)); err != nil || back != n {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, n, FormatInches(n), back, err)
		}
	})
}
