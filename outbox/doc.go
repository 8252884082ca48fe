// Package outbox sends the mail the store has queued, after the transaction that queued it
// has committed: it draws each mail's maps, hands the mail to the SMTP server, records it
// sent, and keeps each mail's retry state in the store, so that one failing mail never holds
// back the others.
//
// The host queues mail (store.OutboxAdd) in the transaction that handles a player's mail or
// a deadline and wakes the outbox; the outbox does everything after the commit
// (docs/DESIGN.md 5). It never imports the host: what it needs of it comes in Config (the
// games' engines for drawing, the note of a mail refused for good).
//
// What it guarantees (docs/RELIABILITY.md):
//   - A mail leaves the queue only once the server has taken it (its 250 after DATA) or
//     refused it for good (an explicit 5xx to its recipient or content: Config.Refused notes it).
//   - The send is recorded at once in a journal of its own beside the database (journal.go),
//     appended and synced without waiting for the store's write lock, and folded into the
//     store afterwards: a kill -9 resends only a mail whose 250 came in the moment before it,
//     with the same Message-ID. A graceful stop lets the send under way finish and records it.
//   - A mail the server defers (a 4xx to its recipient or content) waits out its own backoff,
//     stored with it (store.Retry), while the mails behind it go. A failure of the server or
//     of the installation (no connection, TLS, a refused login) is no mail's fault: the whole
//     outbox backs off and reports it (Status), counting against no mail.
//   - Every wait is on Config.Clock: tests drive it by hand.
package outbox
