package render

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"slices"
)

// quantize maps img onto a palette of its 256 most used colours (each channel rounded to 5
// bits first); rarer colours, the anti-aliased edges, take the nearest palette entry. A map
// is flat colours and thin edges, so the eye does not see the difference, and a paletted PNG
// is a third of the size and far quicker to compress.
//
// It reads the pixel buffer directly: a 15-bit key per pixel indexes a count table and then
// a lookup table from key to palette index, so no pixel goes through an interface or a map.
func quantize(img image.Image) *image.Paletted {
	src, ok := img.(*image.RGBA)
	if !ok {
		src = image.NewRGBA(img.Bounds())
		draw.Draw(src, src.Rect, img, img.Bounds().Min, draw.Src)
	}
	b := src.Rect
	w, h := b.Dx(), b.Dy()
	var count [1 << 15]int32
	for y := 0; y < h; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		for i := 0; i < len(row); i += 4 {
			count[key15(row[i], row[i+1], row[i+2])]++
		}
	}
	var used []uint16
	for k, n := range count {
		if n > 0 {
			used = append(used, uint16(k))
		}
	}
	slices.SortFunc(used, func(a, b uint16) int { // most used first; ties in a fixed order
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	pal := make(color.Palette, 0, 256)
	var index [1 << 15]uint8
	for _, k := range used[:min(256, len(used))] {
		index[k] = uint8(len(pal))
		pal = append(pal, keyColor(k))
	}
	for _, k := range used[min(256, len(used)):] {
		index[k] = uint8(pal.Index(keyColor(k)))
	}
	out := image.NewPaletted(image.Rect(0, 0, w, h).Add(b.Min), pal)
	for y := 0; y < h; y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := range dst {
			i := 4 * x
			dst[x] = index[key15(row[i], row[i+1], row[i+2])]
		}
	}
	return out
}

// key15 is a colour with each channel rounded down to 5 bits.
func key15(r, g, b uint8) uint16 { return uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3) }

func keyColor(k uint16) color.RGBA {
	return color.RGBA{uint8(k>>10) << 3, uint8(k>>5&31) << 3, uint8(k&31) << 3, 255}
}
