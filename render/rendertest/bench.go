// Package rendertest holds what the maps' benchmarks share.
package rendertest

import (
	"bytes"
	"image"
	"image/png"
	"testing"
	"time"

	"navarch/render"
)

// BenchMap draws and encodes p's map (render.Image, render.Encode, render.Release: what the
// host sends), and in the same run image/png-encodes the very paletted image sent (the PNG
// sent, decoded, not timed; default compression): the floor under any renderer that sends
// that picture. It reports both, their ratio, and the size and dimensions of the PNG sent.
func BenchMap(b *testing.B, p func() render.Picture) {
	b.Helper()
	var draw, floor time.Duration
	var size, n, w, h int
	var buf bytes.Buffer
	for b.Loop() {
		t0 := time.Now()
		img := render.Image(p())
		data, err := render.Encode(img)
		if err != nil {
			b.Fatal(err)
		}
		draw += time.Since(t0)
		sent, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := sent.(*image.Paletted); !ok {
			b.Fatalf("the map sent is a %T, not a paletted image", sent)
		}
		t1 := time.Now()
		buf.Reset()
		if err := png.Encode(&buf, sent); err != nil {
			b.Fatal(err)
		}
		floor += time.Since(t1)
		size, n = len(data), n+1
		w, h = img.Bounds().Dx(), img.Bounds().Dy()
		render.Release(img) // as the host does once a map is encoded
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(n) }
	b.ReportMetric(ms(draw), "render-ms")
	b.ReportMetric(ms(floor), "png.Encode-paletted-floor-ms")
	b.ReportMetric(float64(draw)/float64(floor), "render/floor")
	b.ReportMetric(float64(size)/1024, "KiB")
	b.ReportMetric(float64(w), "px-wide")
	b.ReportMetric(float64(h), "px-high")
}
