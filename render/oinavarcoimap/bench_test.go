package oinavarcoimap

import (
	"bytes"
	"image/png"
	"navarch/render"
	"testing"
)

// BenchmarkRenderOiNavarcoi draws and encodes Knidos after some play, beside image/png
// encoding the same finished image alone (the floor under any renderer that sends PNGs).
func BenchmarkRenderOiNavarcoi(b *testing.B) {
	v := oiPlayed(b, "knidos", 14).View("persia")
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			if _, err := render.PNG(NewOiNavarcoi(v, "bench")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("render.Encode-floor", func(b *testing.B) {
		img := render.Image(NewOiNavarcoi(v, "bench"))
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := png.Encode(&buf, img); err != nil {
				b.Fatal(err)
			}
		}
	})
}
