package dice

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"navarch/ident"
	"slices"
)

// Version is the prefix of every domain tag; it names the byte layout of all derivations.
const Version = "navarch/v1"

// Domain tag names (docs/DICE.md notation: tag "<name>").
const (
	TagChain      = "chain"
	TagStart      = "start"
	TagInputs     = "inputs"
	TagKey        = "key"
	TagRoll       = "roll"
	TagHead       = "head"
	TagHidden     = "hidden"
	TagCheckpoint = "checkpoint"
	TagOrders     = "orders"
	// Added by log format navarch/v2 (docs/LOG-FORMAT.md): salted commitments to what a view
	// may not see yet, and the signed trailer of an export.
	TagOrdersCommit = "orders-commit"
	TagSealed       = "sealed"
	TagExport       = "export"
	// TagBeaconKey is the tag of a beacon game's activation key (log format v3).
	TagBeaconKey = "beacon-key"
)

// Tag returns lp("navarch/v1/<name>"), the prefix of every hash input.
func Tag(name string) []byte {
	return LP([]byte(Version + "/" + name))
}

// LP returns u32(len(b)) ‖ b.
func LP(b []byte) []byte {
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(b)), uint32(len(b)))
	return append(out, b...)
}

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func sum(parts ...[]byte) ident.Hash {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var out ident.Hash
	h.Sum(out[:0])
	return out
}

// ChainStep returns X_{i-1} = H(tag "chain" ‖ game_id ‖ u32(i) ‖ X_i).
func ChainStep(game ident.GameID, i uint32, xi ident.Hash) ident.Hash {
	return sum(Tag(TagChain), game[:], u32(i), xi[:])
}

// ChainSeed walks the chain down from X_from (at position from) to X_to. It returns an error
// when to > from.
func ChainSeed(game ident.GameID, from uint32, x ident.Hash, to uint32) (ident.Hash, error) {
	if to > from {
		return ident.Hash{}, fmt.Errorf("seed %d lies above seed %d of the chain", to, from)
	}
	for i := from; i > to; i-- {
		x = ChainStep(game, i, x)
	}
	return x, nil
}

// Commitment returns C = X_0 for a chain of length n whose top seed is xN.
func Commitment(game ident.GameID, n uint32, xN ident.Hash) ident.Hash {
	c, _ := ChainSeed(game, n, xN, 0)
	return c
}

// Join is one player's join entropy (docs/DICE.md 2). A player who never joined has empty entropy.
type Join struct {
	Player  string
	Entropy []byte
}

// StartHash returns S = H(tag "start" ‖ game_id ‖ C ‖ Σ_sorted[lp(player) ‖ lp(entropy)]),
// the joins sorted by player id bytes. Two joins of one player are an error.
func StartHash(game ident.GameID, c ident.Hash, joins []Join) (ident.Hash, error) {
	js := slices.Clone(joins)
	slices.SortFunc(js, func(a, b Join) int { return cmp.Compare(a.Player, b.Player) })
	parts := [][]byte{Tag(TagStart), game[:], c[:]}
	for i, j := range js {
		if i > 0 && js[i-1].Player == j.Player {
			return ident.Hash{}, fmt.Errorf("player %q joined twice", j.Player)
		}
		parts = append(parts, LP([]byte(j.Player)), LP(j.Entropy))
	}
	return sum(parts...), nil
}

// Input is one orders record that an activation uses (docs/DICE.md 3).
type Input struct {
	Player     string
	OrdersHash ident.Hash
	Entropy    []byte
}

// InputsHash returns E_{t,a} = H(tag "inputs" ‖ u32(t) ‖ u32(a) ‖
// Σ_sorted[lp(player) ‖ orders_hash ‖ lp(entropy)]). Inputs are sorted by player id bytes,
// then by orders hash, then by entropy, so the result does not depend on arrival order.
func InputsHash(turn, act uint32, inputs []Input) ident.Hash {
	in := slices.Clone(inputs)
	slices.SortFunc(in, compareInputs)
	parts := [][]byte{Tag(TagInputs), u32(turn), u32(act)}
	for _, x := range in {
		parts = append(parts, LP([]byte(x.Player)), x.OrdersHash[:], LP(x.Entropy))
	}
	return sum(parts...)
}

func compareInputs(a, b Input) int {
	if c := cmp.Compare(a.Player, b.Player); c != 0 {
		return c
	}
	if c := bytes.Compare(a.OrdersHash[:], b.OrdersHash[:]); c != 0 {
		return c
	}
	return bytes.Compare(a.Entropy, b.Entropy)
}

// ActivationKey returns K_{t,a} = HMAC(X_t, tag "key" ‖ game_id ‖ S ‖ u32(t) ‖ u32(a) ‖ E_{t,a}).
func ActivationKey(xt ident.Hash, game ident.GameID, s ident.Hash, turn, act uint32, e ident.Hash) ident.Hash {
	m := hmac.New(sha256.New, xt[:])
	for _, p := range [][]byte{Tag(TagKey), game[:], s[:], u32(turn), u32(act), e[:]} {
		m.Write(p)
	}
	var out ident.Hash
	m.Sum(out[:0])
	return out
}

