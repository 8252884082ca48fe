package mail

import (
	"strings"
	"unicode"
)

// normalize gives text the form every reader of this package expects: LF line ends, valid
// UTF-8, no byte-order mark or zero-width character, and every other Unicode space (NBSP,
// tab, thin and ideographic spaces) a plain space. Other control characters stay, for the
// host to show visibly.
func normalize(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(spaceRune, s)
}

// spaceRune maps a rune for normalize: -1 drops it.
func spaceRune(r rune) rune {
	switch {
	case r == '\n':
		return r
	case r == '\uFEFF' || r == '\u200B' || r == '\u200C' || r == '\u200D' || r == '\u2060' || r == '\u00AD':
		return -1
	case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
		return ' '
	}
	return r
}

// spaces is normalize for one line.
func spaces(s string) string { return strings.Map(spaceRune, s) }
