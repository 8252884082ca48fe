package mail

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	gm "github.com/wneessen/go-mail"
)

// TLS modes of a mail server connection.
const (
	TLSImplicit = "tls"      // TLS from the first byte (465, 993)
	TLSStart    = "starttls" // STARTTLS (587, 143)
	TLSNone     = "none"     // plain: loopback tests only
)

// SMTP is how outgoing mail leaves (docs/DESIGN.md 4: submission with STARTTLS/TLS and auth).
type SMTP struct {
	Host     string
	Port     int
	TLS      string
	Username string
	Password string
	From     string // navarch's address
	Timeout  time.Duration
	// TLSConfig overrides the default (tests trust their own certificate this way).
	TLSConfig *tls.Config
}

// ErrSenderRefused marks a server's refusal for good of navarch's own address as the sender
// (SMTP.Check): the login may not send as it, a setting to fix.
var ErrSenderRefused = errors.New("mail: the server refuses navarch's sender address")

// ErrTemporary marks a send that failed in a way worth retrying: a 4xx, connection trouble,
// and a refused login or TLS, which wait in the outbox until the operator mends them
// (SendErrorKind tells which).
var ErrTemporary = errors.New("mail: not sent, to be retried")

// refusals are the stages at which a server's refusal concerns one mail: its recipient or
// its content. Any other failure (the connection, the login, our sender address refused) is
// the installation's: it is retried, so that a misconfiguration never throws the outbox away.
var refusals = []gm.SendErrReason{gm.ErrSMTPRcptTo, gm.ErrSMTPData, gm.ErrSMTPDataClose}

// Send delivers one outgoing mail. It returns nil once the server has accepted the mail (its
// 250 after DATA), whatever fails after that (RSET, QUIT). Only an explicit 5xx reply
// refusing the recipient or the content is permanent; anything else (4xx, EOF,
// a reset or a timeout at any stage, before or after DATA) is wrapped with ErrTemporary: the
// server may not have the mail, so it is sent again, with the same Message-ID.
func (s SMTP) Send(ctx context.Context, o Outgoing) error {
	m, err := s.compose(o)
	if err != nil {
		return fmt.Errorf("compose %s: %w", o.MessageID, err)
	}
	c, err := gm.NewClient(s.Host, s.options()...)
	if err != nil {
		return fmt.Errorf("smtp %s: %w", s.Host, err)
	}
	client, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("send %s: %w: %w", o.MessageID, ErrTemporary, err)
	}
	err = c.SendWithSMTPClient(client, m)
	// QUIT is not waited for: the caller records the mail as sent as soon as the server has
	// it (a kill in between sends it again), and the close is bounded by the timeout.
	go c.CloseWithSMTPClient(client)
	switch {
	case err == nil || m.IsDelivered():
		return nil
	case refused(err):
		return fmt.Errorf("send %s: %w", o.MessageID, err)
	}
	return fmt.Errorf("send %s: %w: %w", o.MessageID, ErrTemporary, err)
}

// Check connects, starts TLS, logs in and offers navarch's sender address (MAIL FROM, then
// RSET), sending nothing: the daemon's check of its settings at start. It catches a wrong
// password (535), a server that wants a login navarch was not given (530), a certificate
// and a sender address the login may not use. The error's kind is SendErrorKind's.
func (s SMTP) Check(ctx context.Context) error {
	c, err := gm.NewClient(s.Host, s.options()...)
	if err != nil {
		return fmt.Errorf("smtp %s: %w", s.Host, err)
	}
	client, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("smtp connect to %s: %w", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), err)
	}
	defer c.CloseWithSMTPClient(client)
	if err := client.Mail(s.From); err != nil {
		if c := replyCode(err); c >= 500 && SendErrorKind(err) != KindAuth {
			return fmt.Errorf("smtp MAIL FROM:<%s>: %w: %w", s.From, ErrSenderRefused, err)
		}
		return fmt.Errorf("smtp MAIL FROM:<%s>: %w", s.From, err)
	}
	client.Reset()
	return nil
}

