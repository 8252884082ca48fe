package lepanto

import (
	"regexp"
	"strings"

	"navarch/adjudicator"
)

// resultCode finds an Artillery Fire, Ramming Hit (5.5.1, 6.3) or damage table (9.6) result
// where the engine's texts put one: after a die ("d6 4: 1MF"), a ramming speed ("speed 3:
// NE"), a fire value's notes ("(range 1): NE") or a damage table's name ("minor-damage: NE").
var resultCode = regexp.MustCompile(`(d6 \d+|speed \d+|\)|-damage): (NE|[12]MF|[12]M|[12]F|[12]|MF|M|F)\b`)

// Words rewrites the result codes in a report line into words: "NE" becomes "no effect",
// "1MF" becomes "1 hit, Mast Down, fire aboard" (5.5.1).
func (g *Game) Words(text string) string {
	return resultCode.ReplaceAllStringFunc(text, func(m string) string {
		sub := resultCode.FindStringSubmatch(m)
		return sub[1] + ": " + codeWords(sub[2])
	})
}

func codeWords(code string) string {
	if code == "NE" {
		return "no effect"
	}
	var parts []string
	for _, c := range code {
		switch c {
		case '1':
			parts = append(parts, "1 hit")
		case '2':
			parts = append(parts, "2 hits")
		case 'M':
			parts = append(parts, "Mast Down")
		case 'F':
			parts = append(parts, "fire aboard")
		}
	}
	return strings.Join(parts, ", ")
}

var _ adjudicator.Worder = (*Game)(nil)
