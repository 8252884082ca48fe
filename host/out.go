package host

import (
	"fmt"
	"slices"
	"strings"

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
// game is one thread: every mail refers to the game's first one (docs/DESIGN.md 4).
func (h *Host) queue(tx *store.Tx, g *game, r recipient, kind, subject string, body any, inReplyTo string, files []mail.Attachment) error {
	id := h.gameID(g)
	n, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	head, err := store.HeadAt(tx, id, n)
	if err != nil {
		return err
	}
	m := templates.Mail{Game: g.Tag, Title: g.Title, LogSize: n, LogHead: fmt.Sprintf("%x", head[:8]), Body: body}
	if m.Checkpoint, err = headCheckpoint(tx, id, n, head); err != nil {
		return err
	}
	if g.Step != nil {
		m.Turn, m.Act, m.Deadline = int(g.Step.Turn), int(g.Step.Act), g.Step.Deadline
	}
	if r.p != nil {
		m.Player, m.Side, m.Zone = r.p.ID, r.p.Side, r.p.Zone
	} else if !slices.Contains(g.Referees, r.address) {
		m.Stranger = true // neither player nor referee: a former player, or someone refused
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
	o := mail.Outgoing{MessageID: fmt.Sprintf("%d.%s@%s", g.Seq, g.Tag, h.cfg.Domain), To: []string{r.to()}, ReplyTo: replyTo,
		Subject: fmt.Sprintf("[navarch %s] %s", g.Tag, subject), Text: parts.Text, HTML: parts.HTML, Attachments: files}
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
	_, err = store.OutboxAdd(tx, o.Marshal())
	return err
}

// notice answers a mail in a few lines.
func (h *Host) notice(tx *store.Tx, g *game, r recipient, inReplyTo string, lines ...string) error {
	return h.queue(tx, g, r, "notice", "notice", templates.Notice{Lines: lines}, inReplyTo, nil)
}

// stranger answers a mail that names no game we know: there is no thread to put it in.
func (h *Host) stranger(tx *store.Tx, to, inReplyTo string, lines ...string) error {
	return h.strangerMail(tx, to, inReplyTo, "none", lines...)
}

// strangerMail is a notice outside any game; kind tells apart the Message-IDs of notices
// that answer the same mail.
func (h *Host) strangerMail(tx *store.Tx, to, inReplyTo, kind string, lines ...string) error {
	parts, err := templates.Render("notice", templates.Mail{Game: "none", Title: "navarch", Stranger: true, Body: templates.Notice{Lines: lines}})
	if err != nil {
		return err
	}
	base := strings.ReplaceAll(inReplyTo, "@", ".")
	if base == "" { // a mail without a Message-ID: its answer still needs an id of its own
		base = fmt.Sprintf("t%d", h.cfg.Now().UnixNano())
	}
	o := mail.Outgoing{MessageID: fmt.Sprintf("%s.%s@%s", base, kind, h.cfg.Domain), To: []string{to},
		Subject: "[navarch] your mail", Text: parts.Text, HTML: parts.HTML, InReplyTo: inReplyTo}
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
