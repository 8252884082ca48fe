package host

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
	"navarch/templates"
)

// Handle applies one incoming mail, exactly once: its effects, its Message-ID in the
// processed index and every mail it causes commit together or not at all. It returns an
// error only for our own failures (retry later); a player's mistake is answered by mail.
func (h *Host) Handle(raw []byte) error {
	in, perr := mail.Parse(raw, mail.Options{Own: h.own, Self: h.self})
	key, sender := "", ""
	if in != nil {
		key, sender = in.MessageID, in.From
	}
	key = messageKey(key, raw)
	if in != nil && in.NoReply != "" { // dropped unanswered, and noted once (drop.go)
		return h.s.Update(func(tx *store.Tx) error {
			if fresh, err := h.fresh(tx, in, sender, key); !fresh || err != nil {
				return err
			}
			return h.drop(tx, in, key, "", noReplyReason(in.NoReply), in.NoReply)
		})
	}
	return h.updateGames(func(tx *store.Tx) error { // no replay inside the lock (engines.go)
		if fresh, err := h.fresh(tx, in, sender, key); !fresh || err != nil {
			return err
		}
		log := txLog{tx, h.log.With("message-id", key)}
		if perr != nil {
			log.Info("mail unreadable", "err", perr)
			if in == nil || in.From == "" {
				return h.drop(tx, in, key, "", DropUnreadable, "cannot be read, and names no sender to tell: "+perr.Error())
			}
			return h.unauthenticated(tx, in, func() error {
				return h.stranger(tx, in.From, in.MessageID, "Your mail could not be read: "+perr.Error()+".",
					"Please send plain text, one order per line.")
			})
		}
		return h.request(tx, in, raw, log)
	}, h.warm(in, perr))
}

// txLog writes a mail's log lines once its transaction commits: a run that rolls back to
// rebuild an engine (engines.go) logs nothing, so that one mail is one "request" line.
type txLog struct {
	tx  *store.Tx
	log *slog.Logger
}

func (l txLog) Info(msg string, args ...any) { l.tx.AfterCommit(func() { l.log.Info(msg, args...) }) }

// fresh marks a mail processed and says whether it is new; a copy of a mail handled before
// is dropped (drop.go).
func (h *Host) fresh(tx *store.Tx, in *mail.Incoming, sender, key string) (bool, error) {
	fresh, err := store.MarkProcessed(tx, sender, key, nil)
	if err != nil || fresh {
		return fresh, err
	}
	return false, h.duplicate(tx, in, key)
}

// actor is who sent a mail, once authenticated.
type actor struct {
	g       *game
	id      ident.GameID
	p       *player // nil for a referee
	referee bool
	// operator: the command came from navarch's command line, not by mail.
	operator bool
	msg      *mail.Incoming
	raw      []byte // the mail as it arrived, kept with the game's mail (keepMail)
	req      mail.Request
	written  time.Time // when the mail was written (Host.written)
	team     bool      // the game is a team game: advance orders are kept by player
}

// heldKey is what the sender's advance orders are kept by: his side, or in a team game
// himself (each player's advance orders cover his own units).
func (a *actor) heldKey() string {
	if a.team {
		return a.p.ID
	}
	return a.p.Side
}

// side is the sender's side, or "" for a referee.
func (a *actor) side() string { return a.to().side() }

func (a *actor) to() recipient {
	if a.p != nil {
		return recipient{p: a.p}
	}
	return recipient{address: a.msg.From}
}

func (h *Host) request(tx *store.Tx, in *mail.Incoming, raw []byte, log interface{ Info(string, ...any) }) error {
	req, rerr := mail.ReadRequest(in.Subject, in.Text)
	if req.Command == mail.CmdNewGame && rerr == nil {
		return h.newGameByMail(tx, in, raw, req)
	}
	var id ident.GameID
	var g *game
	if req.Game != "" {
		var err error
		if id, g, err = findGame(tx, req.Game); err != nil {
			return err
		}
	}
	if g == nil && req.Game != "" && req.Game != mail.GameTag(in.Subject) { // a GAME line naming no game here
		return h.unauthenticated(tx, in, func() error { return h.noSuchGame(tx, in, req.Game) })
	}
	if g == nil { // a sender who plays exactly one game is answered about it
		oid, og, err := onlyGame(tx, in.From)
		if err != nil {
			return err
		}
		if og != nil {
			log.Info("mail taken for the sender's only game", "named", req.Game, "game", og.Tag)
			id, g, req.Game = oid, og, og.Tag
		}
	}
	if g == nil && req.Game == "" {
		return h.unauthenticated(tx, in, func() error {
			return h.stranger(tx, in.From, in.MessageID, "Your mail names no game. Put the game's tag in the subject, like [navarch lep-7f3a], or a line GAME lep-7f3a.")
		})
	}
	if g == nil {
		return h.unauthenticated(tx, in, func() error {
			return h.stranger(tx, in.From, in.MessageID, fmt.Sprintf("There is no game %q here.", req.Game))
		})
	}
	a := &actor{g: g, id: id, msg: in, raw: raw, req: req, p: g.player(in.From), referee: slices.Contains(g.Referees, in.From), written: h.written(in)}
	if (a.p != nil || a.referee) && h.cfg.DKIMAuthServID != "" && !mail.DKIMAligned(in, h.cfg.DKIMAuthServID) {
		return h.refuseUnsigned(tx, a, log)
	}
	if refused, err := h.authenticate(tx, a); refused || err != nil {
		return err
	}
	if ok, err := h.allowActor(tx, a); !ok || err != nil {
		return err
	}
	if err := h.keepMail(tx, a); err != nil {
		return err
	}
	if rerr != nil {
		return h.done(tx, a, h.notice(tx, g, a.to(), in.MessageID, strings.TrimPrefix(rerr.Error(), "mail: request: ")))
	}
	h.noteClosedStep(tx, a)
	h.noteFolded(a)
	log.Info("request", "game", g.Tag, "from", in.From, "command", req.Command)
	return h.done(tx, a, h.command(tx, a))
}

