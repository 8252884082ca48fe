package gamelog

import (
	"testing"

	"navarch/ident"
)

// TestHeadAt: the chain keeps the heads of the lengths it was told, and gives the head of any
// other length too, each the head NextHead chains.
func TestHeadAt(t *testing.T) {
	entries := make([]Entry, 3000)
	want := make([]ident.Hash, len(entries))
	var head ident.Hash
	for i := range entries {
		entries[i].Index = uint64(i)
		entries[i].Leaf[0], entries[i].Leaf[1] = byte(i), byte(i>>8)
		head = NextHead(uint64(i), head, entries[i].Leaf)
		want[i] = head
	}
	c := startHeads(entries, []int{3000, 7, 0, 1025, 7})
	defer c.finish()
	for _, n := range []int{7, 1, 1025, 2999, 3000, 1024, 8} {
		if got := c.headAt(n); got != want[n-1] {
			t.Errorf("head of %d entries: %x, want %x", n, got, want[n-1])
		}
	}
}
