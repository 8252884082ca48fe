package gamelog

import (
	"testing"
	"time"
)

// TestMailTime: the topmost Received header's date (folded, as servers write it), else
// Date, else nothing; in CRLF and LF mail alike.
func TestMailTime(t *testing.T) {
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	for _, c := range []struct {
		mail string
		want time.Time
	}{
		{"Received: from mx.example.org by imap.example.org;\r\n\tTue, 1 Dec 2026 12:00:05 +0100\r\nReceived: from navarch by mx.example.org; Tue, 1 Dec 2026 10:59:00 +0000\r\nDate: Tue, 1 Dec 2026 10:58:00 +0000\r\n\r\nbody\r\n", at("2026-12-01T11:00:05Z")},
		{"Subject: x\nDate: Tue, 01 Dec 2026 10:58:00 +0000\n\nReceived: not a header; Tue, 1 Dec 2026 12:00:05 +0000\n", at("2026-12-01T10:58:00Z")},
		{"Received: from a by b (no date)\nDate: Tue, 1 Dec 2026 10:58:00 GMT\n\n", at("2026-12-01T10:58:00Z")},
		{"Subject: no dates\n\nDate: Tue, 1 Dec 2026 10:58:00 GMT\n", time.Time{}},
		{"Date: yesterday\n\n", time.Time{}},
		{"", time.Time{}},
	} {
		if got := MailTime([]byte(c.mail)); !got.Equal(c.want) {
			t.Errorf("MailTime(%.40q) = %v, want %v", c.mail, got, c.want)
		}
	}
}

func FuzzMailTime(f *testing.F) {
	f.Add([]byte("Received: a; Tue, 1 Dec 2026 12:00:05 +0100\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) { MailTime(b) })
}
