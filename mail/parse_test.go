package mail

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func parseFile(t *testing.T, name string) (*Incoming, error) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return Parse(raw, Options{Own: func(id string) bool { return strings.HasSuffix(id, "@navarch.host.example") },
		Self: func(a string) bool { return strings.HasPrefix(a, "navarch") && strings.HasSuffix(a, "@host.example") }})
}

// TestMailsWithOrders: every way a player's orders arrive reads as the same clean lines.
func TestMailsWithOrders(t *testing.T) {
	cases := []struct {
		file, want string
		html       bool
	}{
		{"plain.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610 0510\nBAR-VEN2 FIRE SIR-EGY1   # at last\nEND", false},
		{"reply-top.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610", false},
		{"reply-bottom.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610", false},
		{"html-only.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610\nBAR-VEN2 FIRE SIR-EGY1\n<thanks>", true},
		{"latin1-qp.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610\n# café à côté", false},
		{"base64-utf8.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610 # ☃", false},
		{"alternative.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610", false},
		{"unknown-charset.eml", "KEY k7q2-vv9d\nBAR-VEN1 MOVE 0610", false},
	}
	for _, c := range cases {
		in, err := parseFile(t, c.file)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if in.Text != c.want || in.FromHTML != c.html || in.NoReply != "" {
			t.Errorf("%s: text %q (html %t, no-reply %q), want %q", c.file, in.Text, in.FromHTML, in.NoReply, c.want)
		}
		if in.From != "alice@example.org" || in.MessageID == "" {
			t.Errorf("%s: from %q, message-id %q", c.file, in.From, in.MessageID)
		}
	}
	in, _ := parseFile(t, "reply-top.eml")
	if len(in.InReplyTo) != 1 || in.InReplyTo[0] != "req-41@navarch.host.example" || len(in.References) != 2 {
		t.Errorf("threading: %v %v", in.InReplyTo, in.References)
	}
}

// TestMailsNotToAnswer: auto-replies, bounces, lists and our own mail are recognised, so that
// navarch never answers them (RFC 3834).
func TestMailsNotToAnswer(t *testing.T) {
	for file, want := range map[string]string{
		"auto-reply.eml": "auto-submitted", "vacation.eml": "automatic reply", "bounce.eml": "bounce",
		"list.eml": "mailing list", "own.eml": "our own mail", "no-from.eml": "no From",
		"own-address.eml": "our own address", // a foreign Message-ID, no Auto-Submitted
	} {
		in, err := parseFile(t, file)
		if in == nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if !strings.Contains(in.NoReply, want) {
			t.Errorf("%s: no-reply %q, want %q", file, in.NoReply, want)
		}
	}
}

func TestBadMail(t *testing.T) {
	if _, err := parseFile(t, "attachment-only.eml"); !errors.Is(err, ErrNoText) {
		t.Errorf("attachment only: %v, want ErrNoText", err)
	}
	if _, err := parseFile(t, "no-boundary.eml"); err == nil {
		t.Error("multipart without a boundary was read")
	}
	big := append([]byte("From: A@b.example\r\nSubject: x\r\nMessage-ID: <big@b.example>\r\n\r\n"), make([]byte, DefaultMaxSize)...)
	if in, err := Parse(big, Options{}); !errors.Is(err, ErrTooBig) || in == nil || in.From != "a@b.example" || in.MessageID != "big@b.example" || in.NoReply != "" {
		t.Errorf("huge mail: %+v, %v; want its header read and ErrTooBig", in, err)
	}
	bigAuto := append([]byte("From: a@b.example\r\nAuto-Submitted: auto-replied\r\n\r\n"), make([]byte, DefaultMaxSize)...)
	if in, err := Parse(bigAuto, Options{}); !errors.Is(err, ErrTooBig) || in == nil || in.NoReply == "" {
		t.Errorf("huge auto-reply: %+v, %v; want it marked not to be answered", in, err)
	}
	for _, raw := range []string{"", "\x00\x01\x02", "From: <<<\r\n\r\n", "Content-Type: multipart/mixed; boundary=\"x\"\r\n\r\n--x\r\n"} {
		if _, err := Parse([]byte(raw), Options{}); err == nil {
			t.Errorf("%q parsed without error", raw)
		}
	}
}

func TestReadReplyBasics(t *testing.T) {
	for in, want := range map[string]string{
		"a\r\nb\r\n":                                         "a\nb",
		"orders\n-- \nsig\nmore":                             "orders",
		"> quoted\norders\n>> deeper":                        "orders",
		"x\nAm Mo., 30. Nov. schrieb Bob:\n> q":              "x",
		"bad \xff byte":                                      "bad \uFFFD byte",
		"x\n________________________________\nFrom: navarch": "x",
	} {
		if got := ReadReply(in, "", ""); got != want {
			t.Errorf("ReadReply(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParse: no mail panics the reader (Parse, then ReadRequest), and what it returns is
// clean UTF-8 text. The seeds are testdata's mails and the reply corpus.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/*.eml", "testdata/replies/*.eml"} {
		files, _ := filepath.Glob(glob)
		for _, name := range files {
			raw, _ := os.ReadFile(name)
			f.Add(raw)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := Parse(raw, Options{MaxSize: 1 << 16})
		if err == nil {
			if strings.Contains(in.Text, "\r") || !utf8.ValidString(in.Text) {
				t.Fatalf("unclean text %q", in.Text)
			}
			ReadRequest(in.Subject, in.Text)
		}
	})
}

// FuzzReadReply: the reply reader never panics and never makes up text: every line it
// returns is a line of its input (as normalize gives it, a PGP dash-escape undone).
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{"A PASS\n\nOn Mon, navarch <n@h.example>\nwrote:\n> B", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: x\n\n- -- \nA\n",
		"A\nVon: x\nAn: y\nB", "JOIN\nThanks,\nAlice", "\ufeffKEY\u00a0k\n"} {
		f.Add(s, "Alice Marino")
	}
	f.Fuzz(func(t *testing.T, body, name string) {
		got := ReadReply(body, name, "alice@example.org")
		if strings.Contains(got, "\r") || !utf8.ValidString(got) {
			t.Fatalf("unclean text %q", got)
		}
		in := normalize(body)
		for _, line := range strings.Split(got, "\n") {
			if !strings.Contains(in, line) {
				t.Fatalf("line %q is not in the input %q", line, body)
			}
		}
		ReadRequest("", got)
	})
}

// FuzzHTMLText: no HTML panics the HTML reader or makes it write more text than the
// document holds (each tag is at most a line break, an entity at most two characters).
func FuzzHTMLText(f *testing.F) {
	for _, s := range []string{`<div>A</div><blockquote type="cite">B<blockquote>C</blockquote></blockquote>`, `<div id="divRplyFwdMsg">x</div>`,
		`<pre>a  b</pre><table><tr><td>x</td></tr></table>`, strings.Repeat("<div>", 600) + "x", `<div style="border-top:1px">From: x</div>`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := HTMLText(s); len(got) > 2*len(s)+1 {
			t.Fatalf("HTMLText(%q) = %q", s, got)
		}
	})
}
