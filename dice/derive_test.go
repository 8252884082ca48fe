package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"navarch/ident"
	"slices"
	"testing"
)

func testKey(s string) ident.Hash { return sha256.Sum256([]byte(s)) }

// reference derives rolls the slow, obvious way: the whole block stream first, then the
// words, then the rejection rule, as docs/DICE.md 4 states it.
func reference(key ident.Hash, label string, sides, count int) []int {
	var msg []byte
	msg = append(msg, Tag(TagRoll)...)
	msg = append(msg, LP([]byte(label))...)
	msg = binary.BigEndian.AppendUint32(msg, uint32(sides))
	msg = binary.BigEndian.AppendUint32(msg, uint32(count))
	var out []int
	for j := 0; len(out) < count; j++ {
		m := hmac.New(sha256.New, key[:])
		m.Write(binary.BigEndian.AppendUint32(slices.Clone(msg), uint32(j)))
		block := m.Sum(nil)
		for k := 0; k < 32; k += 4 {
			w := uint64(binary.BigEndian.Uint32(block[k:]))
			limit := uint64(1<<32) - uint64(1<<32)%uint64(sides)
			if w < limit && len(out) < count {
				out = append(out, int(1+w%uint64(sides)))
			}
		}
	}
	return out
}

func TestDeriveMatchesReference(t *testing.T) {
	for _, sides := range []int{1, 2, 3, 6, 7, 10, 20, 100, 3 << 30, 1<<32 - 1} {
		for _, count := range []int{1, 2, 9, 50} {
			key := testKey(fmt.Sprint(sides, count))
			label := fmt.Sprintf("l/%d/%d", sides, count)
			got, err := Derive(key, label, sides, count)
			if err != nil {
				t.Fatal(err)
			}
			if want := reference(key, label, sides, count); !slices.Equal(got, want) {
				t.Errorf("Derive(%s, %d, %d) = %v, want %v", label, sides, count, got, want)
			}
			for _, v := range got {
				if v < 1 || v > sides {
					t.Fatalf("d%d gave %d", sides, v)
				}
			}
		}
	}
}

