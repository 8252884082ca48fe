// Package gamelog holds the game log's record format, hash chain, signed checkpoints, export
// file and the offline verifier.
//
// A record is line-oriented UTF-8 text: "type <name>" and then "<key> <value>" lines in the
// fixed order of that type's schema (schema.go). Records are stored verbatim and every hash
// covers the stored bytes, so the parser is strict: a record is accepted only in the one
// canonical form the builder writes. The byte-exact specification, including the export file
// and the checkpoint note, is docs/LOG-FORMAT.md.
//
// The package uses the standard library (and dice, which does too, and beacon,
// for the BLS signatures of a beacon game's rounds: circl), so that `navarch verify` runs
// anywhere, offline, with nothing but the exported file and the verifier key.
package gamelog
