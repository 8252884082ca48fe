// Package mail is the daemon's mail side: IMAP intake, reading incoming mail into requests,
// and composing and sending outgoing mail by SMTP.
//
// Intake reads a mailbox by UID (IDLE where the server offers it, polling otherwise) and hands
// each new mail to the host; its cursor is saved only after the host has handled the mail, and
// a mail that keeps failing is parked rather than retried forever in front of the others.
//
// Parse reads any MIME mail safely: a size cap, any charset, text/plain preferred and HTML
// converted to text, quoted replies and signatures dropped. It also says when a mail must not
// be answered at all (RFC 3834: auto-replies, bounces, mailing lists, our own mail), so that
// navarch never loops. ReadRequest turns the cleaned text into a player's or referee's
// request: the game, the key, a command, and the order lines with their line numbers.
// DKIMAligned reads the receiving server's Authentication-Results.
//
// Outgoing is a mail the host decided to send, kept in the store's outbox until SMTP.Send
// has handed it to the submission server (STARTTLS or TLS, with authentication).
package mail
