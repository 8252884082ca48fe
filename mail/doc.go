// Package mail will hold the daemon's mail side: IMAP intake, order-mail parsing, composing
// and SMTP sending (issue "The mail daemon"). The store's processed-message index and outbox
// (store/mail.go) are already in place for it.
package mail
