package mail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplies reads every reply of the corpus (testdata/replies, described in its README) with
// Parse and ReadRequest and requires exactly the request its .want file names: the game, the
// key, the command and every order line, no more.
func TestReplies(t *testing.T) {
	files, err := filepath.Glob("testdata/replies/*.eml")
	if err != nil || len(files) < 150 {
		t.Fatalf("%d replies in the corpus (%v), want at least 150", len(files), err)
	}
	exact := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".eml")
		ok := t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(file, ".eml") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got, w := readReply(raw), wantOf(string(want)); got != w {
				t.Errorf("read\n%s\nwant\n%s", got, w)
			}
		})
		if ok {
			exact++
		}
	}
	t.Logf("%d of %d replies read exactly", exact, len(files))
}

// readReply is a reply as the corpus's .want files write it: one "word value" line for each
// part of the request found, and "error" with the refusal.
func readReply(raw []byte) string {
	in, err := Parse(raw, Options{})
	if err != nil {
		return "error " + err.Error()
	}
	r, err := ReadRequest(in.Subject, in.Text)
	var b strings.Builder
	for _, f := range [][2]string{{"game", r.Game}, {"key", r.Key}, {"entropy", r.Entropy}, {"command", r.Command}, {"args", strings.Join(r.Args, " ")}} {
		if f[1] != "" && (f[0] != "command" || f[1] != CmdOrders) {
			b.WriteString(f[0] + " " + f[1] + "\n")
		}
	}
	for _, o := range r.Orders {
		b.WriteString("order " + o.Text + "\n")
	}
	if err != nil {
		b.WriteString("error\n")
	}
	return b.String()
}

// wantOf is a .want file without its comments; an "error" line needs only be there (its
// words document the refusal).
func wantOf(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "error"):
			b.WriteString("error\n")
		default:
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
