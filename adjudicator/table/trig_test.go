package table

import "testing"

// TestSineTable checks the constant table with integer identities only: exact values at
// 0, 30 and 90 degrees, symmetry, monotony, sin²+cos² = 1 and the addition formula, each
// within the rounding of the table's entries.
func TestSineTable(t *testing.T) {
	for d, want := range map[Deg]int64{0: 0, 30: Scale / 2, 90: Scale, 150: Scale / 2, 180: 0, 210: -Scale / 2, 270: -Scale, -90: -Scale} {
		if got := Sin(d); got != want {
			t.Errorf("Sin(%d) = %d, want %d", d, got, want)
		}
	}
	for d := 1; d <= 90; d++ {
		if Sin(d) <= Sin(d-1) {
			t.Errorf("Sin not increasing at %d", d)
		}
	}
	for d := -720; d <= 720; d++ {
		if Sin(-d) != -Sin(d) || Sin(180-d) != Sin(d) || Cos(d) != Sin(d+90) || Cos(-d) != Cos(d) {
			t.Fatalf("symmetry broken at %d", d)
		}
		if e := Sin(d)*Sin(d) + Cos(d)*Cos(d) - Scale*Scale; e > 3*Scale/2 || e < -3*Scale/2 { // each entry is within 1/2: the sum within √2·Scale
			t.Errorf("sin²+cos² at %d off by %d/Scale²", d, e)
		}
	}
	for a := 0; a < 360; a++ {
		for b := 0; b < 360; b += 7 {
			e := Sin(a+b)*Scale - (Sin(a)*Cos(b) + Cos(a)*Sin(b))
			if e > 2*Scale || e < -2*Scale {
				t.Fatalf("sin(%d+%d) off by %d/Scale²", a, b, e)
			}
		}
	}
}

func TestNormDiff(t *testing.T) {
	for _, c := range []struct{ a, b, diff Deg }{{0, 30, 30}, {30, 0, -30}, {350, 10, 20}, {10, 350, -20}, {0, 180, 180}, {90, 270, 180}, {0, 181, -179}} {
		if got := Diff(c.a, c.b); got != c.diff {
			t.Errorf("Diff(%d, %d) = %d, want %d", c.a, c.b, got, c.diff)
		}
	}
	if Norm(-30) != 330 || Norm(720) != 0 || Norm(-721) != 359 {
		t.Error("Norm")
	}
}

func TestSqrt(t *testing.T) {
	for n := uint64(0); n < 5000; n++ {
		r := isqrt(n)
		if r*r > n || (r+1)*(r+1) <= n {
			t.Fatalf("isqrt(%d) = %d", n, r)
		}
		c := ceilSqrt(n)
		if c*c < n || (c > 0 && (c-1)*(c-1) >= n) {
			t.Fatalf("ceilSqrt(%d) = %d", n, c)
		}
	}
	for _, n := range []uint64{1<<63 - 1, 1<<64 - 1, 1 << 62, 999999999999} {
		r := isqrt(n)
		if r*r > n || (r+1)*(r+1) <= n && r+1 < 1<<32 {
			t.Errorf("isqrt(%d) = %d", n, r)
		}
	}
	if divRound(5, 2) != 3 || divRound(-5, 2) != -3 || divRound(4, 3) != 1 || divRound(-4, 3) != -1 {
		t.Error("divRound does not round half away from zero")
	}
}

func TestParseInches(t *testing.T) {
	for s, want := range map[string]Len{"3": 300, "1.5": 150, "0.25": 25, ".5": 50, "10.05": 1005, "0": 0, "99999.99": 9999999} {
		got, err := ParseInches(s)
		if err != nil || got != want {
			t.Errorf("ParseInches(%q) = %d, %v; want %d", s, got, err, want)
		}
		if back, _ := ParseInches(FormatInches(got)); back != got {
			t.Errorf("FormatInches(%d) = %q reads back as %d", got, FormatInches(got), back)
		}
	}
	for _, s := range []string{"", ".", "1.", "1.234", "-1", "+1", "1,5", "1e3", "100000", "x", "1.5\"", " 1", "١"} {
		if _, err := ParseInches(s); err == nil {
			t.Errorf("ParseInches(%q) accepted", s)
		}
	}
	for n, want := range map[Len]string{150: "1.5", 300: "3", 25: "0.25", 5: "0.05", -25: "-0.25", 0: "0"} {
		if got := FormatInches(n); got != want {
			t.Errorf("FormatInches(%d) = %q, want %q", n, got, want)
		}
	}
}
