package host

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
	"navarch/templates"
)

// recipient is a player of record or a referee's address.
type recipient struct {
	p       *player
	address string
}

// side is the recipient's side, or "" for a referee.
func (r recipient) side() string {
	if r.p == nil {
		return ""
	}
	return r.p.Side
}

func (r recipient) to() string {
	if r.p != nil {
		return r.p.Address
	}
	return r.address
}

// queue renders a mail and puts it in the outbox (sent after the transaction commits). Each
// game is one thread: every mail refers to the game's first one (docs/DESIGN.md 4). The
// subject is clipped to fit a phone's inbox line (subject.go).
func (h *Host) queue(tx *store.Tx, g *game, r recipient, kind, subject string, body any, inReplyTo string, files []mail.Attachment) error {
	id := h.gameID(g)
	// Every mail that names the log's head carries it signed (docs/LOG-FORMAT.md 5,
	// finding 7): each saved mail pins the log, not only the mails at a turn's end.
	c, err := ledger.SignedHead(tx, id)
	if err != nil {
		return err
	}
	m := templates.Mail{Game: g.Tag, Title: g.Title, LogSize: c.Size, LogHead: fmt.Sprintf("%x", c.Head[:8]), Body: body}
	if c.Size > 0 {
		m.Checkpoint = c.Block()
	}
	m.Note = g.note.For(inReplyTo)
	if err := numbered(tx, id, g, &m); err != nil {
		return err
	}
	m.ReplyTokens = h.tokenized(g, r)
	if r.p != nil {
		m.Player, m.Side, m.Zone = called(r.p), r.p.Side, r.p.Zone
	} else if !slices.Contains(g.Referees, r.address) {
		m.Stranger = true // neither player nor referee: a former player, or someone refused
	} else {
		m.Zone = g.RefereeZones[r.address]
	}
	parts, err := templates.Render(kind, m)
	if err != nil {
		return err
	}
	g.Seq++
	replyTo, err := h.replyTo(tx, g, r)
	if err != nil {
		return err
	}
	o := mail.Outgoing{MessageID: h.gameMessageID(tx, g), To: []string{r.to()}, ReplyTo: replyTo,
		Subject: fmt.Sprintf("[navarch %s] %s", g.Tag, fitSubject(g.Tag, subject)), Text: parts.Text, HTML: parts.HTML, Attachments: files,
		Game: g.Tag, Kind: kind}
	if g.Root == "" {
		g.Root = o.MessageID
	} else {
		o.References = []string{g.Root}
		o.InReplyTo = g.Root
	}
	if inReplyTo != "" {
		o.InReplyTo = inReplyTo
		o.References = append(o.References, inReplyTo)
	}
	_, err = store.OutboxAddAs(tx, o.Marshal(), outboxClass[kind])
	return err
}

// outboxClass names the mails that are queued many times over in much the same words: the
// welcome mails, two or more for every game created. The outbox keeps one of
// them whole as a dictionary and of each other only what differs (store.OutboxAddAs).
var outboxClass = map[string]string{"welcome": "welcome", "refwelcome": "refwelcome"}

// notice answers a mail in a few lines.
func (h *Host) notice(tx *store.Tx, g *game, r recipient, inReplyTo string, lines ...string) error {
	lines = visibleLines(lines)
	return h.queue(tx, g, r, "notice", noticeSubject(lines), templates.Notice{Lines: lines}, inReplyTo, nil)
}

// noticeSubject says what a notice is: "notice: " and its first line's first
// words, "notice: You have joined the game.".
func noticeSubject(lines []string) string {
	first := ""
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			first, _, _ = strings.Cut(l, "\n")
			break
		}
	}
	first = strings.Map(func(r rune) rune {
		if hidden(r) || r == '\t' {
			return ' '
		}
		return r
	}, first)
	if r := []rune(first); len(r) > 60 {
		first = strings.TrimSpace(string(r[:59])) + "…"
	}
	if first == "" {
		return "notice"
	}
	return "notice: " + first
}

