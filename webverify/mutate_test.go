package webverify

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// mutationCases are deterministic random edits of honest logs of every view: a number moved
// by one, a line dropped, doubled or moved, a record dropped, doubled or moved, a sealed
// record's content edited. Most are rebuilt into a consistent chain with re-signed
// checkpoints and trailer, as an operator holding the key would, so that the failure (if
// any) comes from the log's structure, which is where two implementations can differ.

// indexLine is a record's index line.
var indexLine = regexp.MustCompile(`(?m)^index \d+$`)

func mutationCases(t *testing.T, perLog int, more ...game) []logCase {
	full := ledgertest.Small
	full.End = true
	var out []logCase
	for gi, c := range []struct {
		sc   ledgertest.Script
		view ledger.View
	}{
		{full, ledger.View{Full: true}},
		{ledgertest.Small, ledger.View{Full: true}},
		{ledgertest.Small, ledger.View{Side: "venice"}},
		{ledgertest.Small, ledger.View{Side: "ottoman"}},
		{ledgertest.Small, ledger.View{}},
	} {
		g := forge.NewGame(t, c.sc, c.view)
		rng := rand.New(rand.NewPCG(uint64(gi), 16))
		for i := 0; i < perLog; i++ {
			data, what := mutate(t, g, rng)
			out = append(out, logCase{Name: fmt.Sprintf("mutation %s %d: %s", c.view.Name(), i, what), Log: data, Key: pubHex(g)})
		}
	}
	for gi, g := range more {
		rng := rand.New(rand.NewPCG(uint64(50+gi), 16))
		for i := 0; i < perLog; i++ {
			data, what := mutate(t, g, rng)
			out = append(out, logCase{Name: fmt.Sprintf("mutation lepanto %s %d: %s", g.File.View, i, what), Log: data, Key: pubHex(g)})
		}
	}
	// The v1 example log: its key is not ours, so its checkpoints stay as signed and the
	// unsigned v1 trailer is recomputed; an edit fails where it is checked or at the next
	// checkpoint.
	var ex logCase
	for _, c := range exampleCases(t) {
		if bytes.HasPrefix(c.Log, []byte("navarch/v1 ")) && c.Key != "" {
			ex = c
			break
		}
	}
	if ex.Log == nil {
		t.Fatal("no v1 example log")
	}
	f, err := gamelog.ParseFile(ex.Log)
	if err != nil {
		t.Fatal(err)
	}
	v1 := game{Data: ex.Log, File: f}
	rng := rand.New(rand.NewPCG(99, 16))
	for i := 0; i < perLog; i++ {
		data, what := mutate(t, v1, rng)
		out = append(out, logCase{Name: fmt.Sprintf("mutation v1 example %d: %s", i, what), Log: data, Key: ex.Key, Mails: ex.Mails})
	}
	return out
}

var number = regexp.MustCompile(`^([a-z-]+) (\d+)$`)

