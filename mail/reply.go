package mail

import "strings"

// ReadReply returns the new text of a mail body, as its sender wrote it: without the
// quoted history his client added, above or below his text, marked with ">" or not
// (attribution lines, Outlook's header blocks, original and forwarded-message separators),
// without signatures and the sign-off block under his text, and for a PGP clear-signed body
// the signed text alone. name and address are the sender's (From), whose name alone on a
// last line is taken as his signature. The text has LF line ends, valid UTF-8 and plain
// spaces only (normalize). Quoted text never reaches the result: where the end of an
// unmarked quote cannot be told, everything after its start is dropped.
func ReadReply(body, name, address string) string {
	lines := strings.Split(normalize(clearSigned(normalize(body))), "\n")
	var segs [][]string // runs of new text, split where something was dropped
	var cur []string
	cut := func() {
		if len(cur) > 0 {
			segs = append(segs, cur)
			cur = nil
		}
	}
	inSig, inBlock := false, ""
scan:
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " ")
		t := strings.TrimSpace(line)
		if block, ok := navarchBlock(t, inBlock); ok {
			cut()
			inBlock = block
			continue
		}
		switch {
		case strings.HasPrefix(t, ">"):
			cut()
			inSig = false // a quote ends a signature: text after it is new (bottom-posted)
			continue
		case len(t) > maxStructural:
			if !inSig {
				cur = append(cur, line)
			}
			continue
		case t == "":
			if !inSig && len(cur) > 0 && cur[len(cur)-1] != "" {
				cur = append(cur, "") // one blank line for any run of them
			}
			continue
		case separator(t) || headerBlockAt(lines, i):
			break scan // an unmarked quote: the rest is the original message
		}
		if n, strong, hinted := attributionAt(lines, i); n > 0 {
			next := nextText(lines, i+n)
			switch {
			case (next == "" || strings.HasPrefix(next, ">")) && (strong || hinted):
				cut()
				i += n - 1
				continue
			case strong && hinted && indented(lines[i+n:]) > 0:
				cut() // an attribution over an indented quote (s-nail's tab): text after it is new
				i += n + indented(lines[i+n:]) - 1
				continue
			case strong && hinted:
				break scan // an attribution over an unmarked quote
			}
		}
		if inSig {
			continue
		}
		if signatureStart(line) {
			cut()
			inSig = true
			continue
		}
		cur = append(cur, line)
	}
	cut()
	var out []string
	for k, s := range segs {
		if k == 0 {
			s = trimGreeting(trimBlank(s), len(segs) > 1)
		}
		s = trimSignOff(trimBlank(s), name, address)
		if len(s) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, s...)
	}
	return strings.Join(out, "\n")
}

// navarchBlock reads the armour of navarch's own blocks, which a player's text never holds
// (templates: the INFO and CHECKPOINT blocks of every mail, the ORDERS block of a receipt):
// it reports whether line t belongs to a block, given the block open before it (in), and
// the block open after it. Only the lines of an ORDERS block are the player's: pasted back,
// they are read as orders, without its armour.
func navarchBlock(t, in string) (string, bool) {
	if in != "" {
		if t == "-----END NAVARCH "+in+"-----" {
			return "", true
		}
		return in, true
	}
	switch t {
	case "-----BEGIN NAVARCH INFO-----":
		return "INFO", true
	case "-----BEGIN NAVARCH CHECKPOINT-----":
		return "CHECKPOINT", true
	case "-----BEGIN NAVARCH ORDERS-----", "-----END NAVARCH ORDERS-----":
		return "", true
	}
	return "", false
}

// maxStructural is the longest line (in bytes) that may be an attribution, a separator, a
// header or a signature: a longer one is text, and costs no pattern matching.
const maxStructural = 1024

// indented is how many lines from the start of lines form a quote marked by indenting
// (s-nail and mailx quote with a tab, some webmailers with spaces): blank lines and lines
// starting with a space, the first of them not blank; 0 if lines do not start so.
func indented(lines []string) int {
	n, text := 0, false
	for _, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, " "):
			text = true
		default:
			if !text {
				return 0
			}
			return n
		}
		n++
	}
	if !text {
		return 0
	}
	return n
}

// nextText is the first line from lines[i] that is not blank, trimmed, or "".
func nextText(lines []string, i int) string {
	for ; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t
		}
	}
	return ""
}

func trimBlank(s []string) []string {
	for len(s) > 0 && strings.TrimSpace(s[0]) == "" {
		s = s[1:]
	}
	for len(s) > 0 && strings.TrimSpace(s[len(s)-1]) == "" {
		s = s[:len(s)-1]
	}
	return s
}

// trimGreeting drops from the start of the mail's text a salutation ("Hi navarch,") and a
// line introducing the orders ("Here are my orders:"), neither of which can be an order,
// when text follows them (more: in later runs of new text). A mail of a greeting alone is
// left as it is, to be answered naming it.
func trimGreeting(s []string, more bool) []string {
	if (len(s) > 1 || more) && len(s) > 0 && greeting(s[0]) {
		s = trimBlank(s[1:])
	}
	if len(s) > 1 && intro(s[0]) {
		s = trimBlank(s[1:])
	}
	return s
}

// trimSignOff drops from the end of a run of new text the sign-off block ("Thanks, / Alice",
// "Viele Grüße") and the sender's name on a line of its own. Only lines that cannot be
// orders go: a sign-off is at most its closing line and three name-like lines.
func trimSignOff(s []string, name, address string) []string {
	for k := len(s) - 1; k >= 0 && k >= len(s)-4; k-- {
		t := strings.TrimSpace(s[k])
		if t == "" {
			continue
		}
		if signOff(t) {
			rest := true
			for _, l := range s[k+1:] {
				rest = rest && (strings.TrimSpace(l) == "" || nameLike(l))
			}
			if rest {
				return trimBlank(s[:k])
			}
		}
		if !nameLike(t) {
			break
		}
	}
	if n := len(s); n > 0 && (senderName(s[n-1], name, address) || dashName(s[n-1])) {
		return trimBlank(s[:n-1])
	}
	return s
}
