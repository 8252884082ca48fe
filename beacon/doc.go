// Package beacon holds the public randomness beacon that keys the dice of a beacon game:
// drand's rounds (threshold BLS signatures on BLS12-381, scheme bls-unchained-g1-rfc9380),
// verified against the chain's public key, and fetched over HTTPS from its relays
// (docs/DICE.md 3, docs/LOG-FORMAT.md 2).
//
// A round r of a chain is published at Genesis + (r−1)·Period. Its signature is a G1 point
// on H(u64(r)) with the DST BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_, verified under the
// chain's G2 public key; its randomness is H(signature). Nobody, the operator of a game
// included, knows a round's randomness before the League of Entropy's threshold of nodes
// publishes it.
package beacon
