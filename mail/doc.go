// Package mail is the daemon's mail side: IMAP intake, reading incoming mail into requests,
// and composing and sending outgoing mail by SMTP.
//
// Intake reads a mailbox by UID (IDLE where the server offers it, polling otherwise) and hands
// each new mail to the host; its cursor is saved only after the host has handled the mail, and
// a mail that keeps failing is parked rather than retried forever in front of the others.
//
// Parse reads any MIME mail safely: a cap on the raw message and a smaller one on the text it
// reads (attachments are not read), any charset, base64 with or without padding,
// format=flowed unwrapped (RFC 3676), text/plain preferred and HTML read with an HTML5
// parser (HTMLText: quotes and signatures removed by the elements the clients mark them
// with). ReadReply keeps of the text what the sender wrote: no quoted history, above or
// below, marked or not (attribution lines in some thirty languages, wrapped or not; Outlook
// header blocks; original and forwarded-message separators; navarch's own INFO and
// CHECKPOINT blocks), no signature or sign-off, only the signed text of a PGP clear-signed
// body, every Unicode space a space (docs/RELIABILITY.md, "Reading real mail"; the corpus
// testdata/replies holds the clients' replies it is held to). Parse also says when a mail
// must not be answered at all (RFC 3834: auto-replies, bounces, mailing lists, our own mail),
// so that navarch never loops, and when it only asks not to be auto-answered (Bulk).
// ReadRequest turns the text into a player's or referee's request: the game, the key, a
// command, and the order lines with their line numbers.
// DKIMAligned reads the receiving server's Authentication-Results.
//
// Outgoing is a mail the host decided to send, kept in the store's outbox until SMTP.Send
// has handed it to the submission server (STARTTLS or TLS, with authentication).
package mail
