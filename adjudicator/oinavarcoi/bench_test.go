package oinavarcoi

import (
	"crypto/sha256"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
)

// BenchmarkMovement is one side's movement step at Knidos with the bot's orders (parse,
// validate, resolve with derived dice, hash the state), beside the bare primitive the step
// uses most: the distance between two squadrons' footprints.
func BenchmarkMovement(b *testing.B) {
	g := newScenario(b, "knidos")
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove1, "persia"
	text := g.BotOrders("persia")
	start := g.Encode()
	b.Run("step", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			h := newScenario(b, "knidos")
			h.Deployed, h.Turn, h.Phase, h.First = true, 1, phaseMove1, "persia"
			b.StartTimer()
			orders, errs := h.Parse("persia", text)
			if len(errs) > 0 || len(h.Validate("persia", orders)) > 0 {
				b.Fatalf("orders refused: %v", errs)
			}
			if _, err := h.Resolve(map[string][]adjudicator.Order{"persia": orders}, dice.NewActivation(1, 2, ident.Hash{byte(i)})); err != nil {
				b.Fatal(err)
			}
			_ = sha256.Sum256(h.Encode())
		}
	})
	b.Run("primitive-distance", func(b *testing.B) {
		p, q := g.corners(g.Squadrons[0]), g.corners(g.Squadrons[5])
		var d table.Len
		for i := 0; i < b.N; i++ {
			d += table.Distance(p, q)
		}
		_ = d
	})
	if string(g.Encode()) != string(start) {
		b.Fatal("the benchmark changed its template game")
	}
}
