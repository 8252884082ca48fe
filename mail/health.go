package mail

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"maps"
	"net"
	"net/textproto"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	gm "github.com/wneessen/go-mail"
)

// The kinds of a failure to reach a mail server (ErrorKind, SendErrorKind). Auth and TLS are
// the operator's to fix (a password, a certificate, a CA file); a connection failure and a
// temporary refusal mend themselves; a refusal concerns one mail only.
const (
	KindAuth       = "auth"       // the server refused navarch's login (IMAP NO at LOGIN; SMTP 530, 534, 535, 538)
	KindTLS        = "tls"        // the certificate or the TLS handshake failed, or STARTTLS is not offered
	KindConnection = "connection" // the server could not be reached, or the connection broke
	KindRefused    = "refused"    // a 5xx refusing one mail's recipient or content
	KindTemporary  = "temporary"  // anything else the server answered: a 4xx, an IMAP NO or BAD
)

// Kinds lists every kind, for metrics that show each.
var Kinds = []string{KindAuth, KindTLS, KindConnection, KindRefused, KindTemporary}

// Operators reports whether a failure of this kind is the operator's to fix: retrying
// alone will not mend it.
func Operators(kind string) bool { return kind == KindAuth || kind == KindTLS }

// errLogin marks an IMAP server's answer refusing the login.
var errLogin = errors.New("login refused")

// ErrorKind tells what kind of failure an intake (IMAP) error is.
func ErrorKind(err error) string {
	switch {
	case errors.Is(err, errLogin):
		return KindAuth
	case tlsFailure(err):
		return KindTLS
	case connFailure(err):
		return KindConnection
	}
	return KindTemporary
}

// SendErrorKind tells what kind of failure an SMTP.Send (or SMTP.Check) error is: the login
// refused (530 authentication required, 534, 535 bad credentials, 538, or no AUTH offered),
// TLS, the connection, a refusal of the mail (a 5xx to its recipient or content), or
// temporary (a 4xx, or anything else).
func SendErrorKind(err error) string {
	code := replyCode(err)
	switch {
	case code == 530 || code == 534 || code == 535 || code == 538 ||
		err != nil && (strings.Contains(err.Error(), "SMTP AUTH failed") || strings.Contains(err.Error(), "does not support SMTP AUTH")):
		return KindAuth
	case tlsFailure(err):
		return KindTLS
	case refused(err):
		return KindRefused
	case code == 0 && connFailure(err):
		return KindConnection
	}
	return KindTemporary
}

// replyCode is the SMTP reply code an error carries, or 0.
func replyCode(err error) int {
	var se *gm.SendError
	if errors.As(err, &se) {
		if c := se.ErrorCode(); c != 0 {
			return c
		}
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

func tlsFailure(err error) bool {
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
	)
	return errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verify) ||
		errors.As(err, &record) || errors.As(err, &alert) ||
		err != nil && (strings.Contains(err.Error(), "does not support STARTTLS") || strings.Contains(err.Error(), "tls: "))
}

func connFailure(err error) bool {
	var ne net.Error
	var imapErr *imap.Error
	if errors.As(err, &imapErr) {
		return false
	}
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed) {
		return true
	}
	if err == nil {
		return false
	}
	// go-mail's SendError keeps its causes as text only.
	text := err.Error()
	return slices.ContainsFunc([]string{": EOF", "i/o timeout", "connection reset", "connection refused", "broken pipe", "connection closed"},
		func(s string) bool { return strings.Contains(text, s) })
}

// Health is what one mail server connection has done lately (the mailbox's polls, the
// outbox's sends): when it last worked, and since when and why it fails. It is safe for
// concurrent use, and a nil *Health records nothing.
type Health struct {
	mu       sync.Mutex
	lastOK   time.Time
	since    time.Time // the first failure since lastOK; zero while it works
	err      error
	kind     string
	failures map[string]int
}

// HealthStatus is a copy of a Health.
type HealthStatus struct {
	LastOK       time.Time      // the last success (zero: none yet)
	FailingSince time.Time      // the first failure after the last success (zero: it works)
	Err          string         // the latest failure while it fails
	Kind         string         // its kind (KindAuth ...)
	Failures     map[string]int // failures by kind since the daemon started
}

// Failing is how long it has failed at now, 0 while it works.
func (s HealthStatus) Failing(now time.Time) time.Duration {
	if s.FailingSince.IsZero() {
		return 0
	}
	return max(now.Sub(s.FailingSince), time.Nanosecond)
}

// OK records a success.
func (h *Health) OK(now time.Time) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastOK, h.since, h.err, h.kind = now, time.Time{}, nil, ""
}

// Fail records a failure of a kind; it reports whether it is news: the first failure since
// the last success, or another kind than the last one.
func (h *Health) Fail(now time.Time, kind string, err error) bool {
	if h == nil {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	news := h.since.IsZero() || h.kind != kind
	if h.since.IsZero() {
		h.since = now
	}
	h.err, h.kind = err, kind
	if h.failures == nil {
		h.failures = map[string]int{}
	}
	h.failures[kind]++
	return news
}

// Status returns a copy of the health.
func (h *Health) Status() HealthStatus {
	if h == nil {
		return HealthStatus{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := HealthStatus{LastOK: h.lastOK, FailingSince: h.since, Kind: h.kind, Failures: maps.Clone(h.failures)}
	if h.err != nil {
		s.Err = h.err.Error()
	}
	return s
}
