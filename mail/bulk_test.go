package mail

import (
	"strings"
	"testing"
)

// TestBulkIsNotNoReply: X-Auto-Response-Suppress and Precedence bulk, junk or list ask
// others not to answer automatically; a person's client sends them on ordinary mail, so
// they set Bulk (the host drops such mail only when it does not authenticate), never NoReply.
func TestBulkIsNotNoReply(t *testing.T) {
	for header, want := range map[string]string{
		"X-Auto-Response-Suppress: All":     "X-Auto-Response-Suppress: All",
		"X-Auto-Response-Suppress: DR, OOF": "X-Auto-Response-Suppress: DR, OOF",
		"Precedence: bulk":                  "Precedence: bulk",
		"Precedence: List":                  "Precedence: list",
		"Precedence: junk":                  "Precedence: junk",
		"Precedence: first-class":           "",
	} {
		raw := "From: alice@example.org\r\nSubject: [navarch lep-7f3a]\r\nMessage-ID: <b@example.org>\r\n" + header + "\r\n\r\nKEY k\r\nNONE\r\n"
		in, err := Parse([]byte(raw), Options{})
		if err != nil {
			t.Fatalf("%s: %v", header, err)
		}
		if in.NoReply != "" || in.Bulk != want {
			t.Errorf("%s: NoReply %q, Bulk %q; want no NoReply and Bulk %q", header, in.NoReply, in.Bulk, want)
		}
		if !strings.Contains(in.Text, "NONE") {
			t.Errorf("%s: text %q", header, in.Text)
		}
	}
}
