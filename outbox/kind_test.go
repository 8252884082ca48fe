package outbox

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"navarch/mail"
)

// loginServer is a go-smtp server that refuses every login (535), or, with noAuth, wants one
// and offers none, answering MAIL with 530.
type loginServer struct{ noAuth bool }

func (b loginServer) NewSession(*smtp.Conn) (smtp.Session, error) {
	if b.noAuth {
		return mailRefused{}, nil
	}
	return authSession{}, nil
}

type mailRefused struct{}

func (mailRefused) Mail(string, *smtp.MailOptions) error {
	return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
}
func (mailRefused) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (mailRefused) Data(io.Reader) error                 { return nil }
func (mailRefused) Reset()                               {}
func (mailRefused) Logout() error                        { return nil }

type authSession struct{ mailRefused }

func (authSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (authSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, _ string) error { return errors.New("bad password") }), nil
}

func startLoginServer(t *testing.T, b loginServer) int {
	t.Helper()
	srv := smtp.NewServer(b)
	srv.Domain, srv.AllowInsecureAuth, srv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// A refused login (535 to AUTH) and a server that wants one (530 to MAIL) are Auth: the
// operator's to mend, never a mail's failure.
func TestKindOfRefusedLogin(t *testing.T) {
	m := mail.Outgoing{MessageID: "1@navarch.test", To: []string{"bob@example.com"}, Subject: "s", Text: "t"}
	for _, b := range []loginServer{{}, {noAuth: true}} {
		c := mail.SMTP{Host: "127.0.0.1", Port: startLoginServer(t, b), TLS: mail.TLSNone, From: "navarch@host.example",
			Timeout: 2 * time.Second}
		if !b.noAuth {
			c.Username, c.Password = "navarch", "wrong"
		}
		err := c.Send(context.Background(), m)
		if k := KindOf(err); k != Auth {
			t.Errorf("noAuth %v: %v: kind %q, want auth", b.noAuth, err, k)
		}
	}
}