// TestAppendDerive: AppendDerive appends exactly Derive's values after what dst holds, and
// leaves dst as it was for a bad request.
func TestAppendDerive(t *testing.T) {
	d := NewDeriver(testKey("append"))
	buf := make([]int, 0, 64)
	buf = append(buf, 99)
	for _, sides := range []int{1, 6, 3 << 30} {
		for _, count := range []int{1, 9, 20} {
			label := fmt.Sprintf("a/%d/%d", sides, count)
			want, err := Derive(testKey("append"), label, sides, count)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.AppendDerive(buf[:1], label, sides, count)
			if err != nil || got[0] != 99 || !slices.Equal(got[1:], want) {
				t.Errorf("AppendDerive(%s) = %v, %v; want 99 then %v", label, got, err, want)
			}
		}
	}
	got, err := d.AppendDerive(buf[:1], "bad label", 6, 1)
	if !errors.Is(err, ErrBadRequest) || len(got) != 1 {
		t.Errorf("bad request: %v, %v", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { buf, _ = d.AppendDerive(buf[:0], "fire/VEN-1>OTT-1/hit", 6, 2) }); n != 0 {
		t.Errorf("AppendDerive into a buffer with room: %.0f allocations", n)
	}
}

// TestRejection: with sides = 3·2^30 a quarter of all words lie at or above the limit and
// must be skipped. Were they kept (w mod sides), values up to 2^30 would be twice as common.
func TestRejection(t *testing.T) {
	sides := 3 << 30
	key := testKey("reject")
	vals, err := Derive(key, "r", sides, 4000)
	if err != nil {
		t.Fatal(err)
	}
	low := 0
	for _, v := range vals {
		if v <= 1<<30 {
			low++
		}
	}
	// Fair: a third of 4000 ≈ 1333 (sd ≈ 30). Without rejection: half, 2000.
	if low < 1200 || low > 1470 {
		t.Errorf("%d of 4000 values in the lowest third, want about 1333", low)
	}
	kept, rejected := 0, 0
	for j := 0; kept < 4000; j++ {
		m := hmac.New(sha256.New, key[:])
		m.Write(slices.Concat(Tag(TagRoll), LP([]byte("r")), u32(uint32(sides)), u32(4000), u32(uint32(j))))
		for k, block := 0, m.Sum(nil); k < 32 && kept < 4000; k += 4 {
			if binary.BigEndian.Uint32(block[k:]) >= 3<<30 {
				rejected++
				continue
			}
			kept++
		}
	}
	if rejected < 1000 { // a quarter of ≈5333 words
		t.Errorf("only %d words rejected on the way to 4000 values", rejected)
	}
}

func TestLabelsAreIndependent(t *testing.T) {
	key := testKey("k")
	a, _ := Derive(key, "a", 1<<20, 8)
	b, _ := Derive(key, "b", 1<<20, 8)
	if slices.Equal(a, b) {
		t.Errorf("labels a and b gave the same rolls %v", a)
	}
	again, _ := Derive(key, "a", 1<<20, 8)
	if !slices.Equal(a, again) {
		t.Errorf("same request gave %v then %v", a, again)
	}
	other, _ := Derive(testKey("k2"), "a", 1<<20, 8)
	if slices.Equal(a, other) {
		t.Errorf("different keys gave the same rolls")
	}
}

func TestCheckRequest(t *testing.T) {
	bad := []struct {
		label        string
		sides, count int
	}{
		{"", 6, 1}, {"has space", 6, 1}, {"tab\t", 6, 1}, {"é", 6, 1}, {string(make([]byte, 201)), 6, 1},
		{"ok", 0, 1}, {"ok", -1, 1}, {"ok", 1 << 32, 1}, {"ok", 6, 0}, {"ok", 6, 10001},
	}
	for _, c := range bad {
		if err := CheckRequest(c.label, c.sides, c.count); !errors.Is(err, ErrBadRequest) {
			t.Errorf("CheckRequest(%q, %d, %d) = %v, want ErrBadRequest", c.label, c.sides, c.count, err)
		}
		if _, err := Derive(ident.Hash{}, c.label, c.sides, c.count); err == nil {
			t.Errorf("Derive(%q, %d, %d) accepted", c.label, c.sides, c.count)
		}
	}
	if err := CheckRequest("fire/VEN1>SIR2/hit1/hv", 6, 2); err != nil {
		t.Errorf("good request refused: %v", err)
	}
}

func TestChain(t *testing.T) {
	game, n, xN := vectorGame()
	c := Commitment(game, n, xN)
	for tt := uint32(0); tt <= n; tt++ {
		xt, err := ChainSeed(game, n, xN, tt)
		if err != nil {
			t.Fatal(err)
		}
		if back, _ := ChainSeed(game, tt, xt, 0); back != c {
			t.Errorf("X_%d does not hash down to C", tt)
		}
	}
	if _, err := ChainSeed(game, 2, xN, 3); err == nil {
		t.Error("walking up the chain was allowed")
	}
	var other ident.GameID
	if Commitment(other, n, xN) == c {
		t.Error("the game id does not enter the chain")
	}
}

func TestStartAndInputsIgnoreOrder(t *testing.T) {
	game, _, _ := vectorGame()
	j1 := []Join{{"a", []byte("1")}, {"b", nil}, {"c", []byte("3")}}
	j2 := []Join{{"c", []byte("3")}, {"a", []byte("1")}, {"b", nil}}
	s1, _ := StartHash(game, ident.Hash{}, j1)
	s2, _ := StartHash(game, ident.Hash{}, j2)
	if s1 != s2 {
		t.Error("S depends on join order")
	}
	if _, err := StartHash(game, ident.Hash{}, append(j1, Join{"a", nil})); err == nil {
		t.Error("a double join was accepted")
	}
	// Length prefixes keep field boundaries: moving a byte from player to entropy changes S.
	s3, _ := StartHash(game, ident.Hash{}, []Join{{"ab", nil}})
	s4, _ := StartHash(game, ident.Hash{}, []Join{{"a", []byte("b")}})
	if s3 == s4 {
		t.Error("field boundaries are ambiguous")
	}
	in := []Input{{"b", testKey("2"), nil}, {"a", testKey("1"), []byte("e")}, {"a", testKey("0"), nil}}
	rev := []Input{in[2], in[0], in[1]}
	if InputsHash(1, 2, in) != InputsHash(1, 2, rev) {
		t.Error("E depends on arrival order")
	}
	if InputsHash(1, 2, in) == InputsHash(1, 3, in) || InputsHash(1, 2, in) == InputsHash(2, 2, in) {
		t.Error("turn or activation does not enter E")
	}
}
