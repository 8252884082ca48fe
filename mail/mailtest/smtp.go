// Package mailtest holds the mail servers of the tests: an SMTP server that misbehaves on
// command, and go-imap's memory server as navarch's mailbox.
package mailtest

import (
	"bytes"
	"io"
	"log"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Fault is how the server misbehaves.
type Fault int

// The SMTP faults of docs/RELIABILITY.md, Goals. A dropped connection never replies, so the mail is not accepted.
const (
	OK            Fault = iota // accept everything
	DropAtRcpt                 // close the connection on RCPT
	DropAfterData              // read the whole mail, then close without the final reply
	Hang                       // read the whole mail, then answer nothing until the client gives up
	TempRcpt                   // 450 to RCPT
	TempData                   // 451 after the data
	RefuseRcpt                 // 550 to RCPT
	RefuseData                 // 554 after the data
	Slow                       // read the whole mail, wait (SetHang), then accept it
)

// Server is a go-smtp server on loopback that keeps each mail it accepted (a 250 after
// DATA) and misbehaves as told.
type Server struct {
	Port int

	mu       sync.Mutex
	fault    Fault
	every    int // with a fault: only every nth DATA (or RCPT) suffers it; 0 or 1: all
	n        int // DATA (or RCPT) commands so far under this fault
	hang     time.Duration
	accepted [][]byte
	tries    int
	srv      *smtp.Server
	ln       net.Listener // closed by Down even before srv.Serve has taken it
	t        testing.TB
	deferred map[string]bool // recipients answered 450 at RCPT (Defer)
}

// Start serves on 127.0.0.1 until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{hang: 3 * time.Second, t: t}
	if err := s.listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Down() })
	return s
}

func (s *Server) listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := smtp.NewServer(s)
	srv.Domain, srv.AllowInsecureAuth, srv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	s.mu.Lock()
	s.Port, s.srv, s.ln = ln.Addr().(*net.TCPAddr).Port, srv, ln
	s.mu.Unlock()
	go srv.Serve(ln)
	return nil
}

// Down stops the server: connections are refused until Up.
func (s *Server) Down() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if ln != nil {
		ln.Close()
	}
	if srv != nil {
		srv.Close()
	}
}

// Up serves again on the same port.
func (s *Server) Up() {
	if err := s.listen(net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))); err != nil {
		s.t.Fatal(err)
	}
}

// Set makes the server misbehave with f on every nth DATA (RCPT for the RCPT faults); n 0
// or 1 means on every one.
func (s *Server) Set(f Fault, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault, s.every, s.n = f, n, 0
}

// Defer has the server answer RCPT to one recipient with a 450 (a greylisting or a full
// mailbox), whatever the fault; Defer(to, false) ends it.
func (s *Server) Defer(to string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deferred == nil {
		s.deferred = map[string]bool{}
	}
	s.deferred[to] = on
}

// SetHang sets how long a hanging server waits before it closes the connection.
func (s *Server) SetHang(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hang = d
}

// Accepted returns the raw mails the server accepted, in order.
func (s *Server) Accepted() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.accepted...)
}

// Tries is how many DATA commands the server has seen.
func (s *Server) Tries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tries
}

// MessageIDs returns the Message-ID of each accepted mail, in order.
func (s *Server) MessageIDs() []string {
	var out []string
	for _, raw := range s.Accepted() {
		out = append(out, MessageID(raw))
	}
	return out
}

// MessageID reads a raw mail's Message-ID, without <>.
func MessageID(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return strings.Trim(m.Header.Get("Message-ID"), "<> ")
}

// strike reports whether the fault f strikes this command, counting it.
func (s *Server) strike(f ...Fault) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range f {
		if s.fault == x {
			s.n++
			return x, s.every <= 1 || s.n%s.every == 0
		}
	}
	return OK, false
}

// NewSession implements smtp.Backend.
func (s *Server) NewSession(c *smtp.Conn) (smtp.Session, error) { return &session{s: s, c: c}, nil }

type session struct {
	s *Server
	c *smtp.Conn
}

func (x *session) Mail(string, *smtp.MailOptions) error { return nil }

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.s.mu.Lock()
	deferred := x.s.deferred[to]
	x.s.mu.Unlock()
	if deferred {
		return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 2, 0}, Message: "mailbox busy, try later"}
	}
	f, hit := x.s.strike(DropAtRcpt, TempRcpt, RefuseRcpt)
	if !hit {
		return nil
	}
	switch f {
	case DropAtRcpt:
		x.c.Conn().Close()
		return io.EOF
	case TempRcpt:
		return &smtp.SMTPError{Code: 450, EnhancedCode: smtp.EnhancedCode{4, 2, 0}, Message: "mailbox busy, try later"}
	}
	return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	x.s.tries++
	hang := x.s.hang
	x.s.mu.Unlock()
	f, hit := x.s.strike(DropAfterData, Hang, TempData, RefuseData, Slow)
	if hit {
		switch f {
		case Slow:
			time.Sleep(hang)
		case DropAfterData:
			x.c.Conn().Close()
			return io.EOF
		case Hang:
			time.Sleep(hang)
			x.c.Conn().Close()
			return io.EOF
		case TempData:
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "local error, try later"}
		case RefuseData:
			return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "rejected as spam"}
		}
	}
	x.s.mu.Lock()
	x.s.accepted = append(x.s.accepted, data)
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        {}
func (x *session) Logout() error { return nil }
