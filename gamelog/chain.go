package gamelog

import (
	"crypto/sha256"
	"encoding/binary"

	"navarch/adjudicator/dice"
)

// Leaf returns leaf_i = H(0x00 ‖ record_i), the RFC 6962 leaf hash of a record's stored bytes.
func Leaf(raw []byte) dice.Hash {
	h := sha256.New()
	h.Write([]byte{0})
	h.Write(raw)
	var out dice.Hash
	h.Sum(out[:0])
	return out
}

// NextHead returns head_i = H(tag "head" ‖ u64(i) ‖ head_{i−1} ‖ leaf_i); head_{−1} is the
// zero hash.
func NextHead(i uint64, prev, leaf dice.Hash) dice.Hash {
	h := sha256.New()
	h.Write(dice.Tag(dice.TagHead))
	h.Write(binary.BigEndian.AppendUint64(nil, i))
	h.Write(prev[:])
	h.Write(leaf[:])
	var out dice.Hash
	h.Sum(out[:0])
	return out
}

// Head folds the chain over records' leaves and returns head_{n−1} (the zero hash for none).
func Head(leaves []dice.Hash) dice.Hash {
	var head dice.Hash
	for i, l := range leaves {
		head = NextHead(uint64(i), head, l)
	}
	return head
}
