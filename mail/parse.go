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

// The size caps (docs/DESIGN.md 4). DefaultMaxSize bounds the raw message, attachments
// included, for memory: an ordinary phone photo attached to orders is well within it.
// DefaultMaxText bounds each text part navarch reads (the text/plain or text/html body,
// decoded); attachments are not read.
const (
	DefaultMaxSize = 32 << 20
	DefaultMaxText = 256 << 10
)

// Incoming is an incoming mail as navarch reads it.
type Incoming struct {
	MessageID  string // without <>
	From       string // the address, lower-cased
	FromName   string
	Subject    string
	InReplyTo  []string
	References []string
	Date       time.Time
	Text       string // the new text of the body (ReadReply): no quoted reply, no signature, LF line ends
	FromHTML   bool   // the text was converted from an HTML-only mail
	NoReply    string // why the mail must not be answered (RFC 3834), or ""
	// Bulk is a header asking not to be auto-answered (X-Auto-Response-Suppress, Precedence
	// bulk, junk or list), or ""; the host drops such mail only when it does not
	// authenticate. Such a header does not make a mail automatic.
	Bulk        string
	AuthResults []string
	// Recipients are the addresses the mail was sent to (To, Cc, Delivered-To,
	// X-Original-To), lower-cased: a tokenized reply address shows among them.
	Recipients []string
}

// Options tune Parse.
type Options struct {
	MaxSize int // the cap on the raw message; default DefaultMaxSize
	MaxText int // the cap on each text part read; default DefaultMaxText
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
	if opts.MaxText == 0 {
		opts.MaxText = DefaultMaxText
	}
	if len(raw) > opts.MaxSize {
		err := fmt.Errorf("%w: %d KB, the limit is %d KB", ErrTooBig, (len(raw)+1023)/1024, opts.MaxSize/1024)
		return headerOnly(raw, opts), err
	}
	in, err := parse(raw, opts)
	if err != nil && !errors.Is(err, ErrTooBig) && !errors.Is(err, ErrNoText) && bytes.Contains(bytes.ToLower(raw), []byte("base64")) {
		if in2, err2 := parse(padBase64(raw), opts); err2 == nil {
			return in2, nil
		}
	}
	return in, err
}

// parse is Parse of a mail within the size cap.
func parse(raw []byte, opts Options) (*Incoming, error) {
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	defer mr.Close()
	in := readHeader(mr.Header)
	in.NoReply, in.Bulk = noReply(mr.Header, in, opts), bulk(mr.Header)
	plain, html, err := bodies(mr, opts.MaxText)
	switch {
	case errors.Is(err, ErrTooBig):
		return in, err
	case err != nil:
		return in, fmt.Errorf("%w: %v", ErrMalformed, err)
	case strings.TrimSpace(plain) != "":
		in.Text = ReadReply(plain, in.FromName, in.From)
	case strings.TrimSpace(html) != "":
		in.Text, in.FromHTML = ReadReply(HTMLText(html), in.FromName, in.From), true
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
// other than "no", X-Autoreply), bounces (null Return-Path, mailer-daemon, delivery
// reports), mailing lists (List-Id and friends), or our own mail. Headers that only ask
// others not to auto-answer are bulk's.
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

// bulk is why a mail asks not to be auto-answered, or "": X-Auto-Response-Suppress (which
// Outlook also puts on mail a person writes) or Precedence bulk, junk or list (RFC 3834 2).
func bulk(h gomail.Header) string {
	if v := strings.TrimSpace(h.Get("X-Auto-Response-Suppress")); v != "" {
		return "X-Auto-Response-Suppress: " + v
	}
	switch p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p {
	case "bulk", "junk", "list":
		return "Precedence: " + p
	}
	return ""
}

// bodies returns the first text/plain and the first text/html part, decoded to UTF-8, a
// format=flowed plain part unwrapped (RFC 3676). Parts in an unknown charset are read as
// they are; attachments and other parts are not read at all. A plain part over max bytes is
// ErrTooBig, and so is an HTML part over htmlFactor times max when there is no plain part.
// A broken part after a text part was read does not spoil the text.
func bodies(mr *gomail.Reader, max int) (plain, html string, err error) {
	var htmlErr error
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) {
			if plain != "" || html != "" {
				break
			}
			return "", "", err
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue // attachments are not read
		}
		ct, params, _ := h.ContentType()
		isPlain, isHTML := (ct == "text/plain" || ct == "") && plain == "", ct == "text/html" && html == ""
		if !isPlain && !isHTML {
			continue
		}
		limit := max
		if !isPlain {
			limit = htmlFactor * max
		}
		b, rerr := io.ReadAll(io.LimitReader(p.Body, int64(limit)+1))
		if rerr != nil && !message.IsUnknownCharset(rerr) {
			if plain != "" || html != "" {
				break
			}
			return "", "", rerr
		}
		if len(b) > limit {
			tooBig := fmt.Errorf("%w: its text is over %d KB, the limit", ErrTooBig, limit/1024)
			if isPlain {
				return "", "", tooBig
			}
			htmlErr = tooBig
			continue
		}
		switch {
		case isPlain && strings.EqualFold(params["format"], "flowed"):
			plain = unflow(string(b), strings.EqualFold(params["delsp"], "yes"))
		case isPlain:
			plain = string(b)
		default:
			html = string(b)
		}
	}
	if plain == "" && htmlErr != nil {
		return "", "", htmlErr
	}
	return plain, html, nil
}

// htmlFactor is how much larger than a plain part an HTML part may be: its markup and
// styles, and the quoted thread the clients put in it, take room its text does not.
const htmlFactor = 4