// BeaconKey is the activation key of a beacon game (log format v3, docs/DICE.md 3):
//
//	K_{t,a} = HMAC(X_t, tag "beacon-key" ‖ game_id ‖ S ‖ u32(t) ‖ u32(a) ‖ E_{t,a} ‖ u64(R) ‖ randomness_R)
//
// where R is the beacon round named for the step once its inputs were fixed and randomness_R
// its published randomness (H of the round's signature), which nobody knew then.
func BeaconKey(xt ident.Hash, game ident.GameID, s ident.Hash, turn, act uint32, e ident.Hash, round uint64, randomness [32]byte) ident.Hash {
	m := hmac.New(sha256.New, xt[:])
	for _, p := range [][]byte{Tag(TagBeaconKey), game[:], s[:], u32(turn), u32(act), e[:], binary.BigEndian.AppendUint64(nil, round), randomness[:]} {
		m.Write(p)
	}
	var out ident.Hash
	m.Sum(out[:0])
	return out
}

// Limits on a roll request.
const (
	MaxSides    = 1<<32 - 1
	MaxCount    = 10000
	MaxLabelLen = 200
)

// ErrBadRequest reports a roll request outside the limits; it is an engine bug, not a player's.
var ErrBadRequest = errors.New("dice: bad roll request")

// CheckRequest reports whether (label, sides, count) is a valid roll request: a label of 1 to
// 200 printable ASCII bytes without spaces, 1 ≤ sides ≤ 2^32−1 and 1 ≤ count ≤ 10000.
func CheckRequest(label string, sides, count int) error {
	if len(label) == 0 || len(label) > MaxLabelLen {
		return fmt.Errorf("%w: label length %d", ErrBadRequest, len(label))
	}
	for i := 0; i < len(label); i++ {
		if label[i] <= ' ' || label[i] > '~' {
			return fmt.Errorf("%w: label %q has byte %#x", ErrBadRequest, label, label[i])
		}
	}
	if sides < 1 || sides > MaxSides {
		return fmt.Errorf("%w: %d sides", ErrBadRequest, sides)
	}
	if count < 1 || count > MaxCount {
		return fmt.Errorf("%w: count %d", ErrBadRequest, count)
	}
	return nil
}

// Deriver derives rolls under one activation key; it keeps the keyed HMAC state so that
// each roll costs only its own blocks. It is not safe for concurrent use.
type Deriver struct {
	m     hash.Hash
	msg   []byte
	block []byte
}

// NewDeriver returns a Deriver for key K_{t,a}.
func NewDeriver(key ident.Hash) *Deriver {
	return &Deriver{m: hmac.New(sha256.New, key[:])}
}

// Derive returns count values of a d(sides) for label under key K (docs/DICE.md 4):
// block_j = HMAC(K, tag "roll" ‖ lp(label) ‖ u32(sides) ‖ u32(count) ‖ u32(j)); the blocks are
// read as big-endian u32 words w; each w < 2^32 − (2^32 mod sides) yields 1 + (w mod sides).
func Derive(key ident.Hash, label string, sides, count int) ([]int, error) {
	return NewDeriver(key).Derive(label, sides, count)
}

// Derive is the package-level Derive under the Deriver's key.
func (d *Deriver) Derive(label string, sides, count int) ([]int, error) {
	if err := CheckRequest(label, sides, count); err != nil {
		return nil, err
	}
	return d.AppendDerive(make([]int, 0, count), label, sides, count)
}

// AppendDerive appends to dst the values Derive gives for the request, and returns the
// extended slice; it allocates nothing where dst has room for count more values. On an
// invalid request it returns dst unchanged and the error.
func (d *Deriver) AppendDerive(dst []int, label string, sides, count int) ([]int, error) {
	if err := CheckRequest(label, sides, count); err != nil {
		return dst, err
	}
	n := uint64(sides)
	limit := (1 << 32) - (1<<32)%n
	d.msg = append(d.msg[:0], rollTag...)
	d.msg = binary.BigEndian.AppendUint32(d.msg, uint32(len(label)))
	d.msg = append(d.msg, label...)
	d.msg = binary.BigEndian.AppendUint32(d.msg, uint32(sides))
	d.msg = binary.BigEndian.AppendUint32(d.msg, uint32(count))
	prefix := len(d.msg)
	want := len(dst) + count
	for j := uint32(0); len(dst) < want; j++ {
		d.m.Reset()
		d.msg = binary.BigEndian.AppendUint32(d.msg[:prefix], j)
		d.m.Write(d.msg)
		d.block = d.m.Sum(d.block[:0])
		for k := 0; k+4 <= len(d.block) && len(dst) < want; k += 4 {
			if w := uint64(binary.BigEndian.Uint32(d.block[k:])); w < limit {
				dst = append(dst, 1+int(w%n))
			}
		}
	}
	return dst, nil
}

var rollTag = Tag(TagRoll)
