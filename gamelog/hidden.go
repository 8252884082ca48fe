package gamelog

import (
	"crypto/sha256"

	"navarch/adjudicator/dice"
	"navarch/ident"
)

// HiddenHash returns H(tag "hidden" ‖ nonce ‖ data): the commitment to a side's hidden set-up
// (docs/DICE.md 5). The nonce is 32 bytes from crypto/rand, so that a short hidden choice cannot
// be guessed from its hash.
func HiddenHash(nonce ident.Hash, data []byte) ident.Hash {
	h := sha256.New()
	h.Write(dice.Tag(dice.TagHidden))
	h.Write(nonce[:])
	h.Write(data)
	var out ident.Hash
	h.Sum(out[:0])
	return out
}

// OrdersHash returns H(tag "orders" ‖ canonical order text), the hash an orders record
// carries.
func OrdersHash(canonical []byte) ident.Hash {
	h := sha256.New()
	h.Write(dice.Tag(dice.TagOrders))
	h.Write(canonical)
	var out ident.Hash
	h.Sum(out[:0])
	return out
}
