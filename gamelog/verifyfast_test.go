package gamelog_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestVerifyAsSerial: Verify, which derives the rolls on other goroutines and computes the
// chain of heads on another, gives the report of the serial verifier for a good log and for
// logs whose rolls, records or order were changed: the same first failure, the same counts.
func TestVerifyAsSerial(t *testing.T) {
	sc := ledgertest.Script{Seed: "as-serial", Turns: 3, Activations: 3, Rolls: 6, Reveal: 2, End: true}
	g := newGame(t, sc, ledger.View{Full: true})
	opts := gamelog.VerifyOptions{Key: g.Pub()}
	same := func(what string, data []byte) {
		t.Helper()
		f, err := gamelog.ParseFile(data)
		if err != nil {
			return
		}
		got, want := gamelog.Verify(f, opts), gamelog.VerifySerial(f, opts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Verify gives\n%+v\nthe serial verifier\n%+v", what, got, want)
		}
	}
	same("the log", g.Data)
	b := forge.Blocks(g.Data)
	values := regexp.MustCompile(`(?m)^values (\d+)`)
	var rolls []int
	for i, blk := range b {
		if strings.HasPrefix(blk, "type roll\n") && strings.Contains(blk, "\nturn 1\n") {
			rolls = append(rolls, i)
		}
	}
	if len(rolls) < 10 {
		t.Fatalf("only %d rolls in turn 1", len(rolls))
	}
	rnd := rand.New(rand.NewPCG(1, 4))
	for k := 0; k < 200; k++ {
		c := slices.Clone(b)
		what := ""
		for n := 0; n < 1+rnd.IntN(3); n++ { // change the values of some rolls of a revealed turn
			i := rolls[rnd.IntN(len(rolls))]
			c[i] = values.ReplaceAllString(c[i], fmt.Sprintf("values %d", 1+rnd.IntN(2)))
			what += fmt.Sprintf(" roll %d", i-1)
		}
		if rnd.IntN(2) == 0 { // and a record somewhere
			i := 1 + rnd.IntN(len(c)-2)
			c[i] = strings.Replace(c[i], "\nturn ", "\nturn 1", 1)
			what += fmt.Sprintf(" record %d", i-1)
		}
		same("changed"+what, forge.Rechain(t, tamperKey, c))
	}
}
