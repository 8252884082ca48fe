// Package mail is the daemon's mail side: reading incoming mail into requests (this file's
// package so far), and, to come, IMAP intake, composing and SMTP sending.
//
// Parse reads any MIME mail safely: a size cap, any charset, text/plain preferred and HTML
// converted to text, quoted replies and signatures dropped. It also says when a mail must not
// be answered at all (RFC 3834: auto-replies, bounces, mailing lists, our own mail), so that
// navarch never loops. ReadRequest turns the cleaned text into a player's or referee's
// request: the game, the key, a command, and the order lines with their line numbers.
package mail
