package templates

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"
	_ "time/tzdata" // recipients' zones without the system's zoneinfo (static binary, container)
)

//go:embed mail/*.tmpl
var files embed.FS

// Kinds lists every kind of mail; each has mail/KIND.txt.tmpl and mail/KIND.html.tmpl.
var Kinds = []string{"welcome", "refwelcome", "request", "receipt", "errors", "report", "reminder", "late", "nmr",
	"announcement", "turnend", "gameend", "history", "notice"}

// Mail is what every mail's template sees: who it is for and where the game stands. Body is
// the kind's own data.
type Mail struct {
	Game     string // the game's tag, e.g. "lep-7f3a"
	Title    string // scenario title
	Player   string // the recipient's player id, or "" for a referee
	Stranger bool   // the recipient is in no game we know (greeted neither as player nor referee)
	Side     string
	Zone     string // the recipient's IANA time zone
	Turn     int
	Act      int
	Over     bool // the game is over: Turn and Act are its last step
	Deadline time.Time
	LogSize  uint64
	LogHead  string // hex
	// Checkpoint is the signed checkpoint block of the log as it stands (LogSize records):
	// every mail that names a log head carries it (LOG-FORMAT 5).
	Checkpoint string
	Body       any
	// Note, if set, is said after the greeting, before the kind's own text: what the
	// recipient must know of how his mail was taken (the request it answered is closed).
	Note string
	// ReplyTokens: a reply to this mail carries the recipient's key in its address, so it
	// needs no KEY line.
	ReplyTokens bool
	// Part: the mail is rendered inside another one (a report's request): no greeting, no
	// info block, no page head.
	Part bool
}

// Parts are a mail's text and HTML bodies.
type Parts struct{ Text, HTML string }

var funcs = map[string]any{
	"when":  when,
	"lines": func(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") },
	"join":  strings.Join,
	"wrap":  wrap,
	"part":  part,
	"help":  helpEntries,
	"steps": steps,
}

// part is m with another body, to be rendered inside m's own mail.
func part(m Mail, body any) Mail {
	m.Body, m.Part = body, true
	return m
}

// wrapAt is the width of plain-text mail (RFC 3676 suggests under 78).
const wrapAt = 76

// wrap breaks the lines of s longer than wrapAt at spaces. Indented lines (examples, tables)
// and words longer than a line are left whole.
func wrap(s string) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if len(line) <= wrapAt || strings.HasPrefix(line, " ") {
			b.WriteString(line)
			continue
		}
		n := 0
		for j, w := range strings.Fields(line) {
			if j > 0 && n+1+len(w) > wrapAt {
				b.WriteByte('\n')
				n = 0
			} else if j > 0 {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += len(w)
		}
	}
	return b.String()
}

// when shows a time in UTC and in the recipient's zone: "Tue 1 Dec 2026 18:00 UTC (19:00 CET
// in Europe/Rome)". Daylight saving is the zone's own (time.LoadLocation).
func when(t time.Time, zone string) string {
	if t.IsZero() {
		return "no deadline"
	}
	u := t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" || zone == "UTC" {
		return u
	}
	return fmt.Sprintf("%s (%s in %s)", u, t.In(loc).Format("Mon 15:04 MST"), zone)
}

var (
	textT = texttemplate.Must(texttemplate.New("").Funcs(funcs).Option("missingkey=error").ParseFS(files, "mail/*.txt.tmpl"))
	htmlT = htmltemplate.Must(htmltemplate.New("").Funcs(funcs).Option("missingkey=error").ParseFS(files, "mail/*.html.tmpl"))
)

// Render writes the mail of a kind.
func Render(kind string, m Mail) (Parts, error) {
	var t, h bytes.Buffer
	if err := textT.ExecuteTemplate(&t, kind+".txt.tmpl", m); err != nil {
		return Parts{}, fmt.Errorf("mail %s: %w", kind, err)
	}
	if err := htmlT.ExecuteTemplate(&h, kind+".html.tmpl", m); err != nil {
		return Parts{}, fmt.Errorf("mail %s (html): %w", kind, err)
	}
	return Parts{Text: t.String(), HTML: keepWhole(h.String())}, nil
}

// wrapIDs writes text to b with each id in a span that does not wrap: a unit's, group's or
// leader's id, or a date, capitals and digits joined by hyphens ("BAR-LANT", "SIR-EGY1",
// "2026-12-01T18"), where a browser would otherwise break a line after a hyphen. It finds
// them as the regexp [A-Z0-9]+(?:-[A-Z0-9]+)+ does, leftmost first (TestWrapIDsAsRegexp),
// in one scan, where the regexp cost a tenth of a Lepanto mail's write lock.
func wrapIDs(b *strings.Builder, text string) {
	last := 0
	for i := 0; i < len(text); {
		if !isIDByte(text[i]) {
			i++
			continue
		}
		j := idRun(text, i)
		end := j
		for end+1 < len(text) && text[end] == '-' && isIDByte(text[end+1]) {
			end = idRun(text, end+1)
		}
		if end == j { // no hyphen and another part after the run: no id starts in it
			i = j
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(`<span style="white-space: nowrap">`)
		b.WriteString(text[i:end])
		b.WriteString(`</span>`)
		last, i = end, end
	}
	b.WriteString(text[last:])
}

// idRun returns the end of the run of id bytes at text[i:].
func idRun(text string, i int) int {
	for i < len(text) && isIDByte(text[i]) {
		i++
	}
	return i
}

func isIDByte(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

// keepWhole keeps every id in the text of an HTML page on one line (a span that does not
// wrap): a player reads and copies "BAR-LANT", never "BAR-" and "LANT" on two lines. Only
// text between tags is touched, and not a style's or title's; the templates escape every
// "<" of text, so each "<" opens a tag.
func keepWhole(page string) string {
	var b strings.Builder
	for len(page) > 0 {
		lt := strings.IndexByte(page, '<')
		if lt < 0 {
			lt = len(page)
		}
		wrapIDs(&b, page[:lt])
		page = page[lt:]
		gt := strings.IndexByte(page, '>')
		if gt < 0 {
			gt = len(page) - 1
		}
		tag := page[:gt+1]
		b.WriteString(tag)
		page = page[gt+1:]
		for _, raw := range []string{"style", "title"} { // text that is not shown as such
			if strings.HasPrefix(tag, "<"+raw) {
				end := strings.Index(page, "</"+raw)
				if end < 0 {
					end = len(page)
				}
				b.WriteString(page[:end])
				page = page[end:]
			}
		}
	}
	return b.String()
}
