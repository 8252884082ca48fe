package table

import "math/bits"

// Deg is an angle in whole degrees. Headings are normalised to 0..359 (Norm).
type Deg = int

// Scale is the fixed-point scale of Sin and Cos: Sin(90) == Scale.
const Scale int64 = 1_000_000

// sinTable is round(sin(d°)·Scale) for d = 0..90, computed once and written here as
// constants; TestSineTable checks it with integer identities.
var sinTable = [91]int64{
	0, 17452, 34899, 52336, 69756, 87156, 104528, 121869, 139173, 156434,
	173648, 190809, 207912, 224951, 241922, 258819, 275637, 292372, 309017, 325568,
	342020, 358368, 374607, 390731, 406737, 422618, 438371, 453990, 469472, 484810,
	500000, 515038, 529919, 544639, 559193, 573576, 587785, 601815, 615661, 629320,
	642788, 656059, 669131, 681998, 694658, 707107, 719340, 731354, 743145, 754710,
	766044, 777146, 788011, 798636, 809017, 819152, 829038, 838671, 848048, 857167,
	866025, 874620, 882948, 891007, 898794, 906308, 913545, 920505, 927184, 933580,
	939693, 945519, 951057, 956305, 961262, 965926, 970296, 974370, 978148, 981627,
	984808, 987688, 990268, 992546, 994522, 996195, 997564, 998630, 999391, 999848,
	1000000,
}

// Norm returns d reduced to 0..359.
func Norm(d Deg) Deg {
	d %= 360
	if d < 0 {
		d += 360
	}
	return d
}

// Sin returns sin(d°)·Scale, rounded; Sin(-d) == -Sin(d) and Sin(180-d) == Sin(d) exactly.
func Sin(d Deg) int64 {
	d = Norm(d)
	switch {
	case d <= 90:
		return sinTable[d]
	case d <= 180:
		return sinTable[180-d]
	case d <= 270:
		return -sinTable[d-180]
	}
	return -sinTable[360-d]
}

// Cos returns cos(d°)·Scale, defined as Sin(d+90).
func Cos(d Deg) int64 { return Sin(d + 90) }

// Diff returns the signed turn from heading a to heading b, in -179..180 (clockwise positive).
func Diff(a, b Deg) Deg {
	d := Norm(b - a)
	if d > 180 {
		d -= 360
	}
	return d
}

// divRound returns n/d rounded half away from zero (d > 0), so divRound(-n, d) == -divRound(n, d).
func divRound(n, d int64) int64 {
	if n < 0 {
		return -((-n + d/2) / d)
	}
	return (n + d/2) / d
}

// isqrt returns floor(sqrt(n)).
func isqrt(n uint64) uint64 {
	if n < 2 {
		return n
	}
	r := uint64(1) << ((bits.Len64(n) + 1) / 2) // r >= sqrt(n)
	for {
		s := (r + n/r) / 2
		if s >= r {
			return r
		}
		r = s
	}
}

// ceilSqrt returns ceil(sqrt(n)).
func ceilSqrt(n uint64) uint64 {
	r := isqrt(n)
	if r*r < n {
		r++
	}
	return r
}

// ISqrt returns floor(sqrt(n)) for n >= 0 (0 for negative n).
func ISqrt(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return int64(isqrt(uint64(n)))
}
