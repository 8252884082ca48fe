package dice

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
)

func TestActivationRefusesRepeatedLabel(t *testing.T) {
	a := NewActivation(1, 2, testKey("act"))
	if _, err := a.Roll("x", 6, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Roll("x", 6, 1); !errors.Is(err, ErrBadRequest) {
		t.Errorf("second roll with label x: %v, want ErrBadRequest", err)
	}
	if _, err := a.Roll("y", 0, 1); err == nil {
		t.Error("d0 accepted")
	}
	if _, err := a.Roll("y", 6, 1); err != nil {
		t.Errorf("label y refused after a bad request under it: %v", err)
	}
	if got := len(a.Rolls()); got != 2 {
		t.Errorf("%d rolls kept, want 2", got)
	}
	for i, r := range a.Rolls() {
		if r.Seq != i {
			t.Errorf("roll %d has seq %d", i, r.Seq)
		}
	}
}

func TestSpecialDice(t *testing.T) {
	a := NewActivation(1, 1, testKey("special"))
	avg, r, err := Average(a, "avg")
	if err != nil || avg != averageFaces[r.Values[0]-1] || r.As != AsAverage || r.Sides != 6 {
		t.Errorf("Average = %d, %+v, %v", avg, r, err)
	}
	d, r, err := D10Zero(a, "d10")
	if err != nil || d != r.Values[0]%10 || r.Sides != 10 {
		t.Errorf("D10Zero = %d, %+v, %v", d, r, err)
	}
	cup := []string{"A", "B", "C", "D"}
	i, r, err := Draw(a, "draw", cup)
	if err != nil || i != r.Values[0]-1 || !slices.Equal(r.Items, cup) {
		t.Errorf("Draw = %d, %+v, %v", i, r, err)
	}
	shown, _ := r.Shown()
	if shown[0] != cup[i] {
		t.Errorf("draw shows %v, drew %s", shown, cup[i])
	}
	if _, _, err := Draw(a, "empty", nil); err == nil {
		t.Error("draw from an empty cup accepted")
	}
	deck := []string{"a", "b", "c", "d", "e", "f", "g"}
	got, err := Shuffle(a, "deck", deck)
	if err != nil {
		t.Fatal(err)
	}
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	if !slices.Equal(sorted, deck) {
		t.Errorf("Shuffle gave %v, not a permutation of %v", got, deck)
	}
}

func TestMapValue(t *testing.T) {
	good := []struct {
		as    string
		sides int
		items []string
		v     int
		want  string
	}{
		{"", 6, nil, 4, "4"}, {AsAverage, 6, nil, 1, "2"}, {AsAverage, 6, nil, 6, "5"}, {AsAverage, 6, nil, 3, "3"},
		{AsD10Zero, 10, nil, 10, "0"}, {AsD10Zero, 10, nil, 7, "7"}, {AsDraw, 2, []string{"x", "y"}, 2, "y"},
	}
	for _, c := range good {
		if got, err := MapValue(c.as, c.sides, c.items, c.v); err != nil || got != c.want {
			t.Errorf("MapValue(%q, %d, %v, %d) = %q, %v, want %q", c.as, c.sides, c.items, c.v, got, err, c.want)
		}
	}
	bad := []struct {
		as    string
		sides int
		items []string
		v     int
	}{{"", 6, nil, 7}, {"", 6, nil, 0}, {AsAverage, 8, nil, 1}, {AsD10Zero, 6, nil, 1}, {AsDraw, 3, []string{"x"}, 1}, {"loaded", 6, nil, 1}}
	for _, c := range bad {
		if got, err := MapValue(c.as, c.sides, c.items, c.v); err == nil {
			t.Errorf("MapValue(%q, %d, %v, %d) = %q, want an error", c.as, c.sides, c.items, c.v, got)
		}
	}
}

// chiSquare999 is the 99.9% quantile of chi-square for small dof (standard tables).
var chiSquare999 = map[int]float64{3: 16.266, 5: 20.515, 6: 22.458, 9: 27.877}

// TestUnbiased rolls 10^6 of each die through the real derivation (10^4 labels of 100
// values each, as an activation would ask) and checks Pearson's chi-square against the 99.9%
// bound. Seeds are fixed, so the test is deterministic; it fails for a biased mapping.
func TestUnbiased(t *testing.T) {
	type die struct {
		name  string
		sides int
		faces func(v int) int // face index 0..k-1
		probs []float64
	}
	uniform := func(n int) []float64 {
		p := make([]float64, n)
		for i := range p {
			p[i] = 1 / float64(n)
		}
		return p
	}
	dice := []die{
		{"d6", 6, func(v int) int { return v - 1 }, uniform(6)},
		{"d10", 10, func(v int) int { return v - 1 }, uniform(10)},
		{"d7", 7, func(v int) int { return v - 1 }, uniform(7)},
		{"average", 6, func(v int) int { return averageFaces[v-1] - 2 }, []float64{1.0 / 6, 2.0 / 6, 2.0 / 6, 1.0 / 6}},
	}
	const n = 1_000_000
	for _, d := range dice {
		t.Run(d.name, func(t *testing.T) {
			counts := make([]int, len(d.probs))
			key := testKey("unbiased/" + d.name)
			for l := 0; l < n/100; l++ {
				vals, err := Derive(key, "roll/"+strconv.Itoa(l), d.sides, 100)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vals {
					counts[d.faces(v)]++
				}
			}
			chi := 0.0
			for i, c := range counts {
				e := d.probs[i] * n
				chi += (float64(c) - e) * (float64(c) - e) / e
			}
			bound := chiSquare999[len(counts)-1]
			t.Logf("%s: counts %v, chi² = %.2f (bound %.2f)", d.name, counts, chi, bound)
			if chi > bound || math.IsNaN(chi) {
				t.Errorf("%s: chi² = %.2f exceeds the 99.9%% bound %.2f: counts %v", d.name, chi, bound, counts)
			}
		})
	}
}

func TestReplay(t *testing.T) {
	live := NewActivation(1, 1, testKey("replay"))
	live.Roll("a", 6, 2)
	live.Roll("b", 10, 1)
	var logged []Roll
	for _, r := range live.Rolls() {
		logged = append(logged, *r)
	}
	rp := NewReplay(logged)
	a, err := rp.Roll("a", 6, 2)
	if err != nil || !slices.Equal(a.Values, logged[0].Values) {
		t.Fatalf("replay of a: %v, %v", a, err)
	}
	if err := rp.Done(); !errors.Is(err, ErrReplay) {
		t.Errorf("Done with b unasked: %v", err)
	}
	if _, err := rp.Roll("b", 6, 1); !errors.Is(err, ErrReplay) {
		t.Errorf("b asked as a d6: %v", err)
	}
	if _, err := rp.Roll("b", 10, 1); err != nil {
		t.Errorf("b: %v", err)
	}
	if _, err := rp.Roll("c", 6, 1); !errors.Is(err, ErrReplay) {
		t.Errorf("a roll beyond the log: %v", err)
	}
	if err := rp.Done(); err != nil {
		t.Errorf("Done: %v", err)
	}
}
