package gamelog

import (
	"math"
	"slices"
)

// DieStats counts the faces rolled by one die type over a log.
type DieStats struct {
	Sides  int
	Counts []int // Counts[v-1] is how often v came up
	Total  int
}

// ChiSquare returns Pearson's statistic against a fair die and its degrees of freedom.
func (d DieStats) ChiSquare() (chi float64, dof int) {
	if d.Total == 0 || d.Sides < 2 {
		return 0, 0
	}
	exp := float64(d.Total) / float64(d.Sides)
	for _, c := range d.Counts {
		diff := float64(c) - exp
		chi += diff * diff / exp
	}
	return chi, d.Sides - 1
}

// Critical999 returns the chi-square value that a fair die exceeds with probability 0.001, by
// the Wilson–Hilferty approximation (about 3% high at dof 1, within 1% from dof 5).
func Critical999(dof int) float64 {
	if dof < 1 {
		return 0
	}
	const z = 3.090232 // standard normal 99.9% quantile
	k := float64(dof)
	x := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * x * x * x
}

type dieStats map[int]*DieStats

func (s dieStats) add(sides int, values []int) {
	if sides > 1000 {
		return // too wide to be worth a histogram
	}
	d := s[sides]
	if d == nil {
		d = &DieStats{Sides: sides, Counts: make([]int, sides)}
		s[sides] = d
	}
	for _, v := range values {
		d.Counts[v-1]++
		d.Total++
	}
}

func (s dieStats) sorted() []DieStats {
	var out []DieStats
	for _, d := range s {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b DieStats) int { return a.Sides - b.Sides })
	return out
}