// keepMail adds the mail to the game's received mail (docs/DESIGN.md 5: kept raw for audit): every
// mail applied, and each refused one within its sender's limit, so that a flood cannot
// grow the store without bound.
func (h *Host) keepMail(tx *store.Tx, a *actor) error {
	_, err := store.AddReceived(tx, a.id, store.ReceivedMail{At: h.cfg.Now().UTC(), From: a.msg.From, Subject: a.msg.Subject,
		MessageID: a.msg.MessageID, Raw: a.raw})
	return err
}

// onlyGame is the game not over in which from is a player, if there is exactly one. It reads
// only the games the store's players index lists under from (saveGame indexes every
// player's address), not every game.
func onlyGame(tx *store.Tx, from string) (ident.GameID, *game, error) {
	var id ident.GameID
	var only *game
	for _, gid := range store.PlayerGames(tx, from) {
		g, err := loadGame(tx, gid)
		if err != nil { // a game that cannot be read might be the sender's too: no guess
			return ident.GameID{}, nil, nil
		}
		if g == nil || g.Status == store.StatusOver || g.player(from) == nil {
			continue
		}
		if only != nil {
			return ident.GameID{}, nil, nil
		}
		id, only = gid, g
	}
	return id, only, nil
}

// done saves the game after a request that may have changed it.
func (h *Host) done(tx *store.Tx, a *actor, err error) error {
	if err != nil {
		return err
	}
	return h.saveGame(tx, a.id, a.g)
}

// authenticate: the player of record's address and key, or a referee's address and the
// referee's key (docs/DESIGN.md 4), each key on a KEY line or by the tokenized
// reply address. A stranger is refused, and the player or referee whose key was used is
// told; so is a referee whose address sent a mail without the key.
func (h *Host) authenticate(tx *store.Tx, a *actor) (bool, error) {
	if a.referee && a.p == nil {
		key, err := refereeKey(tx, a.id, a.msg.From)
		if err != nil || keyMatches(a.req.Key, key) || h.tokenUsed(a.msg, a.id, key) {
			return err != nil, err
		}
		return true, h.refuse(tx, a, nil, func() error {
			h.rejected(tx, RejectForged)
			return h.done(tx, a, h.notice(tx, a.g, a.to(), a.msg.MessageID,
				"A mail from your address was not applied: a referee's mail needs your referee key, on a line KEY followed by the key from your referee's welcome mail"+
					h.orReply()+". Nothing was changed.",
				"If you did not send it, someone has used your address; without the key it can change nothing."))
		})
	}
	if a.p == nil { // if it used a player's or a referee's key, he is told, and not the sender
		told := false
		return true, h.refuse(tx, a, func() (err error) { h.rejected(tx, RejectStranger); told, err = h.tellKeyOwner(tx, a); return err },
			func() error {
				if told {
					return nil
				}
				return h.stranger(tx, a.msg.From, a.msg.MessageID, fmt.Sprintf("You are not a player of game %s; your mail was not applied.", a.g.Tag),
					h.gamesOf(tx, a.msg.From))
			})
	}
	key, err := keyOf(tx, a.id, a.p.ID)
	if err != nil {
		return true, err
	}
	if !keyMatches(a.req.Key, key) && !h.tokenUsed(a.msg, a.id, key) {
		why := "Your mail was not applied: it needs your key, on a line KEY followed by the key from your welcome mail" + h.orReply() + "."
		if a.req.Key != "" { // a wrong key is answered as a wrong key
			why = fmt.Sprintf("Your mail was not applied: the key on its KEY line is not your key for game %s. Copy the key from your welcome mail (or the latest REKEY mail) exactly"+h.orReply()+".", a.g.Tag)
		}
		return true, h.refuse(tx, a, func() error { h.rejected(tx, RejectKey); return h.warnKeyOwners(tx, a) }, func() error {
			return h.done(tx, a, h.notice(tx, a.g, a.to(), a.msg.MessageID, why))
		})
	}
	return false, nil
}

