package host

import (
	"navarch/store"
	"navarch/templates"
)

// One mail per moment per person (docs/DESIGN.md 3.5): what navarch has for a recipient when a
// transaction ends goes as one mail. A player is mailed when the game needs his orders, when
// a game turn ends, when his own orders were resolved, and for the game's lifecycle; each
// mail reports everything since his last (the log from his Reported size on, so that
// nothing held is kept anywhere but in the log and the game's record, both written in the
// transaction that queues the mail: a crash loses nothing and sends nothing twice). A player
// with REPORTS EACH is mailed every step's report; a referee is mailed one digest a game
// turn, and every announcement.

// heldReceipt is the receipt of the orders that complete a step, held until the step's
// reports are queued so that it leads the player's report (or goes alone if none is).
type heldReceipt struct {
	player    string // the player's id
	body      templates.Receipt
	inReplyTo string // the orders mail's Message-ID
}

// mailedNow reports whether r gets a mail of the reports now: ckpt says a game turn
// ended, over that the game did.
func mailedNow(g *game, r recipient, turnEnded, over bool) bool {
	switch {
	case over || turnEnded:
		return true
	case r.p == nil:
		return g.RefEach[r.address] // else a referee's digest goes at a game turn's end
	}
	return r.p.Each || asked(g, r) || ownReceipt(g, r) != nil
}

// ownReceipt is the receipt held for r, or nil.
func ownReceipt(g *game, r recipient) *heldReceipt {
	if g.receipt == nil || r.p == nil || g.receipt.player != r.p.ID {
		return nil
	}
	return g.receipt
}

// reportedFrom is where r's next report starts: start, or r's last report's end if that is
// earlier (what was held for him since). A player with REPORTS EACH was told everything
// up to start.
func reportedFrom(g *game, r recipient, start uint64) uint64 {
	var last uint64
	if r.p != nil {
		if r.p.Each {
			return start
		}
		last = r.p.Reported
	} else {
		if g.RefEach[r.address] {
			return start
		}
		last = g.RefReported[r.address]
	}
	if last > 0 && last < start {
		return last
	}
	return start
}

// markReported notes that r has been told the log up to n.
func markReported(g *game, r recipient, n uint64) {
	if r.p != nil {
		r.p.Reported = n
		return
	}
	if g.RefReported == nil {
		g.RefReported = map[string]uint64{}
	}
	g.RefReported[r.address] = n
}

// holdReceipt keeps the receipt of the orders that complete the step for the mail that
// reports it; sendHeldReceipt queues it alone if no report took it.
func (g *game) holdReceipt(p *player, body templates.Receipt, inReplyTo string) {
	g.receipt = &heldReceipt{player: p.ID, body: body, inReplyTo: inReplyTo}
}

// sendHeldReceipt queues the held receipt alone, if no report took it.
func (h *Host) sendHeldReceipt(tx *store.Tx, g *game) error {
	held := g.receipt
	if held == nil {
		return nil
	}
	g.receipt = nil
	for i := range g.Players {
		if g.Players[i].ID == held.player {
			return h.queue(tx, g, recipient{p: &g.Players[i]}, "receipt", receiptSubject(false), held.body, held.inReplyTo, nil)
		}
	}
	return nil
}

// reportsMode answers REPORTS EACH and REPORTS DIGEST (and DIGEST OFF and ON, their older
// names): every step's report, or a mail only at the moments that need the player.
func (h *Host) reportsMode(tx *store.Tx, a *actor, each bool) error {
	n, err := store.Len(tx, a.id)
	if err != nil {
		return err
	}
	if a.p == nil { // a referee
		if each == a.g.RefEach[a.msg.From] {
			return h.notice(tx, a.g, a.to(), a.msg.MessageID, reportsSaid(each))
		}
		if a.g.RefEach == nil {
			a.g.RefEach = map[string]bool{}
		}
		a.g.RefEach[a.msg.From] = each
		if !each {
			delete(a.g.RefEach, a.msg.From)
			markReported(a.g, a.to(), n) // told everything so far: every report was mailed to him
		}
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, reportsSaid(each))
	}
	if each == a.p.Each {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, reportsSaid(each))
	}
	if !each {
		a.p.Reported = n // told everything so far: every report was mailed to him
	}
	a.p.Each = each
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, reportsSaid(each))
}

func reportsSaid(each bool) string {
	if each {
		return "Reports each: you are mailed every step's report. REPORTS DIGEST undoes it."
	}
	return "Reports digest: you are mailed when your orders are needed, when a game turn ends and when the game's state changes, each mail with everything since your last. REPORTS EACH has every step's report mailed."
}
