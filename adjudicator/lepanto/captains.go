package lepanto

import "fmt"

// replaceLeader puts one of the wing's generic Captains (rating 1) in command of a group
// whose leader was killed or lost, while the wing has captains left (4.4). The captain goes
// aboard the ship the leader was on if it is still in play, else the group's first single
// ship, else its first squadron (4.1): the rules leave the choice to the owner; navarch
// makes it for him so that no step waits on it.
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
	to := captainShip(g, gr.ID, aboard)
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
		Kind: "captain", Rating: 1, Group: gr.ID, Side: gr.Side, Unit: to.ID}
	g.Leaders = append(g.Leaders, c)
	rs.event("4.4", "A captain (%s) takes command of group %s aboard %s; wing %s has %d captains left", c.ID, gr.ID, to.ID, w.ID, w.Captains)
}

func captainShip(g *Game, group string, aboard *Unit) *Unit {
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
