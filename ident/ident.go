// Package ident holds the identities that the store, the log and the dice share: a game's id
// and a SHA-256 digest.
package ident

// GameID identifies a game; it is drawn from crypto/rand when the game is created
// (docs/LOG-FORMAT.md 1).
type GameID [16]byte

// Hash is a SHA-256 digest or a 32-byte secret.
type Hash [32]byte
