package render

import (
	"encoding/binary"
	"image/color"
	"math/rand/v2"
	"testing"
)

// TestRunsKeyEveryPixel: the runs of a row, laid end to end, give every pixel its key: rows of
// flat stretches, stretches of one key in different colours, single pixels, odd and even
// lengths, and stretches longer than a run holds.
func TestRunsKeyEveryPixel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		w := 1 + rnd.IntN(900)
		if trial == 0 {
			w = runMax + 5 // a stretch longer than one run
		}
		row := make([]uint8, 4*w)
		for x := 0; x < w; {
			n := 1 + rnd.IntN(40)
			if trial == 0 {
				n = w
			}
			px := rnd.Uint32()
			for j := 0; j < n && x < w; j, x = j+1, x+1 {
				q := px
				if rnd.IntN(4) == 0 {
					q ^= 0x00030507 // the same key, another colour
				}
				binary.LittleEndian.PutUint32(row[4*x:], q)
			}
		}
		var got []uint16
		for _, r := range appendRuns(nil, row) {
			n := int(r & runMax)
			if n == 0 {
				t.Fatalf("trial %d: an empty run", trial)
			}
			for range n {
				got = append(got, uint16(r>>runBits))
			}
		}
		if len(got) != w {
			t.Fatalf("trial %d: runs of %d pixels for a row of %d", trial, len(got), w)
		}
		for x := range w {
			if want := pxKey(binary.LittleEndian.Uint32(row[4*x:])); got[x] != want {
				t.Fatalf("trial %d: pixel %d keyed %x, want %x", trial, x, got[x], want)
			}
		}
	}
}

// TestKeyPaletteIndexAsImageColor: the nearest palette entry of every key colour is the one
// color.Palette.Index gives, on palettes of key colours large and small, with near ties.
func TestKeyPaletteIndexAsImageColor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for trial := range 6 {
		n := []int{1, 2, 16, 200, 256, 256}[trial]
		var keys []uint16
		seen := map[uint16]bool{}
		for len(keys) < n {
			k := uint16(rnd.IntN(1 << 15))
			if trial == 5 {
				k &= 0x3def // channels even: many keys at equal distances from two entries
			}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		pal := make(color.Palette, len(keys))
		for i, k := range keys {
			pal[i] = keyColor(k)
		}
		near := nearestKeys(keys)
		for k := range uint16(1 << 15) {
			if got, want := near.index(k), pal.Index(keyColor(k)); int(got) != want {
				t.Fatalf("palette of %d: key %x gets entry %d, color.Palette.Index %d", n, k, got, want)
			}
		}
	}
}
