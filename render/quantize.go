package render

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"slices"
	"sync"
)

// quantize maps img onto a palette of its 256 most used colours (each channel rounded to 5
// bits first); rarer colours, the anti-aliased edges, take the nearest palette entry. A map
// is flat colours and thin edges, so the eye does not see the difference, and a paletted PNG
// is a third of the size and far quicker to compress.
//
// It reads the pixel buffer directly: a 15-bit key per pixel indexes a count table and then
// a lookup table from key to palette index, so no pixel goes through an interface or a map.
// A run of equal pixels (most of a map: flat colours) is keyed once, in one pass that notes
// the runs of equal keys; the counts are added and the paletted pixels written a run at a
// time from those. The paletted image's pixels come from a pool: give them back with release
// once the image is encoded.
func quantize(img image.Image) *image.Paletted {
	src, ok := img.(*image.RGBA)
	if !ok {
		src = image.NewRGBA(img.Bounds())
		draw.Draw(src, src.Rect, img, img.Bounds().Min, draw.Src)
	}
	b := src.Rect
	w, h := b.Dx(), b.Dy()
	t := tables.Get().(*quantTables)
	defer tables.Put(t)
	count := &t.count
	clear(count[:])
	t.runs = t.runs[:0]
	for y := range h {
		t.runs = appendRuns(t.runs, src.Pix[y*src.Stride:y*src.Stride+4*w])
	}
	for _, r := range t.runs {
		count[r>>runBits] += int32(r & runMax)
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
	index := &t.index
	for _, k := range used[:min(256, len(used))] {
		index[k] = uint8(len(pal))
		pal = append(pal, keyColor(k))
	}
	near := nearestKeys(used[:min(256, len(used))])
	for _, k := range used[min(256, len(used)):] {
		index[k] = near.index(k)
	}
	out := &image.Paletted{Pix: paletted(w * h), Stride: w, Rect: image.Rect(0, 0, w, h).Add(b.Min), Palette: pal}
	fillRuns(out.Pix, w, out.Stride, index, t.runs)
	return out
}

// A run is a stretch of pixels of one row with the same key: the key in the high bits, the
// length in the low runBits (a longer stretch is more runs).
const (
	runBits = 17
	runMax  = 1<<runBits - 1
)

// appendRuns appends the runs of an RGBA row (a pixel is its 4 bytes read little-endian),
// comparing two pixels at a time where the run goes on.
func appendRuns(runs []uint32, row []uint8) []uint32 {
	if len(row) < 4 {
		return runs
	}
	prev := binary.LittleEndian.Uint32(row)
	k, n := uint32(pxKey(prev)), uint32(0)
	pair := uint64(prev) | uint64(prev)<<32
	for i := 0; i+4 <= len(row); {
		if i+8 <= len(row) && binary.LittleEndian.Uint64(row[i:]) == pair && n+2 <= runMax {
			n += 2
			i += 8
			continue
		}
		px := binary.LittleEndian.Uint32(row[i:])
		if px != prev {
			if pk := uint32(pxKey(px)); pk != k || n == runMax {
				runs = append(runs, k<<runBits|n)
				k, n = pk, 0
			}
			prev, pair = px, uint64(px)|uint64(px)<<32
		} else if n == runMax {
			runs = append(runs, k<<runBits|n)
			n = 0
		}
		n++
		i += 4
	}
	return append(runs, k<<runBits|n)
}

// fillRuns writes the palette index of each run into pix, rows of w pixels stride apart:
// the runs of every row in order, as appendRuns made them.
func fillRuns(pix []uint8, w, stride int, index *[1 << 15]uint8, runs []uint32) {
	x, y := 0, 0
	for _, r := range runs {
		n := int(r & runMax)
		seg := pix[y*stride+x : y*stride+x+n]
		v := index[r>>runBits]
		if n < 32 {
			for j := range seg {
				seg[j] = v
			}
		} else { // a long run: the bytes copied in doubling stretches
			seg[0] = v
			for k := 1; k < n; k *= 2 {
				copy(seg[k:], seg[:k])
			}
		}
		if x += n; x == w {
			x, y = 0, y+1
		}
	}
}

// quantTables are quantize's count and lookup tables, kept between maps.
type quantTables struct {
	count [1 << 15]int32
	index [1 << 15]uint8
	runs  []uint32 // the image's runs, row by row (appendRuns)
}

var tables = sync.Pool{New: func() any { return new(quantTables) }}

// pixPool keeps the paletted images' pixels between maps (a report map's are about 1 MB).
var pixPool sync.Pool

func paletted(n int) []uint8 {
	if p, ok := pixPool.Get().(*[]uint8); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]uint8, n)
}

// release gives a quantized image's pixels back to the pool; p must not be used after.
func release(p *image.Paletted) {
	pix := p.Pix[:0]
	pixPool.Put(&pix)
}

// pxKey is an RGBA pixel, read little-endian, as its key15.
func pxKey(px uint32) uint16 { return key15(uint8(px), uint8(px>>8), uint8(px>>16)) }

// key15 is a colour with each channel rounded down to 5 bits.
func key15(r, g, b uint8) uint16 { return uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3) }

func keyColor(k uint16) color.RGBA {
	return color.RGBA{uint8(k>>10) << 3, uint8(k>>5&31) << 3, uint8(k&31) << 3, 255}
}

// keyPalette is a palette of key colours (keyColor) as three 5-bit channels an entry.
type keyPalette [][3]uint8

func nearestKeys(keys []uint16) keyPalette {
	out := make(keyPalette, len(keys))
	for i, k := range keys {
		out[i] = [3]uint8{uint8(k >> 10), uint8(k >> 5 & 31), uint8(k & 31)}
	}
	return out
}

// keyTerm is color.Palette.Index's squared difference of one channel (image/color's
// sqDiff of the 16-bit values) of two key colours whose 5-bit channels differ by d: a key
// channel c is the 16-bit value c<<3 * 0x101.
var keyTerm = func() (t [32]uint32) {
	for d := range t {
		v := uint32(d) << 3 * 0x101
		t[d] = v * v >> 2
	}
	return t
}()

// index is color.Palette.Index of key colour k among the palette's colours: the first entry
// of least squared distance, with the same arithmetic (the alpha channels, all opaque, add
// nothing), read from keyTerm.
func (p keyPalette) index(k uint16) uint8 {
	r, g, b := int(k>>10), int(k>>5&31), int(k&31)
	ret, best := 0, uint32(1<<32-1)
	for i, v := range p {
		sum := keyTerm[absInt(r-int(v[0]))]
		if sum >= best { // the other channels only add to it
			continue
		}
		sum += keyTerm[absInt(g-int(v[1]))] + keyTerm[absInt(b-int(v[2]))]
		if sum < best {
			if sum == 0 {
				return uint8(i)
			}
			ret, best = i, sum
		}
	}
	return uint8(ret)
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
