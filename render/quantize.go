package render

import (
	"cmp"
	"image"
	"image/color"
	"slices"
)

// quantize maps img onto a palette of its 256 most used colours (each channel rounded to 5
// bits first); rarer colours, the anti-aliased edges, take the nearest palette entry. A map
// is flat colours and thin edges, so the eye does not see the difference, and a paletted PNG
// is a third of the size and far quicker to compress.
func quantize(img image.Image) *image.Paletted {
	b := img.Bounds()
	key := func(x, y int) color.RGBA {
		r, g, bl, _ := img.At(x, y).RGBA()
		return color.RGBA{uint8(r>>8) &^ 7, uint8(g>>8) &^ 7, uint8(bl>>8) &^ 7, 255}
	}
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[key(x, y)]++
		}
	}
	colors := make([]color.RGBA, 0, len(count))
	for c := range count {
		colors = append(colors, c)
	}
	slices.SortFunc(colors, func(a, b color.RGBA) int { // most used first; ties in a fixed order
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B), uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B))
	})
	pal := make(color.Palette, 0, 256)
	index := map[color.RGBA]uint8{}
	for _, c := range colors[:min(256, len(colors))] {
		index[c] = uint8(len(pal))
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := key(x, y)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.Pix[out.PixOffset(x, y)] = i
		}
	}
	return out
}
