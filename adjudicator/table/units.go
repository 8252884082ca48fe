package table

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Len is a length or coordinate in hundredths of an inch.
type Len = int64

// Inch is one inch in Len.
const Inch Len = 100

// MaxCoord bounds coordinates (about 41,900 inches) and MaxSide bounds a base's sides (about
// 655 inches): inside them every product in this package fits its integer type.
const (
	MaxCoord Len = 1 << 22
	MaxSide  Len = 1 << 16
)

// ErrLength is returned for a length that is not a plain decimal number of inches.
var ErrLength = errors.New("not a length in inches")

// ParseInches reads a decimal number of inches with at most two decimals ("3", "1.5",
// "0.25", ".5"), no sign, at most 99999 inches, and returns it in Len.
func ParseInches(s string) (Len, error) {
	whole, frac, dot := strings.Cut(s, ".")
	if (whole == "" && frac == "") || len(whole) > 5 || len(frac) > 2 || (dot && frac == "") {
		return 0, fmt.Errorf("%w: %q", ErrLength, s)
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q", ErrLength, s)
		}
	}
	var n Len
	if whole != "" {
		w, _ := strconv.ParseInt(whole, 10, 64) // only digits, at most 5: cannot fail
		n = w * Inch
	}
	if frac != "" {
		f, _ := strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
		n += f
	}
	return n, nil
}

// FormatInches writes n as inches with no more decimals than needed: 150 is "1.5", 300 "3",
// -25 "-0.25". ParseInches reads back what FormatInches writes for n >= 0.
func FormatInches(n Len) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	w, f := n/Inch, n%Inch
	switch {
	case f == 0:
		return fmt.Sprintf("%s%d", sign, w)
	case f%10 == 0:
		return fmt.Sprintf("%s%d.%d", sign, w, f/10)
	}
	return fmt.Sprintf("%s%d.%02d", sign, w, f)
}