// orReply names the other way to authenticate, when the installation offers it.
func (h *Host) orReply() string {
	if h.cfg.ReplyTokens {
		return " (or it must be a reply to navarch's mail to you)"
	}
	return ""
}

// tellKeyOwner tells the player or referee whose key (or tokenized reply address) a mail
// from an address that is neither used, and says whether there was one.
func (h *Host) tellKeyOwner(tx *store.Tx, a *actor) (bool, error) {
	used := func(k string) bool { return k != "" && (keyMatches(a.req.Key, k) || h.tokenUsed(a.msg, a.id, k)) }
	tell := func(r recipient) (bool, error) {
		return true, h.done(tx, a, h.notice(tx, a.g, r, "", fmt.Sprintf(
			"A mail from %s used your key (or your reply address) for game %s and was refused. Only mail from your address counts; "+
				"if the key is known to others, ask the referee for a new one (REKEY).", a.msg.From, a.g.Tag)))
	}
	for i := range a.g.Players {
		if k, err := keyOf(tx, a.id, a.g.Players[i].ID); err != nil {
			return false, err
		} else if used(k) {
			return tell(recipient{p: &a.g.Players[i]})
		}
	}
	for _, r := range a.g.Referees {
		if k, err := refereeKey(tx, a.id, r); err != nil {
			return false, err
		} else if used(k) {
			return tell(recipient{address: r})
		}
	}
	return false, nil
}

func (h *Host) command(tx *store.Tx, a *actor) error {
	switch a.req.Command {
	case mail.CmdJoin:
		return h.join(tx, a)
	case mail.CmdHelp:
		return h.help(tx, a)
	case mail.CmdOrders, mail.CmdCheck, mail.CmdNone:
		return h.orders(tx, a)
	case mail.CmdLog:
		return h.sendLog(tx, a)
	case mail.CmdStatus:
		return h.status(tx, a)
	case mail.CmdHistory:
		return h.history(tx, a)
	case mail.CmdDigest, mail.CmdReports:
		return h.digest(tx, a)
	case mail.CmdZone:
		return h.zone(tx, a)
	case mail.CmdAssign:
		return h.assign(tx, a)
	case mail.CmdTeam:
		return h.teamMessage(tx, a)
	case mail.CmdAbsent:
		return h.absent(tx, a)
	case mail.CmdResign:
		return h.resign(tx, a)
	case mail.CmdPause, mail.CmdResume, mail.CmdExtend, mail.CmdEnd, mail.CmdReplace, mail.CmdProceed, mail.CmdRekey:
		return h.referee(tx, a)
	}
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf("%s is not available yet on this server; nothing was changed.", a.req.Command))
}

func (h *Host) join(tx *store.Tx, a *actor) error {
	if a.p == nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Referees do not join; players do.")
	}
	if a.g.Status == store.StatusOver || a.p.TookOver {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, joinAnswer(a.g, a.p))
	}
	err := ledger.Join(tx, a.id, a.p.ID, []byte(a.req.Entropy), h.cfg.Now(), a.msg.MessageID)
	switch {
	case errors.Is(err, ledger.ErrJoined), errors.Is(err, ledger.ErrStarted):
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, joinAnswer(a.g, a.p))
	case err != nil:
		return err
	}
	a.p.Joined = true
	var waiting []string
	for _, p := range a.g.Players {
		if !p.Joined {
			waiting = append(waiting, p.ID)
		}
	}
	if len(waiting) > 0 {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "You have joined the game.", "Waiting for: "+strings.Join(waiting, ", ")+".")
	}
	if err := h.notice(tx, a.g, a.to(), a.msg.MessageID, "You have joined the game. Everyone has: play begins."); err != nil {
		return err
	}
	s, err := ledger.Start(tx, a.id, false)
	if err != nil {
		return err
	}
	if err := h.startNotice(tx, a.id, a.g, s); err != nil {
		return err
	}
	a.g.Status = store.StatusPlaying
	if a.g.paused() { // play begins when the game resumes
		return nil
	}
	return h.advance(tx, a.id, a.g)
}

func (h *Host) help(tx *store.Tx, a *actor) error {
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return err
	}
	side := a.side()
	lines := strings.Split(strings.TrimRight(eng.Help(side), "\n"), "\n")
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, append(lines, templates.MailCommands...)...)
}

func (h *Host) sendLog(tx *store.Tx, a *actor) error {
	side := a.side()
	att, err := export(tx, a.g, a.id, side, a.p == nil)
	if err != nil {
		return err
	}
	return h.queue(tx, a.g, a.to(), "notice", "log", notice("The game's log as you may see it is attached ("+att.Name+"); check it with navarch verify."), a.msg.MessageID, []mail.Attachment{att})
}
