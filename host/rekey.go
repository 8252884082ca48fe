package host

import (
	"fmt"

	"navarch/store"
)

// rekey gives a player a new key (REKEY PLAYER), mailed to the player's address of
// record only: the old key (and the reply address made from it) no longer counts. The
// operator may also give a referee of the game a new key (REKEY ADDRESS), mailed to that
// referee, e.g. for a game made before referees had keys.
func (h *Host) rekey(tx *store.Tx, a *actor) (string, error) {
	if len(a.req.Args) != 1 {
		return "", refused("write REKEY PLAYER, like REKEY bob")
	}
	who := a.req.Args[0]
	for i := range a.g.Players {
		if p := &a.g.Players[i]; p.ID == who {
			key, err := newKey(h.cfg.Rand)
			if err != nil {
				return "", err
			}
			if err := store.PutPlayerKey(tx, a.id, p.ID, key); err != nil {
				return "", err
			}
			by, _ := a.by()
			err = h.notice(tx, a.g, recipient{p: p}, "", fmt.Sprintf("%s has given you a new key for game %s; the old one no longer counts.", capital(by), a.g.Tag),
				"Your secret order key: "+key,
				"Put it in every order mail (\"KEY "+key+"\"); keep it to yourself."+h.replyNote())
			return fmt.Sprintf("%s (%s) has a new key, mailed to the player's address of record; the old one no longer counts.", p.ID, p.Side), err
		}
	}
	if a.operator && a.g.isReferee(who) {
		key, err := h.newRefereeKey(tx, a.id, who)
		if err != nil {
			return "", err
		}
		err = h.notice(tx, a.g, recipient{address: who}, "", fmt.Sprintf("The operator has given you a new referee key for game %s; the old one no longer counts.", a.g.Tag),
			"Your secret referee key: "+key,
			"Put it in every mail you send to this game (\"KEY "+key+"\"); keep it to yourself."+h.replyNote())
		return fmt.Sprintf("The referee %s has a new key.", who), err
	}
	return "", refused(fmt.Sprintf("there is no player %q in game %s", who, a.g.Tag))
}

// replyNote says that replies need no KEY line, where the installation gives reply tokens.
func (h *Host) replyNote() string {
	if h.cfg.ReplyTokens {
		return " A reply to navarch's mails to you needs no KEY line (their reply address carries your new key)."
	}
	return ""
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
