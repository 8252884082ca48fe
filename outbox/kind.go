package outbox

import (
	"errors"
	"slices"
	"strings"

	gm "github.com/wneessen/go-mail"

	"navarch/mail"
)

// Kind is what a failure to send was, and so whose it is to mend.
type Kind string

// The kinds of failure. Temporary concerns one mail (the server deferred its recipient or
// content: that mail waits out its own backoff); Refused is one mail's for good. The others
// are the installation's or the server's: the whole outbox backs off, counting against no
// mail; Auth and TLS wait for the operator.
const (
	Auth       Kind = "auth"       // the server refused our login (530, 535)
	TLS        Kind = "tls"        // no TLS session with the server
	Connection Kind = "connection" // no connection, or it broke
	Temporary  Kind = "temporary"  // a 4xx to one mail's recipient or content
	Refused    Kind = "refused"    // a 5xx to one mail's recipient or content
	Store      Kind = "store"      // our own database failed (a full disk)
)

// KindOf is the outbox's reading of a send's error (mail.SMTP's): Config.Kind when the
// caller has a better one.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	if !errors.Is(err, mail.ErrTemporary) {
		return Refused
	}
	var se *gm.SendError
	if errors.As(err, &se) {
		if c := se.ErrorCode(); c == 530 || c == 535 { // authentication required, or refused
			return Auth
		}
		if slices.Contains([]gm.SendErrReason{gm.ErrSMTPRcptTo, gm.ErrSMTPData, gm.ErrSMTPDataClose}, se.Reason) &&
			se.ErrorCode() >= 400 && se.ErrorCode() <= 499 {
			return Temporary
		}
		return Connection
	}
	// the text after mail.SMTP's marker is go-mail's (the Message-ID before it is ours)
	_, text, _ := strings.Cut(err.Error(), mail.ErrTemporary.Error())
	text = strings.ToLower(text)
	switch {
	case containsAny(text, "smtp auth", " 535 ", " 530 ", "535 5.7", "530 5.7"):
		return Auth
	case containsAny(text, "tls: ", "x509: ", "starttls", "tls connection", "tls config"):
		return TLS
	}
	return Connection
}

func containsAny(s string, subs ...string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}
