package mail

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // every charset, not only UTF-8 and ASCII
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Errors of Parse. Each is answered (or, for an unanswerable mail, dropped) by the daemon.
var (
	ErrTooBig    = errors.New("mail: message too big")
	ErrMalformed = errors.New("mail: message cannot be read")
	ErrNoText    = errors.New("mail: message has no text")
)

// DefaultMaxSize caps an incoming mail (docs/DESIGN.md 4: a size cap).
const DefaultMaxSize = 256 << 10

// Incoming is an incoming mail as navarch reads it.
type Incoming struct {
	MessageID  string // without <>
	From       string // the address, lower-cased
	FromName   string
	Subject    string
	InReplyTo  []string
	References []string
	Date       time.Time
	Text       string // the body, cleaned: no quoted reply, no signature, LF line ends
	FromHTML   bool   // the text was converted from an HTML-only mail
	NoReply    string // why the mail must not be answered (RFC 3834), or ""
	// Bulk is a header asking not to be auto-answered; the host drops such mail only when it
	// does not authenticate.
	Bulk        string
	AuthResults []string
	// Recipients are the addresses the mail was sent to (To, Cc, Delivered-To,
	// X-Original-To), lower-cased: a tokenized reply address shows among them.
	Recipients []string
}

// Options tune Parse.
type Options struct {
	MaxSize int
	// Own reports whether a Message-ID is one navarch wrote (its own mail coming back).
	Own func(messageID string) bool
	// Self reports whether a From address is navarch's own: such mail is never answered,
	// whatever its Message-ID and headers (a loop, or a forgery).
	Self func(address string) bool
}

// Parse reads a raw mail. A mail that must not be answered is still parsed as far as it can
// be, with NoReply set; the caller drops it.
func Parse(raw []byte, opts Options) (*Incoming, error) {
	if opts.MaxSize == 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if len(raw) > opts.MaxSize {
		err := fmt.Errorf("%w: %d KB, the limit is %d KB", ErrTooBig, (len(raw)+1023)/1024, opts.MaxSize/1024)
		return headerOnly(raw, opts), err
	}
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	defer mr.Close()
	in := readHeader(mr.Header)
	in.NoReply, in.Bulk = noReply(mr.Header, in, opts), bulk(mr.Header)
	plain, html, err := bodies(mr)
	switch {
	case err != nil:
		return in, fmt.Errorf("%w: %v", ErrMalformed, err)
	case strings.TrimSpace(plain) != "":
		in.Text = Clean(plain)
	case strings.TrimSpace(html) != "":
		in.Text, in.FromHTML = Clean(HTMLToText(html)), true
	default:
		return in, ErrNoText
	}
	return in, nil
}

// headerOnly reads the header of a mail too big to read whole, so that its sender can be
// told (or, for mail that must not be answered, not told); nil if there is no header.
func headerOnly(raw []byte, opts Options) *Incoming {
	th, err := textproto.ReadHeader(bufio.NewReader(io.LimitReader(bytes.NewReader(raw), maxHeader)))
	if err != nil {
		return nil
	}
	h := gomail.Header{Header: message.Header{Header: th}}
	in := readHeader(h)
	in.NoReply, in.Bulk = noReply(h, in, opts), bulk(h)
	return in
}

// maxHeader bounds the header read of a mail too big to read whole.
const maxHeader = 64 << 10

func readHeader(h gomail.Header) *Incoming {
	in := &Incoming{}
	in.MessageID, _ = h.MessageID()
	if from, err := h.AddressList("From"); err == nil && len(from) > 0 {
		in.From, in.FromName = strings.ToLower(from[0].Address), from[0].Name
	}
	in.Subject, _ = h.Subject()
	in.InReplyTo, _ = h.MsgIDList("In-Reply-To")
	in.References, _ = h.MsgIDList("References")
	in.Date, _ = h.Date()
	in.AuthResults = h.Values("Authentication-Results")
	for _, k := range []string{"To", "Cc"} {
		list, _ := h.AddressList(k)
		for _, a := range list {
			in.Recipients = append(in.Recipients, strings.ToLower(a.Address))
		}
	}
	for _, k := range []string{"Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(k) {
			if a, err := netmail.ParseAddress(v); err == nil {
				in.Recipients = append(in.Recipients, strings.ToLower(a.Address))
			}
		}
	}
	return in
}

// noReply applies RFC 3834 and common practice: no answer to auto-replies (Auto-Submitted
// other than "no", X-Autoreply), bounces (null Return-Path,
// mailer-daemon, delivery reports), mailing lists (List-Id and friends), or our own mail.
func noReply(h gomail.Header, in *Incoming, opts Options) string {
	lower := func(k string) string { return strings.ToLower(strings.TrimSpace(h.Get(k))) }
	ct, _, _ := h.ContentType()
	local, _, _ := strings.Cut(in.From, "@")
	switch {
	case in.From == "":
		return "no From address"
	case opts.Own != nil && in.MessageID != "" && opts.Own(in.MessageID):
		return "our own mail"
	case opts.Self != nil && opts.Self(in.From):
		return "from our own address"
	case lower("Auto-Submitted") != "" && lower("Auto-Submitted") != "no":
		return "auto-submitted (RFC 3834)"
	case h.Get("X-Autoreply") != "" || h.Get("X-Autorespond") != "":
		return "automatic reply"
	case strings.TrimSpace(h.Get("Return-Path")) == "<>":
		return "bounce (null Return-Path)"
	case local == "mailer-daemon" || local == "postmaster":
		return "bounce (" + local + ")"
	case ct == "multipart/report":
		return "delivery or disposition report"
	case h.Get("List-Id") != "" || h.Get("List-Unsubscribe") != "" || h.Get("List-Post") != "":
		return "mailing list"
	}
	return ""
}

// bulk names a header that asks others not to answer the mail automatically: Outlook's
// X-Auto-Response-Suppress, or Precedence bulk, junk or list. A person's client may send them
// on any mail (they do not make the mail automatic), so they only keep navarch from answering
// mail that does not authenticate.
func bulk(h gomail.Header) string {
	lower := func(k string) string { return strings.ToLower(strings.TrimSpace(h.Get(k))) }
	switch p := lower("Precedence"); {
	case h.Get("X-Auto-Response-Suppress") != "":
		return "X-Auto-Response-Suppress: " + strings.TrimSpace(h.Get("X-Auto-Response-Suppress"))
	case p == "bulk" || p == "junk" || p == "list":
		return "Precedence: " + p
	}
	return ""
}

// bodies returns the first text/plain and the first text/html part, decoded to UTF-8. Parts
// in an unknown charset are read as they are.
func bodies(mr *gomail.Reader) (plain, html string, err error) {
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return plain, html, nil
		}
		if err != nil && !message.IsUnknownCharset(err) {
			return plain, html, err
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue // attachments are not read
		}
		ct, _, _ := h.ContentType()
		b, rerr := io.ReadAll(io.LimitReader(p.Body, DefaultMaxSize))
		if rerr != nil && !message.IsUnknownCharset(rerr) {
			return plain, html, rerr
		}
		switch {
		case (ct == "text/plain" || ct == "") && plain == "":
			plain = string(b)
		case ct == "text/html" && html == "":
			html = string(b)
		}
	}
}
