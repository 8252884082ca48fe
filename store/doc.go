// Package store keeps every game of an installation in one bbolt file.
//
// Layout (bucket names are ASCII; integers are big-endian u64):
//
//	meta/       schema → u64 schema version; install-key → Ed25519 seed (32 bytes);
//	            msgid-key → the key of navarch's Message-IDs (32 bytes: msgidkey.go);
//	            state:due-stamp, state:figures-stamp → how the host computed the due
//	            index and the game counts;
//	            state:tag:<tag> → game id (the tag index); state:imap:<mailbox> → the
//	            intake's cursor (u32 UIDVALIDITY ‖ u32 last UID); state:known:<address> → 1
//	            (who plays or referees here); state:stranger:<address> → the day a stranger
//	            was last answered
//	gameids/    game id → 1, or 1 ‖ u8 clock ‖ state: every game, and the figure gcount/
//	            counts it under (figures.go) (since schema 5; before it, games/<id>/ was one
//	            bucket per game holding log/, chain/, secret/, meta/ and received/ as
//	            below, keyed without the id; games/ stays, empty, for the older upgrades)
//	glog/       id ‖ u64(index) → record bytes, stored verbatim (the hash chain covers them)
//	gchain/     id ‖ u64(index) → leaf ‖ head (64 bytes), a cache that Check recomputes
//	gsecret/    id ‖ name → bytes never exported (the seed X_N, hidden set-up nonces and
//	            data; key/<player> → the player's order key)
//	gmeta/      id ‖ name → bytes (host → the game's settings and status, a JSON Game of
//	            SettingsVersion, whose "tag" field the tag index holds: settings.go)
//	greceived/  id ‖ u64(seq) → a JSON ReceivedMail: every incoming mail naming the game, raw
//	processed/  sender ‖ 0x00 ‖ Message-ID → caller's value (dedupe of incoming mail; keys of
//	            schema 5 and before, of no recorded sender, are 0x00 ‖ Message-ID: processed.go)
//	outbox/     u64(seq) → an outgoing mail, written in the transaction that decided to send it
//	outretry/   u64(seq) → u64(next attempt, Unix ns) ‖ u32(failures): a queued mail the
//	            server deferred, for the outbox's own backoff of it (outretry.go; schema 6)
//	parked/     u64(seq) → a JSON ParkedMail: an incoming mail we failed to handle, kept to retry
//	rates/      u32(unix hour) ‖ sender → u32 mails counted in that hour (CountHour expires
//	            hours before the previous one)
//	due/        u64(unix ns) ‖ game id → empty: when the deadline pass next looks at the game;
//	            dueof/ game id → u64(unix ns), its entry (index.go)
//	players/    address ‖ 0x00 ‖ game id → 1: the games an address plays (index.go)
//	gcount/     "s:" ‖ state → u64 games in that state; "clocks" → u64 games whose
//	            deadline runs: the metrics' counts, each game under its figure in gameids/
//	            (figures.go)
//	dropped/    u64(seq) → a JSON DroppedMail: the latest notes of mail dropped unanswered;
//	            dropcount/ reason → u64 mails dropped for it, ever (dropped.go)
//	outdict/, outdictuse/, outdictclass/: dictionaries that queued mails of a class are
//	            deflated against (mail.go)
//
// Every game's keys share the g* buckets, prefixed by its 16-byte id, so that many small
// games share pages (a bucket per game cost a page of 4 KiB each at 10,000 games).
//
// The store owns this layout: the host's state is read and written through typed functions
// (LoadGame, SaveGame, GameByTag, PutPlayerKey, PutCursor, CountHour, MarkKnown, Known,
// AnswerStranger, PutDue, Due, AddPlayerGame, PlayerGames, PutGameFigure, CountGames,
// MarkProcessed, AddDropped, MessageIDKey), and schema.go's upgrades bring an older file to
// it when it is opened.
//
// Every function that changes data takes the *Tx, so that one activation (new state, log
// records, activation status, outgoing mail, processed mail) commits atomically. A crash at
// any point leaves either the whole transaction or none of it.
package store
