package gamelog

import (
	"crypto/sha256"
	"encoding/binary"

	"navarch/dice"
	"navarch/ident"
)

// Leaf returns leaf_i = H(0x00 ‖ record_i), the RFC 6962 leaf hash of a record's stored bytes.
func Leaf(raw []byte) ident.Hash {
	h := sha256.New()
	h.Write([]byte{0})
	h.Write(raw)
	var out ident.Hash
	h.Sum(out[:0])
	return out
}

// NextHead returns head_i = H(tag "head" ‖ u64(i) ‖ head_{i−1} ‖ leaf_i); head_{−1} is the
// zero hash.
func NextHead(i uint64, prev, leaf ident.Hash) ident.Hash {
	h := sha256.New()
	h.Write(dice.Tag(dice.TagHead))
	h.Write(binary.BigEndian.AppendUint64(nil, i))
	h.Write(prev[:])
	h.Write(leaf[:])
	var out ident.Hash
	h.Sum(out[:0])
	return out
}

// Head folds the chain over records' leaves and returns head_{n−1} (the zero hash for none).
func Head(leaves []ident.Hash) ident.Hash {
	var head ident.Hash
	for i, l := range leaves {
		head = NextHead(uint64(i), head, l)
	}
	return head
}
