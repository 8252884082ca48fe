package host

import (
	"fmt"

	"navarch/mail"
	"navarch/store"
)

// answerNote is a line said before the answer to one mail (templates.Mail.Note).
type answerNote struct{ msgID, text string }

// For is the note for the answer to the mail with this Message-ID, or "".
func (n answerNote) For(inReplyTo string) string {
	if n.msgID == "" || n.msgID != inReplyTo {
		return ""
	}
	return n.text
}

// noteClosedStep: orders (or CHECK, or NONE) sent in reply to navarch's mail for a step
// that is closed now are read for the step open now, as any orders are, and the answer
// (receipt or refusal) begins by saying so: the player may have meant them for the closed
// step. The step a mail was written for is in its Message-ID (own.go).
func (h *Host) noteClosedStep(tx *store.Tx, a *actor) {
	switch a.req.Command {
	case mail.CmdOrders, mail.CmdCheck, mail.CmdNone:
	default:
		return
	}
	open := a.g.Step
	if open == nil || open.Opened == 0 || a.msg.MessageID == "" {
		return
	}
	was, ok := h.answered(tx, a.msg, a.g.Tag)
	if !ok || was.Opened == open.Opened {
		return
	}
	a.g.note = answerNote{msgID: a.msg.MessageID, text: fmt.Sprintf(
		"The request your mail answers (turn %d, activation %d) is closed: it was resolved before your mail came. "+
			"Your mail was read for the step open now: turn %d, activation %d, %s.", was.Turn, was.Act, open.Turn, open.Act, open.What)}
}
