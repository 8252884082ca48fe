package medieval

import (
	"fmt"
	"slices"
)

// attack is one ship's boarding dice against one enemy.
type attack struct {
	from, to *Ship
	dice     int
	need     int
	label    string
}

// foe returns the ship of phasing division div that the non-phasing e fights against (rule
// "Boarding" iii: she "may fight against the phasing ships"): her standing AGAINST choice if
// she is in contact with it, otherwise the first phasing ship in contact with her (scenario
// order); nil if none.
func (g *Game) foe(e *Ship, div string) *Ship {
	var first *Ship
	for _, s := range g.boarders(e) {
		if s.Division != div {
			continue
		}
		if s.ID == e.Against {
			return s
		}
		if first == nil {
			first = s
		}
	}
	return first
}

// boarding fights the boarding actions of division div's Sail/Fight phase (rule "Boarding"):
// every active ship of the division in contact with an enemy rolls 2d10 at the first of them
// (split 1 and 1 between two enemies in contact by a FIGHT order), every enemy in contact
// with one of them rolls 1d10 at the one she chose (foe; ships of the phasing side outside the
// division do not fight); the scores
// the Combat factors need are fixed before any die is rolled and all hits fall together, each
// on the Combat factor and each with a defence roll.
func (p *phase) boarding(div string, fights map[string][]string) error {
	g := p.g
	var attacks []attack
	for _, s := range g.Ships {
		enemies := g.boarders(s)
		if s.Division != div || len(enemies) == 0 {
			continue
		}
		targets := fights[s.ID]
		if len(targets) == 0 {
			targets = []string{enemies[0].ID}
		}
		per := 2 / len(targets)
		for _, id := range targets {
			attacks = append(attacks, attack{from: s, to: g.ship(id), dice: per})
		}
	}
	for _, e := range g.Ships {
		if !e.Active() || e.Side == g.division(div).Side {
			continue
		}
		if s := g.foe(e, div); s != nil {
			attacks = append(attacks, attack{from: e, to: s, dice: 1})
		}
	}
	if len(attacks) == 0 {
		return nil
	}
	for i := range attacks {
		a := &attacks[i]
		a.need = combatNeed[a.from.F.Combat]
		a.label = fmt.Sprintf("board/%s/%s", a.from.ID, a.to.ID)
	}
	hits := map[*Ship]int{}
	var hitOrder []*Ship
	for _, a := range attacks {
		if a.need == 0 {
			p.event("Boarding.4", "%s has Combat NNE and cannot fight", a.from.ID)
			continue
		}
		vs, err := p.d10(a.label, "Boarding.2", a.dice)
		if err != nil {
			return err
		}
		n := 0
		for _, v := range vs {
			if v >= a.need {
				n++
			}
		}
		role := "phasing, "
		if a.from.Division != div {
			role = ""
		}
		p.traceShot(TraceBoard, a.from, a.to, n)
		p.event("Boarding.2", "%s (%s%dd10, Combat %v needs %d+) fights %s: %v, %s", a.from.ID, role, a.dice, a.from.F.Combat, a.need, a.to.ID, shownAll(vs), count(n, "hit", "hits"))
		if n > 0 && !slices.Contains(hitOrder, a.to) {
			hitOrder = append(hitOrder, a.to)
		}
		hits[a.to] += n
	}
	for _, t := range hitOrder {
		for k := 1; k <= hits[t] && t.Active(); k++ {
			if err := p.hit(t, fCombat, []factor{fCombat}, nil, fmt.Sprintf("board/%s/hit/%d", t.ID, k), "Boarding.5"); err != nil {
				return err
			}
		}
	}
	return nil
}