// stranger answers a mail that no game of ours can take: it names no game we know, or a
// game the sender is not in, or it cannot be read. A player, referee or game master of any
// game is told what was wrong (lines); anyone else gets fixed text, at most once a day per
// address, that echoes nothing of the mail, so that navarch cannot be made to mail text of
// someone's choosing to a third party (backscatter).
func (h *Host) stranger(tx *store.Tx, to, inReplyTo string, lines ...string) error {
	known, err := h.known(tx, to)
	if err != nil {
		return err
	}
	if known {
		return h.strangerMail(tx, to, inReplyTo, "none", lines...)
	}
	day := h.cfg.Now().UTC().Format("2006-01-02")
	first, err := store.AnswerStranger(tx, to, day)
	if err != nil {
		return err
	}
	if !first {
		return h.dropStranger(tx, to, inReplyTo)
	}
	parts, err := templates.Render("notice", templates.Mail{Game: "none", Title: "navarch", Stranger: true, Body: templates.Notice{Lines: strangerText}})
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(to + " " + day))
	o := mail.Outgoing{MessageID: h.messageID(tx, fmt.Sprintf("s%x.stranger", sum[:12])), To: []string{to},
		Subject: "[navarch] your mail", Text: parts.Text, HTML: parts.HTML, Kind: "stranger"}
	_, err = store.OutboxAdd(tx, o.Marshal())
	return err
}

// strangerText is all a stranger is ever told.
var strangerText = []string{
	"This is navarch, a server that referees games played by mail. Your mail was not applied: it names no game you play here, or it could not be read.",
	"Players put their game's tag in the subject, like [navarch lep-7f3a], and send from the address they play with. Further mail from your address today gets no answer.",
}

// known reports whether an address plays or referees a game here (or did: an index kept by
// saveGame, so that no game is read), or is a game master.
func (h *Host) known(tx *store.Tx, address string) (bool, error) {
	_, master := h.cfg.GameMasters[address]
	return master || store.Known(tx, address), nil
}

// markKnown adds a game's players and referees to the index of known addresses.
func markKnown(tx *store.Tx, g *game) error {
	addrs := slices.Clone(g.Referees)
	for _, p := range g.Players {
		addrs = append(addrs, p.Address)
	}
	for _, a := range addrs {
		if err := store.MarkKnown(tx, a); err != nil {
			return err
		}
	}
	return nil
}

// self reports whether an address is navarch's own, with or without a reply token
// (local+token@domain): mail from it is never answered.
func (h *Host) self(address string) bool {
	local, domain, ok := strings.Cut(strings.ToLower(h.cfg.Address), "@")
	if !ok {
		return false
	}
	l, d, _ := strings.Cut(strings.ToLower(address), "@")
	l, _, _ = strings.Cut(l, "+")
	return l == local && d == domain
}

// strangerMail is a notice outside any game; kind tells apart the Message-IDs of notices
// that answer the same mail.
func (h *Host) strangerMail(tx *store.Tx, to, inReplyTo, kind string, lines ...string) error {
	parts, err := templates.Render("notice", templates.Mail{Game: "none", Title: "navarch", Stranger: true, Body: templates.Notice{Lines: visibleLines(lines)}})
	if err != nil {
		return err
	}
	base := strings.ReplaceAll(inReplyTo, "@", ".")
	if base == "" { // a mail without a Message-ID: its answer still needs an id of its own
		base = fmt.Sprintf("t%d", h.cfg.Now().UnixNano())
	}
	o := mail.Outgoing{MessageID: h.messageID(tx, base+"."+kind), To: []string{to},
		Subject: "[navarch] your mail", Text: parts.Text, HTML: parts.HTML, InReplyTo: inReplyTo,
		Kind: "notice"}
	_, err = store.OutboxAdd(tx, o.Marshal())
	return err
}

// export attaches a side's copy of the log.
func export(tx *store.Tx, g *game, id ident.GameID, side string, full bool) (mail.Attachment, error) {
	var b strings.Builder
	err := ledger.Export(tx, id, ledger.View{Side: side, Full: full}, &b)
	name := g.Tag + map[bool]string{true: "-full", false: "-" + side}[full] + ".log"
	return mail.Attachment{Name: name, ContentType: "text/plain", Data: []byte(b.String())}, err
}

// visible shows the control and bidirectional formatting characters of s as Go escapes
// (\x00, \u202e), so that a mail's bytes echoed into an answer cannot hide or reorder what
// it says; it reports whether it changed anything.
func visible(s string) (string, bool) {
	if !strings.ContainsFunc(s, hidden) {
		return s, false
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !hidden(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String(), true
}

func hidden(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f)
}

// shownVisibly is said when visible changed what a mail echoes.
const shownVisibly = `(Control characters in your mail are shown as \x00 and the like.)`

// visibleLines applies visible to lines, and says so after them if it changed anything.
func visibleLines(lines []string) []string {
	out, changed := make([]string, len(lines)), false
	for i, l := range lines {
		var c bool
		out[i], c = visible(l)
		changed = changed || c
	}
	if changed {
		out = append(out, shownVisibly)
	}
	return out
}
