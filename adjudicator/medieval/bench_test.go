package medieval

import (
	"crypto/sha256"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// BenchmarkActivation is one Sail/Fight activation of the English Main at Sluys with the
// fleets closed up: the bot's orders parsed and validated, resolved with real dice (moves,
// broadsides, boarding), and the new state hashed; beside the bare primitive, one SHA-256 of
// the encoded state, measured in the same run.
func BenchmarkActivation(b *testing.B) {
	g := newScenario(b, "sluys-1340")
	for _, s := range g.Ships { // close the fleets: the French 30" nearer
		if s.Side == "french" {
			s.Pose.At.X -= 3000
		}
	}
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/SF1"
	text := g.BotOrders("english")
	state := g.Encode()
	b.Run("primitive-sha256-state", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = sha256.Sum256(state)
		}
	})
	b.Run("activation", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			h := newScenario(b, "sluys-1340")
			for j, s := range g.Ships {
				*h.Ships[j] = *s
				h.Ships[j].Grappled = slices.Clone(s.Grappled)
				h.Ships[j].Lashed = slices.Clone(s.Lashed)
			}
			h.Turn, h.Act, h.Card = 1, 1, "E-MAIN/SF1"
			b.StartTimer()
			orders, errs := h.Parse("english", text)
			if len(errs) > 0 || len(h.Validate("english", orders)) > 0 {
				b.Fatalf("orders refused: %v", errs)
			}
			if _, err := h.Resolve(map[string][]adjudicator.Order{"english": orders}, dice.NewActivation(1, 1, ident.Hash{byte(i)})); err != nil {
				b.Fatal(err)
			}
			_ = sha256.Sum256(h.Encode())
		}
	})
}
