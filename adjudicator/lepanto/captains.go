package lepanto

import (
	"fmt"
	"slices"
)

// replaceLeader puts one of the wing's generic Captains (rating 1) in command of a group
// whose leader was killed or lost, while the wing has captains left (4.4). The captain goes
// aboard the ship the leader was on if it is still in play, else the group's first single
// ship, else its first squadron (4.1), unless the owner's standing CAPTAIN order names a
// ship: "Captains can be deployed at the owning player's wish" (4.4), and no step waits on it.
func (rs *resolver) replaceLeader(lost *Leader, aboard *Unit) {
	g := rs.g
	for _, l := range g.Leaders {
		if l.Status == "" && l.Group == lost.Group {
			return // the group still has a leader
		}
	}
	gr := g.group(lost.Group)
	w := g.wing(gr.Wing)
	if w.Captains == 0 {
		return
	}
	to := captainShip(g, gr, aboard)
	if to == nil {
		return
	}
	w.Captains--
	n := 1
	for _, l := range g.Leaders {
		if l.Kind == "captain" && l.Group == gr.ID {
			n++
		}
	}
	c := &Leader{ID: fmt.Sprintf("%s-CAPTAIN%d", gr.ID, n), Name: "Captain of " + gr.Name,
		Kind: "captain", Rating: 1, Group: gr.ID, Side: gr.Side, Unit: to.ID, Placed: gr.CaptainOn != to.ID}
	g.Leaders = append(g.Leaders, c)
	rs.event("4.4", "A captain (%s) takes command of group %s aboard %s; wing %s has %s left", c.ID, gr.ID, to.ID, w.ID, count(w.Captains, "captain", "captains"))
}

// captainShip is where the captain goes: the ship the owner named by a standing CAPTAIN
// order if it is still a legal place (4.4 "at the owning player's wish"), else the default.
func captainShip(g *Game, gr *Group, aboard *Unit) *Unit {
	if gr.CaptainOn != "" && slices.Contains(g.leaderShips(gr.ID), gr.CaptainOn) {
		return g.unit(gr.CaptainOn)
	}
	group := gr.ID
	if aboard != nil && aboard.InPlay() {
		return aboard
	}
	var squadron *Unit
	for _, u := range g.Units {
		if u.Group != group || !u.InPlay() {
			continue
		}
		if u.Single() {
			return u
		}
		if squadron == nil {
			squadron = u
		}
	}
	return squadron
}
