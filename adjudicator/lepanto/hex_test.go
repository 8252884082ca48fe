package lepanto

import "testing"

func TestHexNeighbors(t *testing.T) {
	// Odd column 05 sits higher than even columns 04 and 06.
	h := Hex{5, 10}
	want := map[Dir]Hex{N: {5, 9}, NE: {6, 9}, SE: {6, 10}, S: {5, 11}, SW: {4, 10}, NW: {4, 9}}
	for d, w := range want {
		if got := h.Neighbor(d); got != w {
			t.Errorf("%s.Neighbor(%s) = %s, want %s", h, d, got, w)
		}
	}
	e := Hex{6, 10} // even column, lower
	want = map[Dir]Hex{N: {6, 9}, NE: {7, 10}, SE: {7, 11}, S: {6, 11}, SW: {5, 11}, NW: {5, 10}}
	for d, w := range want {
		if got := e.Neighbor(d); got != w {
			t.Errorf("%s.Neighbor(%s) = %s, want %s", e, d, got, w)
		}
	}
	for d := N; d <= NW; d++ {
		if back := h.Neighbor(d).Neighbor(d.Opposite()); back != h {
			t.Errorf("%s → %s → back gives %s", h, d, back)
		}
		if got, ok := h.DirTo(h.Neighbor(d)); !ok || got != d {
			t.Errorf("DirTo(%s) = %s", d, got)
		}
		if h.Distance(h.Neighbor(d)) != 1 || h.Distance(h.Neighbor(d).Neighbor(d)) != 2 {
			t.Errorf("distance along %s wrong", d)
		}
	}
	if d := (Hex{1, 1}).Distance(Hex{4, 1}); d != 3 {
		t.Errorf("0101-0401 distance %d, want 3", d)
	}
}

func TestParseHexAndDir(t *testing.T) {
	if h, err := ParseHex("1507"); err != nil || h != (Hex{15, 7}) || h.String() != "1507" {
		t.Errorf("ParseHex(1507) = %v, %v", h, err)
	}
	for _, bad := range []string{"", "150", "15070", "ab07", "-107", "+107", "15 7"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) accepted", bad)
		}
	}
	if d, err := ParseDir("ne"); err != nil || d != NE {
		t.Errorf("ParseDir(ne) = %v, %v", d, err)
	}
	if _, err := ParseDir("E"); err == nil {
		t.Error("E is not a hexside of flat-topped hexes")
	}
	if NW.Turn(1) != N || N.Turn(-1) != NW || SE.Opposite() != NW {
		t.Error("turns wrong")
	}
}
