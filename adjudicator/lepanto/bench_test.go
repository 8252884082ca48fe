package lepanto

import (
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// BenchmarkActivation is one group activation: parse and validate the bot's orders for a
// group in contact, resolve them with dice, and hash the new state; in the smallest scenario
// and at full-battle size (13.1, 162 units).
func BenchmarkActivation(b *testing.B) {
	for _, sc := range []string{"lions-at-sea", "battle-of-lepanto"} {
		b.Run(sc, func(b *testing.B) { benchActivation(b, sc) })
	}
}

func scenarioGame(tb testing.TB, scenario string) *Game {
	tb.Helper()
	g, err := Ruleset.New(adjudicator.Config{Scenario: scenario})
	if err != nil {
		tb.Fatal(err)
	}
	return g.(*Game)
}

func benchActivation(b *testing.B, scenario string) {
	g := scenarioGame(b, scenario)
	for _, u := range g.Units { // close the fleets so that the group fires and is fired upon
		if u.Side == "ottoman" {
			u.Hex.Col -= 15
		}
	}
	g.Turn, g.Drawn, g.Cup, g.SetUp = 1, true, []string{ChitBoarding}, true
	g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{"christian"}, "BAR"
	text := g.BotOrders("christian")
	if !strings.Contains(text, "FIRE") {
		b.Fatalf("the benchmark group is not in contact:\n%s", text)
	}
	start := g.Encode()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := scenarioGame(b, scenario)
		copyState(h, g)
		b.StartTimer()
		orders, errs := h.Parse("christian", text)
		if len(errs) > 0 || len(h.Validate("christian", orders)) > 0 {
			b.Fatalf("orders refused: %v", errs)
		}
		if _, err := h.Resolve(map[string][]adjudicator.Order{"christian": orders}, dice.NewActivation(1, 1, ident.Hash{byte(i)})); err != nil {
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
	dst.Turn, dst.Drawn, dst.Cup, dst.SetUp = src.Turn, src.Drawn, append([]string(nil), src.Cup...), src.SetUp
	dst.Wait, dst.WaitSides, dst.WaitGroup = src.Wait, append([]string(nil), src.WaitSides...), src.WaitGroup
}

// BenchmarkEncode encodes the full battle's state (13.1, 162 units, after the first turns)
// and, in the same loop, hashes the encoding with SHA-256 as adjudicator.StateHash does: the
// floor under any encoder whose bytes must be hashed. It reports both and their ratio.
func BenchmarkEncode(b *testing.B) {
	g := scenarioGame(b, "battle-of-lepanto")
	for _, u := range g.Units[:40] { // a state with marks set, as in play
		u.Fired, u.Engaged, u.Return = true, []string{g.Units[41].ID}, 3
	}
	var enc, hash time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		out := g.Encode()
		t1 := time.Now()
		_ = sha256.Sum256(out)
		enc, hash, n = enc+t1.Sub(t0), hash+time.Since(t1), n+1
	}
	b.ReportMetric(float64(enc.Nanoseconds())/float64(n), "encode-ns")
	b.ReportMetric(float64(hash.Nanoseconds())/float64(n), "sha256-ns")
	b.ReportMetric(float64(enc)/float64(hash), "encode/sha256")
	b.ReportMetric(float64(len(g.Encode())), "bytes")
}
