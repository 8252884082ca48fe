package gamelog

import (
	"strings"
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

// TestPlaceReadersAsGet: the readers of fields by their places (placeOf, eventSide,
// readSealed) give what Get and Has give, for every record of a game's export (sealed ones
// and what they withhold too), for records with every optional field or none, and for
// records whose Type was changed to one the reader does not expect.
func TestPlaceReadersAsGet(t *testing.T) {
	var recs []*Record
	for _, sides := range [][2]string{{"", ""}, {"venice", ""}, {"", "r 1"}, {"venice", "r 1"}} {
		for _, typ := range []string{TypeEvent, TypeSealed} {
			b := New(typ).AddUint("turn", 2).AddUint("activation", 3)
			if sides[0] != "" {
				b.Add("side", sides[0])
			}
			if typ == TypeEvent {
				if sides[1] != "" {
					b.Add("rule", sides[1])
				}
				b.Add("text", "a").Add("text", "b")
			} else {
				b.Add("what", TypeEvent).Add("commitment", strings.Repeat("ab", 32))
			}
			r, err := b.Build(5)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, &r)
		}
	}
	h := strings.Repeat("cd", 32)
	for _, b := range []*Builder{
		New(TypeRoll).AddUint("turn", 1).AddUint("activation", 0).AddUint("seq", 0).Add("label", "x").Add("dice", "1d3").
			Add("values", "2").Add("as", "draw").Add("items", "A B C").Add("shown", "B"),
		New(TypeState).AddUint("turn", 1).AddUint("activation", 2).Add("sealed", "yes").Add("state-hash", h),
		New(TypeState).AddUint("turn", 1).AddUint("activation", 2).Add("state-hash", h),
		New(TypeOrdersText).AddUint("orders", 4).Add("side", "venice").Add("nonce", h).Add("line", "A"),
		New(TypeActivation).AddUint("turn", 1).AddUint("activation", 2).Add("act", "alice").Add("what", "x").Add("deadline", "none"),
		New(TypeOrders).AddUint("turn", 1).AddUint("activation", 2).Add("player", "alice").Add("side", "venice").
			Add("commitment", h).Add("entropy", "").Add("received", "none"),
		New(TypeNote).Add("by", "referee").Add("text", "side"),
	} {
		r, err := b.Build(9)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, &r)
	}
	recs = append(recs, &Record{Type: TypeEvent}, &Record{Type: TypeSealed})
	// Lines no schema allows, in records made by hand: the readers read them by key (but
	// for an event record's side, which eventSide knows absent from the line after turn and
	// activation, as in every record the parser makes).
	for _, body := range []string{"turn 1\nactivation 2\nwhat event\ncommitment " + h + "\nside venice\n",
		"activation 2\nturn 1\nside x\nwhat event\ncommitment " + h + "\n", "turn 1\nside x\nactivation 2\ntext y\nside z\n"} {
		r := Record{Type: TypeSealed, Raw: []byte("type sealed\nindex 1\n" + body)}
		for o := len("type sealed\nindex 1\n"); o < len(r.Raw); o += strings.IndexByte(string(r.Raw[o:]), '\n') + 1 {
			r.lines = append(r.lines, uint16(o))
		}
		recs = append(recs, &r)
	}
	for i, r := range recs {
		for _, typ := range []string{r.Type, TypeEvent, TypeSealed} {
			c := *r
			c.Type = typ
			if turn, act := placeOf(&c); turn != c.Get("turn") || act != c.Get("activation") {
				t.Errorf("record %d as %s: placeOf %q %q", i, typ, turn, act)
			}
			if c.Type == TypeEvent {
				if side, has := eventSide(&c); side != c.Get("side") || has != c.Has("side") {
					t.Errorf("record %d as %s: eventSide %q %v", i, typ, side, has)
				}
			}
			if c.Type == TypeSealed {
				want := sealedFields{c.Get("turn"), c.Get("activation"), c.Get("side"), c.Get("what"), c.Get("commitment"), c.Get("kind")}
				if got := readSealed(&c); got != want {
					t.Errorf("record %d as %s: readSealed %+v, want %+v", i, typ, got, want)
				}
			}
		}
	}
}
