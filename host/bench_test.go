package host

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkHandleCheck is one order mail through the host without the transport: read the
// mail, authenticate, rebuild the game from its log, parse and validate the orders, queue the
// receipt, commit (a CHECK, so that the game stays where it is for the next iteration).
func BenchmarkHandleCheck(b *testing.B) {
	f := newBenchFixture(b)
	key := f.keys["alice@example.org"]
	i := 0
	for b.Loop() {
		i++
		raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <b%d@example.org>\r\n\r\nCHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN\r\n", f.tag, i, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			b.Fatal(err)
		}
	}
}

type benchFixture struct {
	*fixture
	keys map[string]string
}

func newBenchFixture(b *testing.B) benchFixture {
	f := newFixtureTB(b)
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] != "ref@example.net" {
			keys[m.To[0]] = k[1]
		}
	}
	for who, k := range keys {
		f.send(who, "JOIN\nKEY "+k)
	}
	if len(keys) != 2 || !strings.HasPrefix(f.tag, "lep-") {
		b.Fatalf("fixture: %v", keys)
	}
	return benchFixture{f, keys}
}
