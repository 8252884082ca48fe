package templates

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// idRE is the ids wrapIDs wraps, as a regexp.
var idRE = regexp.MustCompile(`[A-Z0-9]+(?:-[A-Z0-9]+)+`)

// TestWrapIDsAsRegexp: wrapIDs wraps exactly what idRE.ReplaceAllString would, on the ids
// of real mails and on random texts of capitals, digits, hyphens and others.
func TestWrapIDsAsRegexp(t *testing.T) {
	texts := []string{"", "BAR-LANT moves", "SIR-EGY1, 2026-12-01T18:00", "A-", "-A", "A--B", "A-B-", "a-B", "AB-cd-EF-GH", "x A-B-C-D y", "é-E-1"}
	rnd := rand.New(rand.NewPCG(7, 11))
	const alphabet = "AZ09-a -x.é"
	for range 5000 {
		var b strings.Builder
		for range rnd.IntN(24) {
			b.WriteByte(alphabet[rnd.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		var b strings.Builder
		wrapIDs(&b, s)
		if want := idRE.ReplaceAllString(s, `<span style="white-space: nowrap">$0</span>`); b.String() != want {
			t.Fatalf("%q: wrapIDs gives %q, the regexp %q", s, b.String(), want)
		}
	}
}
