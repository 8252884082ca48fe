package mailtest

import (
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// IMAP is go-imap's memory server on loopback with one user and its INBOX, as navarch's
// mailbox: IMAP4rev1 and IMAP4rev2, the password taken without TLS too.
type IMAP struct {
	User               *imapmemserver.User
	Port               int
	Username, Password string
}

// NewIMAP starts the server on a free loopback port for username and password, speaking TLS
// from the first byte with tlsConfig (nil: plain IMAP); it is closed at the end of the test.
func NewIMAP(t testing.TB, username, password string, tlsConfig *tls.Config) *IMAP {
	t.Helper()
	user := imapmemserver.NewUser(username, password)
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem := imapmemserver.New()
	mem.AddUser(user)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps: imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}, InsecureAuth: true, Logger: log.New(io.Discard, "", 0),
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &IMAP{User: user, Port: port, Username: username, Password: password}
}

// Deliver appends raw to the INBOX, as a mail arriving.
func (s *IMAP) Deliver(raw string) error {
	if _, err := s.User.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		return fmt.Errorf("deliver to INBOX: %w", err)
	}
	return nil
}
