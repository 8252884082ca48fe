package host

import (
	"fmt"
	"strings"

	"navarch/store"
)

// Mail from navarch's own address (with or without a subaddress) is never read (a loop, or
// a forgery), so no one who plays, referees or creates games may have it: creating or
// handing over a game to such an address is refused (checkSpec, REPLACE), and the daemon
// refuses to start when a game already has one (OwnAddressInUse), naming the configuration
// field to change.

// ownAddressError says why a game may not have address, or is nil.
func (h *Host) ownAddressError(who, address string) error {
	if !IsOwnAddress(h.cfg.Address, address) {
		return nil
	}
	return fmt.Errorf("%s: %s is navarch's own address (or a subaddress of it), whose mail navarch never reads; give another address", who, address)
}

// OwnAddressInUse returns an error naming every game whose player or referee has
// navarch's own address: all of their mail would be dropped as navarch's own. It reads
// every game, once, at the daemon's start.
func (h *Host) OwnAddressInUse() error {
	var found []string
	err := h.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil || g == nil || g.Status == store.StatusOver {
				continue
			}
			for _, p := range g.Players {
				if IsOwnAddress(h.cfg.Address, p.Address) {
					found = append(found, fmt.Sprintf("player %s of game %s", p.ID, g.Tag))
				}
			}
			for _, r := range g.Referees {
				if IsOwnAddress(h.cfg.Address, r) {
					found = append(found, fmt.Sprintf("the referee of game %s", g.Tag))
				}
			}
		}
		return nil
	})
	if err != nil || len(found) == 0 {
		return err
	}
	return fmt.Errorf("address: %s is the address of %s: navarch never reads mail from its own address, so all of it would be dropped; "+
		"give navarch an address of its own (or REPLACE the players)", h.cfg.Address, strings.Join(found, ", "))
}
