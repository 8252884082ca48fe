package render

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// advanceCache is a face that remembers each rune's advance: measuring a label (to anchor
// it) then costs a map lookup per rune instead of loading the glyph's outline again.
type advanceCache struct {
	font.Face
	adv map[rune]advance
}

type advance struct {
	w  fixed.Int26_6
	ok bool
}

func cached(f font.Face) *advanceCache { return &advanceCache{Face: f, adv: map[rune]advance{}} }

// GlyphAdvance implements font.Face from the cache.
func (c *advanceCache) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if a, ok := c.adv[r]; ok {
		return a.w, a.ok
	}
	w, ok := c.Face.GlyphAdvance(r)
	c.adv[r] = advance{w, ok}
	return w, ok
}

// Text draws s with face in colour col so that the point (x, y) is at the fraction (ax, ay)
// of its box, as gg's DrawStringAnchored does, but straight onto the context's pixels with
// the glyph masks (gg resamples every glyph through a bilinear kernel). The context must have
// no transform, as every context in this package has none.
func Text(dc *gg.Context, face font.Face, col color.Color, s string, x, y, ax, ay float64) {
	w := font.MeasureString(face, s)
	h := float64(face.Metrics().Height) / 64
	x -= ax * float64(w) / 64
	y += ay * h
	d := font.Drawer{Dst: dc.Image().(*image.RGBA), Src: image.NewUniform(col), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// TextWidth is the advance width of s in face, in pixels.
func TextWidth(face font.Face, s string) float64 { return float64(font.MeasureString(face, s)) / 64 }
