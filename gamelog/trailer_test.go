package gamelog_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// TestTextAfterTheTrailerRefused: an export with a second "end-of-log" block and a long line
// of anything put before its real trailer is refused, as the old parser refuses it, however
// many cores cut the file into stretches (found by review: a stretch whose worker stopped at
// the first trailer hid the bytes after it, and the second trailer was taken for the file's).
func TestTextAfterTheTrailerRefused(t *testing.T) {
	g := newGame(t, ledgertest.Script{Seed: "long", Turns: 2, Activations: 30, Rolls: 40, Reveal: -1, End: true}, ledger.View{Full: true})
	i := bytes.LastIndex(g.Data, []byte("\n\nend-of-log "))
	junk := "end-of-log NOT A TRAILER\n" + strings.Repeat("private 0 junk the strict parser never reads ", 30000) + "x\n"
	bad := append(append(append([]byte{}, g.Data[:i+2]...), junk...), g.Data[i+1:]...)
	if _, err := gamelog.OldParseFile(bad); err == nil {
		t.Fatal("the old parser accepts the file: the test is built wrong")
	}
	for _, cores := range []int{1, 2, 3, 8} {
		prev := runtime.GOMAXPROCS(cores)
		f, err := gamelog.ParseFile(bad)
		runtime.GOMAXPROCS(prev)
		if err == nil {
			rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: g.Pub()})
			t.Errorf("%d cores: ParseFile accepts text after the trailer (verify OK %v)", cores, rep.OK())
		}
	}
}

// TestEmptyLineAfterTheTrailerRefused: the file ends with the trailer's LF
// (docs/LOG-FORMAT.md 4); an empty line after it, or any other byte, is refused by both
// parsers, as the browser page refuses it (webverify's case "trailer followed by an empty
// line"), so that a file has one encoding.
func TestEmptyLineAfterTheTrailerRefused(t *testing.T) {
	for _, view := range []ledger.View{{Full: true}, {Side: "venice"}} {
		g := newGame(t, ledgertest.Small, view)
		for _, tail := range []string{"\n", "\n\n", " \n"} {
			bad := append(bytes.Clone(g.Data), tail...)
			if _, err := gamelog.ParseFile(bad); err == nil {
				t.Errorf("view %s: ParseFile accepts %q after the trailer", view.Name(), tail)
			}
			if _, err := gamelog.OldParseFile(bad); err == nil {
				t.Errorf("view %s: the old parser accepts %q after the trailer", view.Name(), tail)
			}
		}
	}
}
