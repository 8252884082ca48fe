// Package host runs games by mail: it turns each incoming mail into game actions and the
// mails that answer them, all in one store transaction, and it keeps the games' deadlines.
//
// Handle takes a raw mail: it is read (mail.Parse), dropped if it must not be answered
// (RFC 3834), deduplicated by Message-ID in the same transaction that applies it, matched to a
// game by its subject tag or GAME line, authenticated (the player of record's address and
// key), and then acted on: JOIN, orders, CHECK, NONE, HELP, STATUS, LOG. A game advances by
// itself through steps that need no orders; where orders are needed, the sides are asked.
// Every outgoing mail goes to the store's outbox in that same transaction, so that a crash
// loses nothing and never answers twice. A player's mistake is answered by mail and Handle
// returns nil; our own failure returns an error and nothing of the mail is applied.
package host
