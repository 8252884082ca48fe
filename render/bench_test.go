package render_test

import (
	"bytes"
	"image/png"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
	"navarch/render/lepantomap"
)

func fullBattle(b *testing.B) *lepanto.Game {
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	if err != nil {
		b.Fatal(err)
	}
	return g.(*lepanto.Game)
}

// BenchmarkRenderFullBattle draws and encodes the whole map of the full battle (13.1).
func BenchmarkRenderFullBattle(b *testing.B) {
	v := fullBattle(b).View("christian")
	for b.Loop() {
		if _, err := render.PNG(lepantomap.NewLepanto(v, "bench", true)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeFloor is image/png encoding the same finished image alone: the floor under
// any renderer that sends PNGs.
func BenchmarkEncodeFloor(b *testing.B) {
	img := render.Image(lepantomap.NewLepanto(fullBattle(b).View("christian"), "bench", true))
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
}