func mutate(t *testing.T, g game, rng *rand.Rand) ([]byte, string) {
	b := allBlocks(g.Data)
	recs := []int{} // blocks holding a record (or an unseal block)
	for i, blk := range b {
		if strings.HasPrefix(blk, "type ") || strings.HasPrefix(blk, "unseal ") {
			recs = append(recs, i)
		}
	}
	pick := recs[1+rng.IntN(len(recs)-1)]
	lines := strings.Split(b[pick], "\n")
	var what string
	switch k := rng.IntN(10); k {
	case 9: // a byte changed anywhere (the parsers' agreement on bad bytes: CR, NUL, bad UTF-8, …)
		data := []byte(string(g.Data))
		i := rng.IntN(len(data))
		c := []byte{0, '\r', 0xff, 0xc3, ' ', '\n', 'x', '0', '>', '\t'}[rng.IntN(10)]
		data[i] = c
		return data, fmt.Sprintf("byte %d now %#x", i, c)
	case 7, 8: // a value replaced by another value of the same key elsewhere in the log
		j := 2 + rng.IntN(len(lines)-2)
		key, val, _ := strings.Cut(lines[j], " ")
		var others []string
		for _, blk := range b {
			for _, l := range strings.Split(blk, "\n") {
				if k, v, _ := strings.Cut(l, " "); k == key && v != val && !slices.Contains(others, v) {
					others = append(others, v)
				}
			}
		}
		if len(others) == 0 {
			return mutate(t, g, rng)
		}
		o := others[rng.IntN(len(others))]
		lines[j] = strings.TrimSuffix(key+" "+o, " ")
		what = fmt.Sprintf("%q of block %d now %q", key, pick, o)
	case 0, 1: // a number one up or down
		var nums []int
		for j, l := range lines {
			if j > 1 && number.MatchString(l) {
				nums = append(nums, j)
			}
		}
		if len(nums) == 0 {
			return mutate(t, g, rng)
		}
		j := nums[rng.IntN(len(nums))]
		m := number.FindStringSubmatch(lines[j])
		var n int
		fmt.Sscan(m[2], &n)
		n += []int{1, -1}[k]
		if n < 0 {
			n = 2
		}
		lines[j] = fmt.Sprintf("%s %d", m[1], n)
		what = fmt.Sprintf("%q of block %d now %d", m[1], pick, n)
	case 2: // a line dropped
		if len(lines) < 4 {
			return mutate(t, g, rng)
		}
		j := 2 + rng.IntN(len(lines)-2)
		what = fmt.Sprintf("line %q of block %d dropped", lines[j], pick)
		lines = append(lines[:j], lines[j+1:]...)
	case 3: // a line doubled
		j := 2 + rng.IntN(len(lines)-2)
		what = fmt.Sprintf("line %q of block %d doubled", lines[j], pick)
		lines = append(lines[:j+1], lines[j:]...)
	case 4: // a record dropped
		what = fmt.Sprintf("block %d dropped", pick)
		b = append(b[:pick:pick], b[pick+1:]...)
		return rebuild(t, g, b, rng), what
	case 5: // a record doubled
		what = fmt.Sprintf("block %d doubled", pick)
		b = forge.InsertAt(b, pick, b[pick])
		return rebuild(t, g, b, rng), what
	case 6: // a record moved one place down
		if pick+2 >= len(b) {
			return mutate(t, g, rng)
		}
		what = fmt.Sprintf("blocks %d and %d swapped", pick, pick+1)
		b[pick], b[pick+1] = b[pick+1], b[pick]
		return rebuild(t, g, b, rng), what
	}
	b[pick] = strings.Join(lines, "\n")
	return rebuild(t, g, b, rng), what
}

// allBlocks splits an export into its blocks, unseal blocks included.
func allBlocks(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n\n")
}

// rebuild renumbers, re-chains and re-signs the blocks when they still parse one by one
// (unseal blocks folded into their sealed record's place), or joins them as they are.
func rebuild(t *testing.T, g game, b []string, rng *rand.Rand) []byte {
	if rng.IntN(4) == 0 {
		return forge.Join(b)
	}
	data := forge.Join(b)
	f, err := gamelog.ParseFile(data)
	if err != nil {
		// Renumber the records and try again: an edit that moved records breaks only the
		// index lines, which an operator would fix.
		n := 0
		for i, blk := range b {
			if strings.HasPrefix(blk, "type ") {
				b[i] = indexLine.ReplaceAllString(blk, fmt.Sprintf("index %d", n))
				n++
			} else if strings.HasPrefix(blk, "unseal ") && n > 0 {
				first, rest, _ := strings.Cut(blk, "\n")
				p := strings.Fields(first)
				b[i] = fmt.Sprintf("unseal %d %s\n%s", n-1, p[len(p)-1], indexLine.ReplaceAllString(rest, fmt.Sprintf("index %d", n-1)))
			}
		}
		data = forge.Join(b)
		if f, err = gamelog.ParseFile(data); err != nil {
			return data
		}
	}
	if g.Key == nil { // v1 example: a fresh unsigned trailer only
		var out strings.Builder
		if err := gamelog.WriteFile(&out, f); err != nil {
			return data
		}
		return []byte(out.String())
	}
	// Re-sign checkpoints and the trailer over the edited chain, keeping the view's unseal
	// and private blocks.
	var heads [][32]byte
	var head [32]byte
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint && e.Record.Uint("size") >= 1 && e.Record.Uint("size") <= uint64(i) {
			c := gamelog.Checkpoint{Size: e.Record.Uint("size")}
			copy(c.Game[:], f.Entries[0].Record.Bytes("game"))
			c.Head = heads[c.Size-1]
			c.Sign(g.Key)
			rec, err := gamelog.Parse(fmt.Appendf(nil, "type checkpoint\nindex %d\nsize %d\nhead %x\nsignature %x\n", i, c.Size, c.Head[:], c.Signature))
			if err == nil {
				e.Record, e.Leaf = &rec, gamelog.Leaf(rec.Raw)
			}
		}
		head = gamelog.NextHead(e.Index, head, e.Leaf)
		heads = append(heads, head)
	}
	var id [16]byte
	copy(id[:], f.Entries[0].Record.Bytes("game"))
	f.Sign(id, g.Key)
	var out strings.Builder
	if err := gamelog.WriteFile(&out, f); err != nil {
		return data
	}
	return []byte(out.String())
}