// refused reports an explicit 5xx reply to RCPT, DATA or the end of the data. go-mail's own
// IsTemp only looks whether the error's text starts with "4", which takes a dropped
// connection for a refusal; the reply code is read here instead (0 when there was none).
func refused(err error) bool {
	var se *gm.SendError
	if !errors.As(err, &se) || !slices.Contains(refusals, se.Reason) {
		return false
	}
	code := se.ErrorCode()
	return code >= 500 && code <= 599
}

func (s SMTP) options() []gm.Option {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	opts := []gm.Option{gm.WithPort(s.Port), gm.WithTimeout(timeout), gm.WithHELO(helo(s.From))}
	switch s.TLS {
	case TLSImplicit:
		opts = append(opts, gm.WithSSL())
	case TLSNone:
		opts = append(opts, gm.WithTLSPolicy(gm.NoTLS))
	default:
		opts = append(opts, gm.WithTLSPolicy(gm.TLSMandatory))
	}
	if s.TLSConfig != nil {
		opts = append(opts, gm.WithTLSConfig(s.TLSConfig))
	}
	if s.Username != "" {
		auth := gm.SMTPAuthPlain
		if s.TLS == TLSNone {
			auth = gm.SMTPAuthPlainNoEnc
		}
		opts = append(opts, gm.WithSMTPAuth(auth), gm.WithUsername(s.Username), gm.WithPassword(s.Password))
	}
	return opts
}

func helo(from string) string {
	if _, d, ok := strings.Cut(from, "@"); ok {
		return d
	}
	return "localhost"
}

// compose builds the MIME mail: text/plain always, the HTML alternative, inline images
// (cid:NAME) and attachments; one thread by In-Reply-To/References; Auto-Submitted:
// auto-replied so that well-behaved responders do not answer us (RFC 3834).
func (s SMTP) compose(o Outgoing) (*gm.Msg, error) {
	m := gm.NewMsg(gm.WithNoDefaultUserAgent())
	if err := m.From(s.From); err != nil {
		return nil, err
	}
	if err := m.To(o.To...); err != nil {
		return nil, err
	}
	if o.ReplyTo != "" {
		if err := m.ReplyTo(o.ReplyTo); err != nil {
			return nil, err
		}
	}
	m.Subject(o.Subject)
	m.SetMessageIDWithValue(o.MessageID)
	m.SetDate()
	if o.InReplyTo != "" {
		m.SetGenHeaderPreformatted(gm.HeaderInReplyTo, "<"+o.InReplyTo+">")
	}
	if len(o.References) > 0 {
		m.SetGenHeaderPreformatted(gm.HeaderReferences, "<"+strings.Join(o.References, "> <")+">")
	}
	m.SetGenHeader(gm.Header("Auto-Submitted"), "auto-replied")
	m.SetBodyString(gm.TypeTextPlain, o.Text)
	if o.HTML != "" {
		m.AddAlternativeString(gm.TypeTextHTML, o.HTML)
	}
	for _, a := range o.Attachments {
		ct := gm.WithFileContentType(gm.ContentType(a.ContentType))
		var err error
		if a.Inline {
			err = m.EmbedReader(a.Name, bytes.NewReader(a.Data), ct, gm.WithFileContentID("<"+a.Name+">"))
		} else {
			err = m.AttachReader(a.Name, bytes.NewReader(a.Data), ct)
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Probe reports whether the server accepts a connection (a TCP connect, closed at once): a
// cheap sign that it answers again after an outage.
func (s SMTP) Probe(ctx context.Context) error {
	d := net.Dialer{Timeout: cmp.Or(s.Timeout, 60*time.Second)}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
	if err != nil {
		return fmt.Errorf("smtp probe: %w", err)
	}
	return c.Close()
}
