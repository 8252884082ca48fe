package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"navarch/mail/mailtest"
)

// refusing is an SMTP server that answers each stage as told: a non-nil error is the
// server's reply to that command.
type refusing struct{ mailFrom, rcpt, data error }

func (r *refusing) NewSession(*smtp.Conn) (smtp.Session, error) { return r, nil }
func (r *refusing) Mail(string, *smtp.MailOptions) error        { return r.mailFrom }
func (r *refusing) Rcpt(string, *smtp.RcptOptions) error        { return r.rcpt }
func (r *refusing) Data(rd io.Reader) error {
	io.Copy(io.Discard, rd)
	return r.data
}
func (r *refusing) Reset()        {}
func (r *refusing) Logout() error { return nil }

// smtpServer serves a go-smtp backend on loopback until the test ends and returns the
// sender's settings for it.
func smtpServer(t *testing.T, b smtp.Backend) SMTP {
	t.Helper()
	srv := smtp.NewServer(b)
	srv.Domain, srv.AllowInsecureAuth, srv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return SMTP{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, TLS: TLSNone, From: "navarch@host.example", Timeout: 5 * time.Second}
}

func smtpError(code int, text string) error {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCodeNotSet, Message: text}
}

// Only a refusal of the mail itself (its recipient or its content) is permanent; a refusal
// of our own sender, or anything temporary, is retried, so a misconfiguration loses nothing.
func TestSendFailures(t *testing.T) {
	cases := []struct {
		name      string
		server    refusing
		temporary bool
	}{
		{"delivered", refusing{}, false},
		{"recipient refused", refusing{rcpt: smtpError(550, "no such user")}, false},
		{"content refused", refusing{data: smtpError(554, "rejected as spam")}, false},
		{"recipient later", refusing{rcpt: smtpError(450, "mailbox busy")}, true},
		{"our sender refused", refusing{mailFrom: smtpError(550, "not allowed to send as this address")}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := smtpServer(t, &c.server)
			err := s.Send(context.Background(), Outgoing{MessageID: "1.t@host.example", To: []string{"bob@example.com"}, Subject: "s", Text: "t"})
			switch {
			case c.name == "delivered":
				if err != nil {
					t.Fatalf("delivery failed: %v", err)
				}
			case err == nil:
				t.Fatal("a refusal was taken for a delivery")
			case errors.Is(err, ErrTemporary) != c.temporary:
				t.Errorf("temporary = %v, want %v: %v", errors.Is(err, ErrTemporary), c.temporary, err)
			}
			if err != nil && !strings.Contains(err.Error(), "1.t@host.example") {
				t.Errorf("the error does not name the mail: %v", err)
			}
		})
	}
}

// capture is an SMTP server that keeps the last mail's data.
type capture struct {
	refusing
	data []byte
}

func (c *capture) NewSession(*smtp.Conn) (smtp.Session, error) { return c, nil }
func (c *capture) Data(rd io.Reader) error {
	var err error
	c.data, err = io.ReadAll(rd)
	return err
}

// A player's tokenized reply address goes out as Reply-To, and comes back among the
// recipients of the reply.
func TestReplyToRoundTrip(t *testing.T) {
	c := &capture{}
	s := smtpServer(t, c)
	if err := s.Send(context.Background(), Outgoing{MessageID: "2.t@host.example", To: []string{"alice@example.org"},
		ReplyTo: "navarch+abcdefgh@host.example", Subject: "s", Text: "t"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c.data), "Reply-To: <navarch+abcdefgh@host.example>") {
		t.Fatalf("no Reply-To in:\n%s", c.data)
	}
	reply := "From: alice@example.org\r\nTo: <navarch+abcdefgh@host.example>\r\nCc: other@example.org\r\nDelivered-To: navarch+abcdefgh@host.example\r\nSubject: Re: s\r\n\r\nJOIN\r\n"
	in, err := Parse([]byte(reply), Options{})
	if err != nil || strings.Join(in.Recipients, " ") != "navarch+abcdefgh@host.example other@example.org navarch+abcdefgh@host.example" {
		t.Errorf("recipients of the reply: %q, %v", in.Recipients, err)
	}
}

