package gamelog

import (
	"crypto/sha256"

	"navarch/dice"
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

// OrdersCommitment returns H(tag "orders-commit" ‖ nonce ‖ canonical order text): what a v2
// orders record shows of the orders until the close that uses them discloses text and nonce.
// The nonce (32 bytes from crypto/rand) keeps short order texts, NONE among them, from being
// matched against guesses; it never feeds a dice key (the key takes OrdersHash).
func OrdersCommitment(nonce ident.Hash, canonical []byte) ident.Hash {
	return tagged(dice.TagOrdersCommit, nonce[:], canonical)
}

// SealedHash returns H(tag "sealed" ‖ nonce ‖ record bytes): the commitment a v2 sealed
// record carries for the record it withholds (which holds its own type and index).
func SealedHash(nonce ident.Hash, inner []byte) ident.Hash {
	return tagged(dice.TagSealed, nonce[:], inner)
}

func tagged(tag string, parts ...[]byte) ident.Hash {
	h := sha256.New()
	h.Write(dice.Tag(tag))
	for _, p := range parts {
		h.Write(p)
	}
	var out ident.Hash
	h.Sum(out[:0])
	return out
}
