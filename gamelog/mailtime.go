package gamelog

import (
	"bytes"
	"net/mail"
	"strings"
	"time"
)

// MailTime is when a saved mail reached its reader: the date of its first (topmost)
// Received header, which the reader's own server added last (RFC 5322 3.6.7), or else its
// Date header; zero if it has neither or they do not parse. verify --checkpoint reads it to
// prove that a beacon round was named before it was published (docs/LOG-FORMAT.md 5).
func MailTime(raw []byte) time.Time {
	header := raw
	for _, sep := range [][]byte{[]byte("\r\n\r\n"), []byte("\n\n")} {
		if i := bytes.Index(raw, sep); i >= 0 && i < len(header) {
			header = raw[:i]
		}
	}
	var fields []string
	for _, line := range strings.Split(strings.ReplaceAll(string(header), "\r\n", "\n"), "\n") {
		if (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) && len(fields) > 0 {
			fields[len(fields)-1] += " " + strings.TrimSpace(line)
			continue
		}
		fields = append(fields, line)
	}
	for _, name := range []string{"received", "date"} {
		for _, f := range fields {
			k, v, ok := strings.Cut(f, ":")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), name) {
				continue
			}
			if name == "received" {
				i := strings.LastIndexByte(v, ';')
				if i < 0 {
					break
				}
				v = v[i+1:]
			}
			if t, err := mail.ParseDate(strings.TrimSpace(v)); err == nil {
				return t.UTC()
			}
			break
		}
	}
	return time.Time{}
}
