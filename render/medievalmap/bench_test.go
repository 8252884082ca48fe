package medievalmap

import (
	"testing"

	"navarch/adjudicator/medieval"
	"navarch/render"
	"navarch/render/rendertest"
)

// BenchmarkRenderReport is the map a report of Sluys sends after the bots' first broadside:
// the crop around the last card's moves and shots, with the active Division's range bands.
func BenchmarkRenderReport(b *testing.B) {
	g := playUntil(b, "sluys-1340", 400, hasTrace(medieval.TraceFire))
	rendertest.BenchMap(b, func() render.Picture { return New(g, "bench", "english", false) })
}

// BenchmarkRenderFull is the whole table of the same game, as STATUS FULL sends it.
func BenchmarkRenderFull(b *testing.B) {
	g := playUntil(b, "sluys-1340", 400, hasTrace(medieval.TraceFire))
	rendertest.BenchMap(b, func() render.Picture { return New(g, "bench", "english", true) })
}