// Issue 12.1: only an explicit 5xx refusal of the recipient or the content is permanent; a
// connection that drops or hangs at RCPT, at DATA or before the reply after DATA, and every
// 4xx, is temporary (the server may not have the mail: it is sent again).
func TestSendFaultsThroughAServer(t *testing.T) {
	cases := []struct {
		fault     mailtest.Fault
		name      string
		temporary bool
		kind      string // SendErrorKind's
	}{
		{mailtest.DropAtRcpt, "drop at RCPT", true, KindConnection},
		{mailtest.DropAfterData, "drop after DATA", true, KindConnection},
		{mailtest.Hang, "hang after DATA", true, KindConnection},
		{mailtest.TempRcpt, "450 at RCPT", true, KindTemporary},
		{mailtest.TempData, "451 after DATA", true, KindTemporary},
		{mailtest.RefuseRcpt, "550 at RCPT", false, KindRefused},
		{mailtest.RefuseData, "554 after DATA", false, KindRefused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := mailtest.Start(t)
			srv.Set(c.fault, 0)
			srv.SetHang(2 * time.Second)
			s := SMTP{Host: "127.0.0.1", Port: srv.Port, TLS: TLSNone, From: "navarch@host.example", Timeout: 500 * time.Millisecond}
			err := s.Send(context.Background(), Outgoing{MessageID: "3.t@host.example", To: []string{"bob@example.com"}, Subject: "s", Text: "t"})
			if err == nil {
				t.Fatal("a failed send was taken for a delivery")
			}
			if errors.Is(err, ErrTemporary) != c.temporary {
				t.Errorf("temporary = %v, want %v: %v", errors.Is(err, ErrTemporary), c.temporary, err)
			}
			if k := SendErrorKind(err); k != c.kind {
				t.Errorf("SendErrorKind = %s, want %s: %v", k, c.kind, err)
			}
			if len(srv.Accepted()) != 0 {
				t.Errorf("the server accepted %d mails", len(srv.Accepted()))
			}
		})
	}
}

// SendErrorKind tells the operator's failures (a refused login, TLS) from the others, through
// the layers of wrapping Send and Check put on them.
func TestSendErrorKind(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // nothing listens there
	s := SMTP{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, TLS: TLSNone, From: "navarch@host.example", Timeout: 500 * time.Millisecond}
	err = s.Send(context.Background(), Outgoing{MessageID: "4.t@host.example", To: []string{"bob@example.com"}, Subject: "s", Text: "t"})
	if k := SendErrorKind(err); k != KindConnection || !errors.Is(err, ErrTemporary) {
		t.Errorf("a server down: %s, %v; want connection, temporary", k, err)
	}
	cases := map[string]error{
		KindAuth:       fmt.Errorf("send x: %w: %w", ErrTemporary, fmt.Errorf("SMTP AUTH failed: %w", &textproto.Error{Code: 535, Msg: "5.7.8 bad credentials"})),
		KindTLS:        fmt.Errorf("send x: %w: %w", ErrTemporary, &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}),
		KindTemporary:  fmt.Errorf("send x: %w: %w", ErrTemporary, &textproto.Error{Code: 421, Msg: "try later"}),
		KindConnection: fmt.Errorf("send x: %w: %w", ErrTemporary, io.EOF),
	}
	for want, err := range cases {
		if k := SendErrorKind(err); k != want {
			t.Errorf("%v: %s, want %s", err, k, want)
		}
	}
	if k := SendErrorKind(fmt.Errorf("smtp MAIL FROM:<a@b>: %w", &textproto.Error{Code: 530, Msg: "5.7.0 Authentication required"})); k != KindAuth {
		t.Errorf("530 at MAIL FROM: %s, want auth", k)
	}
	if !Operators(KindAuth) || !Operators(KindTLS) || Operators(KindConnection) || Operators(KindTemporary) {
		t.Error("Operators: only auth and tls are the operator's")
	}
}
