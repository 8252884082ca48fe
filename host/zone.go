package host

import (
	"fmt"
	"strings"
	"time"

	"navarch/mail"
	"navarch/store"
)

// zone answers ZONE AREA/CITY: the sender's mails give deadlines in that IANA time zone (UTC
// beside it), a player's and a referee's alike; ZONE UTC goes back to UTC alone.
func (h *Host) zone(tx *store.Tx, a *actor) error {
	name := strings.Join(a.req.Args, " ")
	if _, err := time.LoadLocation(name); err != nil || name == "" || strings.EqualFold(name, "Local") {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID,
			fmt.Sprintf("%q is not a time zone I know. Write %s and an IANA zone name, e.g. %s Europe/Rome or %s America/New_York.", clipArg(name), mail.CmdZone, mail.CmdZone, mail.CmdZone))
	}
	if a.p != nil {
		a.p.Zone = name
	} else {
		if a.g.RefereeZones == nil {
			a.g.RefereeZones = map[string]string{}
		}
		a.g.RefereeZones[a.msg.From] = name
	}
	return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Your time zone is now "+name+": deadlines in your mails are shown in it, and in UTC.")
}

// clipArg shortens a word echoed in a reply.
func clipArg(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
