package render

import (
	"encoding/binary"
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
