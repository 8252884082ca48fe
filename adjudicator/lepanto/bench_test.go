package lepanto

import (
	"crypto/sha256"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
)

// BenchmarkActivation is one group activation of the largest scenario there is so far
// (13.2): parse and validate the bot's orders for a group in contact, resolve them with
// dice, and hash the new state.
func BenchmarkActivation(b *testing.B) {
	g := newGame(b)
	for _, u := range g.Units { // close the fleets so that the group fires and is fired upon
		if u.Side == "ottoman" {
			u.Hex.Col -= 15
		}
	}
	g.Turn, g.Drawn, g.Cup = 1, true, []string{ChitBoarding}
	g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{"christian"}, "BAR"
	text := g.BotOrders("christian")
	if !strings.Contains(text, "FIRE") {
		b.Fatalf("the benchmark group is not in contact:\n%s", text)
	}
	start := g.Encode()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := newGame(b)
		copyState(h, g)
		b.StartTimer()
		orders, errs := h.Parse("christian", text)
		if len(errs) > 0 || len(h.Validate("christian", orders)) > 0 {
			b.Fatalf("orders refused: %v", errs)
		}
		if _, err := h.Resolve(map[string][]adjudicator.Order{"christian": orders}, dice.NewActivation(1, 1, dice.Hash{byte(i)})); err != nil {
			b.Fatal(err)
		}
		_ = sha256.Sum256(h.Encode())
	}
	if string(g.Encode()) != string(start) {
		b.Fatal("the benchmark changed its template game")
	}
}

// copyState copies positions and sequence state from src into a fresh game of the same scenario.
func copyState(dst, src *Game) {
	for i, u := range src.Units {
		*dst.Units[i] = *u
	}
	dst.Turn, dst.Drawn, dst.Cup = src.Turn, src.Drawn, append([]string(nil), src.Cup...)
	dst.Wait, dst.WaitSides, dst.WaitGroup = src.Wait, append([]string(nil), src.WaitSides...), src.WaitGroup
}
