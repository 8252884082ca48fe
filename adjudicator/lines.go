package adjudicator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxLine bounds an order line, in characters, comment included; a longer line is refused
// unread (docs/ORDERS.md).
const MaxLine = 400

// Line is one order line of a player's text, as ReadLines hands it to a ruleset's parser.
type Line struct {
	N     int      // 1-based number of the line in the text as sent
	Text  string   // the line as written, without its line end and surrounding white space
	Words []string // its words in upper case, the "#" comment cut off; never empty
}

// ReadLines cuts order text into its order lines, the one reading every ruleset's Parse
// shares (docs/ORDERS.md): lines end at LF, CRLF or a lone CR; "#" starts a comment to the
// line's end; lines blank once the comment is cut are skipped; words are separated by any
// white space and read in any case; a line holding only the word END ends the orders, and
// nothing after it is read. Line numbers count every line of the text, blank or not, so that
// an error names the line the player sees.
//
// A line of more than MaxLine characters is answered with an error and not read, and so is an
// END line with other words on it (END stands alone, so that "END OF ORDERS" is not taken
// for an order, nor orders after it silently dropped). Errors wrap ErrNotUnderstood.
func ReadLines(text string) ([]Line, []LineError) {
	var lines []Line
	var errs []LineError
	for i, raw := range splitLines(text) {
		words, _, _ := strings.Cut(raw, "#")
		f := strings.Fields(strings.ToUpper(words))
		if len(f) == 0 {
			continue
		}
		n, shown := i+1, strings.TrimSpace(raw)
		switch {
		case utf8.RuneCountInString(raw) > MaxLine:
			errs = append(errs, LineError{Line: n, Text: clip(shown, MaxLine),
				Err: fmt.Errorf("%w: a line of more than %d characters", ErrNotUnderstood, MaxLine)})
		case f[0] == "END" && len(f) == 1:
			return lines, errs
		case f[0] == "END":
			errs = append(errs, LineError{Line: n, Text: shown, Legal: []string{"END"},
				Err: fmt.Errorf("%w: END stands alone on its line, and ends the orders", ErrNotUnderstood)})
		default:
			lines = append(lines, Line{N: n, Text: shown, Words: f})
		}
	}
	return lines, errs
}

// ParseLines reads text with ReadLines and each of its lines with parse: a line parse refuses
// is answered with parse's error, wrapped in ErrNotUnderstood, and legal (the forms the
// player may write). The orders and the errors come in the order of their lines.
func ParseLines(text string, legal []string, parse func(Line) (Order, error)) ([]Order, []LineError) {
	lines, errs := ReadLines(text)
	var orders []Order
	for _, l := range lines {
		o, err := parse(l)
		if err != nil {
			errs = append(errs, LineError{Line: l.N, Text: l.Text, Err: fmt.Errorf("%w: %v", ErrNotUnderstood, err), Legal: legal})
			continue
		}
		orders = append(orders, o)
	}
	slices.SortStableFunc(errs, func(a, b LineError) int { return cmp.Compare(a.Line, b.Line) })
	return orders, errs
}

// splitLines cuts text at LF, CRLF and lone CR.
func splitLines(text string) []string {
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	return strings.Split(text, "\n")
}

// clip is s cut to its first n characters.
func clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
