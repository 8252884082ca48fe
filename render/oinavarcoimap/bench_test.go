package oinavarcoimap

import (
	"testing"

	"navarch/render"
	"navarch/render/rendertest"
)

// BenchmarkRenderOiNavarcoi draws and encodes Knidos after some play, beside image/png
// encoding the same finished image (rendertest.BenchMap).
func BenchmarkRenderOiNavarcoi(b *testing.B) {
	v := oiPlayed(b, "knidos", 14).View("persia")
	rendertest.BenchMap(b, func() render.Picture { return fromView(v, "bench") })
}
