package mail

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Clean turns a mail body into the lines navarch reads: LF line ends, valid UTF-8, and
// nothing from where a quoted reply or a signature starts ("-- ", "On … wrote:", "Am …
// schrieb:", "Le … a écrit :", Outlook's separators, "From:"/"Sent:" headers); lines quoted
// with ">" are dropped wherever they are. Orders may be written above or below a quote.
func Clean(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\uFFFD")
	var out []string
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if line == "-- " || line == "--" || quoteIntro(t) {
			if len(out) > 0 { // a quote or signature after the orders ends them
				break
			}
			continue
		}
		if strings.HasPrefix(t, ">") {
			continue
		}
		out = append(out, strings.TrimRight(line, " \t"))
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

var introRE = regexp.MustCompile(`^((On|Am|Le|El|Il) .+(wrote|schrieb|a écrit|escribió|ha scritto)[^:]*:|-----\s*Original Message\s*-----|_{20,}|From: .+|Sent: .+)$`)

func quoteIntro(t string) bool { return introRE.MatchString(t) }

var (
	dropRE  = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)\s*>`)
	breakRE = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|li|tr|h[1-6]|pre|blockquote)\s*>`)
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
	quoteRE = regexp.MustCompile(`(?is)<blockquote\b.*?</blockquote\s*>`)
)

// HTMLToText converts an HTML-only mail to text good enough for orders: scripts, styles and
// quoted blocks go, line-breaking tags become new lines, other tags vanish, entities are
// decoded.
func HTMLToText(s string) string {
	s = dropRE.ReplaceAllString(s, "")
	s = quoteRE.ReplaceAllString(s, "\n")
	s = breakRE.ReplaceAllString(s, "\n")
	s = tagRE.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ReplaceAll(s, "\u00a0", " ")
}
