// Package store keeps every game of an installation in one bbolt file.
//
// Layout (bucket names are ASCII; integers are big-endian u64):
//
//	meta/       schema → u64 schema version; install-key → Ed25519 seed (32 bytes)
//	games/<id>/ one bucket per game, named by the 16-byte game id:
//	    log/    u64(index) → record bytes, stored verbatim (the hash chain covers them)
//	    chain/  u64(index) → leaf ‖ head (64 bytes), a cache that Check recomputes
//	    secret/ name → bytes never exported (the seed X_N, hidden set-up nonces and data)
//	    meta/   name → bytes (game settings and status, owned by callers)
//	    received/ u64(seq) → a JSON ReceivedMail: every incoming mail naming the game, raw
//	processed/  Message-ID → caller's value (dedupe of incoming mail)
//	outbox/     u64(seq) → an outgoing mail, written in the transaction that decided to send it
//	parked/     u64(seq) → a JSON ParkedMail: an incoming mail we failed to handle, kept to retry
//
// Every function that changes data takes the *Tx, so that one activation (new state, log
// records, activation status, outgoing mail, processed mail) commits atomically. A crash at
// any point leaves either the whole transaction or none of it.
package store
