package lepantomap

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
	"navarch/adjudicator/lepanto"
	"navarch/ident"
	"navarch/render"
)

func fullBattle(b *testing.B) *lepanto.Game {
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	if err != nil {
		b.Fatal(err)
	}
	return g.(*lepanto.Game)
}

// battleUnderWay is the full battle (13.1) played by bots until a group has moved and the game
// waits for orders again: the state in which the host draws the report maps it sends.
func battleUnderWay(b *testing.B) *lepanto.Game {
	g := fullBattle(b)
	for i := 0; i < 400 && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), 9})); err != nil {
			b.Fatal(err)
		}
		if g.Turn >= 2 && g.Next().Kind == adjudicator.NeedOrders && len(g.View("").Trace) > 0 {
			return g
		}
	}
	b.Fatal("the bots never reached a report with moves")
	return nil
}

// benchMap draws and encodes p's map, and in the same run image/png-encodes the same finished
// image (RGBA, default compression): the floor under any renderer that sends PNGs. It reports
// both, their ratio and the size of the render.PNG sent.
func benchMap(b *testing.B, p func() render.Picture) {
	var draw, floor time.Duration
	var size, n int
	var w, h int
	var buf bytes.Buffer
	for b.Loop() {
		t0 := time.Now()
		img := render.Image(p())
		data, err := render.Encode(img)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		buf.Reset()
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		floor += time.Since(t1)
		draw += t1.Sub(t0)
		size, n = len(data), n+1
		w, h = img.Bounds().Dx(), img.Bounds().Dy()
	}
	b.ReportMetric(float64(draw.Milliseconds())/float64(n), "render-ms")
	b.ReportMetric(float64(floor.Milliseconds())/float64(n), "render.Encode-floor-ms")
	b.ReportMetric(float64(draw)/float64(floor), "render/floor")
	b.ReportMetric(float64(size)/1024, "KiB")
	b.ReportMetric(float64(w), "px-wide")
	b.ReportMetric(float64(h), "px-high")
}

// BenchmarkRenderFullBattle is the whole map of the full battle (13.1), as STATUS FULL sends it.
func BenchmarkRenderFullBattle(b *testing.B) {
	v := fullBattle(b).View("christian")
	benchMap(b, func() render.Picture { return NewLepanto(v, "bench", true) })
}

// BenchmarkRenderReport is the map a report of the full battle sends, cropped to what the
// last activation did.
func BenchmarkRenderReport(b *testing.B) {
	v := battleUnderWay(b).View("christian")
	benchMap(b, func() render.Picture { return NewLepanto(v, "bench", false) })
}
