// Package rendertest holds what the maps' benchmarks share.
package rendertest

import (
	"bytes"
	"image"
	"image/png"
	"runtime"
	"slices"
	"testing"
	"time"

	"navarch/internal/cputime"
	"navarch/render"
)

// BenchMap draws and encodes p's map (render.Image, render.Encode, render.Release: what the
// host sends), and in the same run image/png-encodes the very paletted image sent (the PNG
// sent, decoded, not timed; default compression): the floor under any renderer that sends
// that picture. It reports both, their ratio, and the size and dimensions of the PNG sent;
// and, as the wall time of a loaded machine swings from one iteration to the next, the
// least render and floor of any iteration and their ratio, and the median of the
// iterations' own ratios (render-floor-median). On Linux it also reports the CPU time the
// benchmark's thread spent in each (the goroutine kept on one thread; the collector's own
// workers, on other threads, not counted), which other jobs on the machine disturb far less
// than the wall time.
func BenchMap(b *testing.B, p func() render.Picture) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var draw, floor, cpuDraw, cpuFloor time.Duration
	cpu := func(into *time.Duration, since time.Duration) time.Duration {
		now, _ := cputime.Thread()
		*into += now - since
		return now
	}
	var least [2]time.Duration
	var ratios []float64
	var size, n, w, h int
	var buf bytes.Buffer
	for b.Loop() {
		c0, _ := cputime.Thread()
		t0 := time.Now()
		img := render.Image(p())
		data, err := render.Encode(img)
		if err != nil {
			b.Fatal(err)
		}
		d := time.Since(t0)
		cpu(&cpuDraw, c0)
		draw += d
		sent, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := sent.(*image.Paletted); !ok {
			b.Fatalf("the map sent is a %T, not a paletted image", sent)
		}
		c1, _ := cputime.Thread()
		t1 := time.Now()
		buf.Reset()
		if err := png.Encode(&buf, sent); err != nil {
			b.Fatal(err)
		}
		f := time.Since(t1)
		cpu(&cpuFloor, c1)
		floor += f
		if n == 0 || d < least[0] {
			least[0] = d
		}
		if n == 0 || f < least[1] {
			least[1] = f
		}
		ratios = append(ratios, float64(d)/float64(f))
		size, n = len(data), n+1
		w, h = img.Bounds().Dx(), img.Bounds().Dy()
		render.Release(img) // as the host does once a map is encoded
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(n) }
	b.ReportMetric(ms(draw), "render-ms")
	b.ReportMetric(ms(floor), "png.Encode-paletted-floor-ms")
	b.ReportMetric(float64(draw)/float64(floor), "render/floor")
	b.ReportMetric(float64(least[0])/float64(time.Millisecond), "least-render-ms")
	b.ReportMetric(float64(least[1])/float64(time.Millisecond), "least-floor-ms")
	b.ReportMetric(float64(least[0])/float64(least[1]), "least-render/least-floor")
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "render/floor-median")
	if _, ok := cputime.Thread(); ok && cpuFloor > 0 {
		b.ReportMetric(ms(cpuDraw), "cpu-render-ms")
		b.ReportMetric(ms(cpuFloor), "cpu-floor-ms")
		b.ReportMetric(float64(cpuDraw)/float64(cpuFloor), "cpu-render/cpu-floor")
	}
	b.ReportMetric(float64(size)/1024, "KiB")
	b.ReportMetric(float64(w), "px-wide")
	b.ReportMetric(float64(h), "px-high")
}
