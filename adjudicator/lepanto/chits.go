package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/dice"
)

// chit resolves a special chit drawn after a Group Activation Marker (2.4).
func (rs *resolver) chit(item string) error {
	g := rs.g
	switch {
	case item == ChitWindRoll:
		return rs.windRoll()
	case item == ChitFireRoll:
		return rs.fireRoll()
	case item == ChitLeaderMove:
		rs.leaderMoveChit()
	case furyChits[item] != [2]string{}:
		if groups := g.furyGroups(item); len(groups) > 0 {
			g.Wait, g.WaitSides, g.WaitGroup = waitFury, []string{furyChits[item][0]}, item
			rs.event("2.4.2", "%s chit: %s may activate again one of %s", item, furyChits[item][0], strings.Join(groups, ", "))
		} else {
			rs.event("2.4.2", "%s chit: no group has acted in its section yet: no effect", item)
		}
	case item == ChitDisengage:
		rs.disengageChit()
	case item == ChitBoarding:
		return rs.boardingChit()
	default:
		return fmt.Errorf("lepanto: unknown chit %q", item)
	}
	return nil
}

// leaderMoveChit asks the sides that have a leader able to move and have not said, by the
// standing order LEADERS STAY, that their leaders stay (2.4.1).
func (rs *resolver) leaderMoveChit() {
	g := rs.g
	var sides []string
	for _, side := range g.leaderMoveOrder() {
		if !slices.Contains(g.LeadersStay, side) && g.canMoveLeaders(side) {
			sides = append(sides, side)
		}
	}
	if len(sides) == 0 {
		rs.event("2.4.1", "Leader Move chit: no leader moves (none can, or their players keep them where they are)")
		return
	}
	g.Wait, g.WaitSides, g.WaitGroup = waitLeaderMove, sides, ChitLeaderMove
	rs.event("2.4.1", "Leader Move chit: %s may move leaders", strings.Join(sides, " and "))
}

// leaderMoveOrder lists the sides, the drawing player first (2.4.1).
func (g *Game) leaderMoveOrder() []string {
	sides := slices.Clone(g.sc.Sides)
	if i := slices.Index(sides, g.Drawer); i > 0 {
		sides[0], sides[i] = sides[i], sides[0]
	}
	return sides
}

// canMoveLeaders reports whether a leader of the side has a unit to move to (2.4.1).
func (g *Game) canMoveLeaders(side string) bool {
	for _, l := range g.Leaders {
		if l.Side == side && l.Status == "" && len(g.leaderTargets(l.ID)) > 0 {
			return true
		}
	}
	return false
}

// windRoll: 2d6 on the wind rose gives the new wind (11.1).
func (rs *resolver) windRoll() error {
	g := rs.g
	r, err := rs.r.Roll("wind", 6, 2)
	if err != nil {
		return err
	}
	sum := r.Values[0] + r.Values[1]
	from, _ := g.tables.Get("wind-rose").IntCol(sum, "from")
	r.Rule, r.Note = "11.1", fmt.Sprintf("2d6 %d: wind from the %s", sum, from)
	g.Wind = from
	rs.event("11.1", "Wind Roll: 2d6 %d, the wind now blows from the %s%s", sum, from, rs.substitute("wind-rose"))
	return nil
}

// fireRoll: "each Player can attempt to extinguish fires" (9.2.1): every unit with fire
// aboard rolls on the Extinguish Fire Table unless its player's standing LET BURN says not,
// in the column of what is adjacent (enemy before friendly), one less under sail (16.04: the
// table "differentiates between units in Sailing or Rowing Mode"). A spreading fire catches
// one of the adjacent units not yet burning, drawn by lot among them: the text names no
// one who chooses.
func (rs *resolver) fireRoll() error {
	g := rs.g
	burning := []*Unit{}
	for _, u := range g.Units {
		if u.InPlay() && u.OnFire {
			burning = append(burning, u)
		}
	}
	if len(burning) == 0 {
		rs.event("2.4.3", "Fire Roll chit: no fires aboard")
	}
	for _, u := range burning {
		if u.NoExtinguish {
			rs.event("9.2.1", "Fire aboard %s: no attempt to put it out (its player's choice)", u.ID)
			continue
		}
		if err := rs.extinguish(u); err != nil {
			return err
		}
	}
	return nil
}

// extinguish is one unit's roll on the Extinguish Fire Table (9.2.1, 16.04).
func (rs *resolver) extinguish(u *Unit) error {
	g := rs.g
	col, near := g.adjacency(u)
	d6, roll, err := rs.roll("extinguish/"+u.ID, 6, "9.2.1")
	if err != nil {
		return err
	}
	mod := 0
	if u.Sailing {
		mod = -1
	}
	res, _ := g.tables.Get("extinguish-fire").IntCol(d6+mod, col)
	roll.Note = fmt.Sprintf("%d%+d, %s adjacent: %s", d6, mod, col, res)
	rs.event("9.2.1", "Fire aboard %s (%s adjacent%s): d6 %d, %s%s", u.ID, col, map[bool]string{true: ", under sail -1", false: ""}[u.Sailing], d6, res, rs.substitute("extinguish-fire"))
	switch res {
	case "out":
		u.OnFire = false
	case "spreads":
		var ids []string
		for _, o := range near {
			if !o.OnFire {
				ids = append(ids, o.ID)
			}
		}
		if len(ids) == 0 {
			rs.event("9.2.1", "The fire finds no unit around %s that is not burning already", u.ID)
			return nil
		}
		i := 0
		if len(ids) > 1 {
			var r *dice.Roll
			if i, r, err = dice.Draw(rs.r, "spread/"+u.ID, ids); err != nil {
				return err
			}
			r.Rule, r.Note = "9.2.1", "the fire spreads to "+ids[i]
		}
		g.unit(ids[i]).OnFire = true
		rs.event("9.2.1", "The fire spreads to %s", ids[i])
	}
	return nil
}

// adjacency returns the Extinguish Fire column for u and the units adjacent to it.
func (g *Game) adjacency(u *Unit) (string, []*Unit) {
	col := "alone"
	var near []*Unit
	for d := N; d <= NW; d++ {
		for _, o := range g.unitsAt(u.Hex.Neighbor(d)) {
			near = append(near, o)
			if o.Side != u.Side {
				col = "enemy"
			} else if col == "alone" {
				col = "friendly"
			}
		}
	}
	return col, near
}
