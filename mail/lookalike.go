package mail

import (
	"strings"
	"unicode"
)

// lookalikes are the Cyrillic and Greek letters that look like Latin ones, as a player
// with a Russian, Ukrainian, Bulgarian or Greek keyboard may type them into a unit id.
var lookalikes = map[rune]rune{
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y',
	'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'х': 'x', 'у': 'y', 'і': 'i', 'ј': 'j',
	'ѕ': 's', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v',
}

// fullWidth reports whether r is a full-width form of an ASCII character (U+FF01-U+FF5E).
func fullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// foldLookalikes reads full-width forms as the ASCII characters they are, and look-alike
// letters as the Latin ones they look like in every word made only of Latin letters,
// digits, punctuation and look-alikes; it reports whether it changed anything. A word of another script ("Спасибо") is left as it is: navarch's order
// words and unit ids are Latin, so a word that folds to Latin can only have been meant so.
func foldLookalikes(line string) (string, bool) {
	changed := false
	if strings.ContainsFunc(line, fullWidth) { // a Japanese, Chinese or Korean input method's letters
		line = strings.Map(func(r rune) rune {
			if fullWidth(r) {
				return r - 0xFF01 + '!'
			}
			return r
		}, line)
		changed = true
	}
	words := strings.Split(line, " ")
	for i, w := range words {
		if !strings.ContainsFunc(w, func(r rune) bool { _, ok := lookalikes[r]; return ok }) {
			continue
		}
		foldable := !strings.ContainsFunc(w, func(r rune) bool {
			_, ok := lookalikes[r]
			return !ok && r > unicode.MaxASCII
		})
		if !foldable {
			continue
		}
		words[i] = strings.Map(func(r rune) rune {
			if l, ok := lookalikes[r]; ok {
				return l
			}
			return r
		}, w)
		changed = true
	}
	return strings.Join(words, " "), changed
}
