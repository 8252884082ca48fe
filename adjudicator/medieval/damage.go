package medieval

import (
	"navarch/adjudicator/table"
)

// factor names a factor a hit can reduce.
type factor int

const (
	fGunnery factor = iota
	fMissile
	fCombat
	fSea
)

var factorNames = [...]string{"Gunnery", "Missile", "Combat", "Seaworthiness"}

func (f factor) String() string { return factorNames[f] }

// gunneryEffect reads the gunnery effect table (rule "Gunnery": 9,0 Seaworthiness; 7,8
// Combat; 4,5,6 Missile; 1,2,3 Gunnery). v is 1..10, 10 read as 0.
func gunneryEffect(v int) factor {
	switch {
	case v >= 9:
		return fSea
	case v >= 7:
		return fCombat
	case v >= 4:
		return fMissile
	}
	return fGunnery
}

// missileEffect reads the missile effect table (rule "Missile shooting": 7,8,9,0 Combat;
// 2-6 Missile; 1 Gunnery).
func missileEffect(v int) factor {
	switch {
	case v >= 7:
		return fCombat
	case v >= 2:
		return fMissile
	}
	return fGunnery
}

// up lists the factors of an effect table from the bottom up: a hit on a factor already at
// NNE moves up the table (rule "Damage"). The gunnery table's top is Seaworthiness, the
// missile table's Combat.
var (
	gunneryUp = []factor{fGunnery, fMissile, fCombat, fSea}
	missileUp = []factor{fGunnery, fMissile, fCombat}
)

// required scores (rules "Gunnery", "Missile shooting", "Defence Rolls", "Boarding"); 0 means
// the level cannot roll ("-").
var (
	gunneryNeed = [7]int{0, 10, 8, 6, 0, 0, 0}
	missileNeed = [7]int{0, 10, 9, 8, 7, 6, 5}
	defenceNeed = [7]int{0, 10, 9, 8, 7, 6, 5}
	combatNeed  = [7]int{0, 8, 7, 6, 5, 4, 3}
)

// hasFactor reports whether s's factor f is above NNE (either broadside for Gunnery).
func hasFactor(s *Ship, f factor) bool {
	switch f {
	case fGunnery:
		return s.F.GunPort > NNE || s.F.GunStarboard > NNE
	case fMissile:
		return s.F.Missile > NNE
	case fCombat:
		return s.F.Combat > NNE
	}
	return s.F.Sea > NNE
}

// hit applies one hit on factor f of s from an effect table whose order up is up: moving up
// the table past factors already at NNE, a defence roll for Combat and Missile (rule
// "Defence Rolls"), Gunnery on the broadside facing the firer first (rule "Damage"). from is
// the ship that caused the hit (nil for none), label the roll labels' prefix.
func (p *phase) hit(s *Ship, f factor, up []factor, from *Ship, label, rule string) error {
	i := 0
	for up[i] != f {
		i++
	}
	for i < len(up) && !hasFactor(s, up[i]) {
		if i+1 < len(up) {
			p.event("Damage.4", "%s's %v is already NNE: the hit moves up the table to %v", s.ID, up[i], up[i+1])
		}
		i++
	}
	if i == len(up) {
		p.event("Damage.4", "%s: every factor up the table is already NNE: no effect", s.ID)
		return nil
	}
	f = up[i]
	if f == fCombat || f == fMissile {
		saved, err := p.defence(s, f, label)
		if err != nil || saved {
			return err
		}
	}
	switch f {
	case fSea:
		s.F.Sea--
	case fCombat:
		s.F.Combat--
	case fMissile:
		s.F.Missile--
	case fGunnery:
		side := facing(s, from)
		if *s.F.Gun(side) == NNE {
			p.event("Damage.3", "%s's %s broadside is NNE: the Gunnery hit passes to the other", s.ID, side)
			side = otherSide(side)
		}
		*s.F.Gun(side) = *s.F.Gun(side) - 1
		i := sideIndex(side)
		s.Loaded[i] = min(s.Loaded[i], *s.F.Gun(side))
		p.event("Damage.3", "%s loses a level of %s Gunnery: now %v", s.ID, side, *s.F.Gun(side))
		return nil
	}
	p.event(rule, "%s loses a level of %v: now %v", s.ID, f, s.factorLevel(f))
	p.afterDamage(s)
	return nil
}

func (s *Ship) factorLevel(f factor) Level {
	switch f {
	case fSea:
		return s.F.Sea
	case fCombat:
		return s.F.Combat
	case fMissile:
		return s.F.Missile
	}
	return max(s.F.GunPort, s.F.GunStarboard)
}

func otherSide(a table.Arc) table.Arc {
	if a == table.Port {
		return table.Starboard
	}
	return table.Port
}

// facing returns the broadside of s that faces from: the side whose edge is nearer from's
// base; starboard when both are as near, or with no firer.
func facing(s, from *Ship) table.Arc {
	if from == nil {
		return table.Starboard
	}
	fc := from.Corners()
	if table.Distance(fc, s.Base.Edge(s.Pose, table.Port)) < table.Distance(fc, s.Base.Edge(s.Pose, table.Starboard)) {
		return table.Port
	}
	return table.Starboard
}

// defence rolls s's defence against a hit on f (rule "Defence Rolls"): true if the hit is
// ignored. A Defence of NNE has no roll.
func (p *phase) defence(s *Ship, f factor, label string) (bool, error) {
	need := defenceNeed[s.F.Defence]
	if need == 0 {
		p.event("Defence.2", "%s has Defence NNE: no defence roll", s.ID)
		return false, nil
	}
	v, err := p.d10(label+"/defence", "Defence.1", 1)
	if err != nil {
		return false, err
	}
	if v[0] >= need {
		p.event("Defence.1", "%s's defence roll %d (needs %d+ on Defence %v) ignores the %v hit", s.ID, shown(v[0]), need, s.F.Defence, f)
		return true, nil
	}
	p.event("Defence.1", "%s's defence roll %d (needs %d+) fails", s.ID, shown(v[0]), need)
	return false, nil
}

// afterDamage sinks a ship at Seaworthiness NNE and takes a ship at Combat NNE out of the
// battle: surrendered within 2" of an enemy, otherwise leaving the table (rule "Damage").
func (p *phase) afterDamage(s *Ship) {
	switch {
	case s.Status != Afloat && s.Status != Leaving:
		return
	case s.F.Sea == NNE:
		s.Status = Sunk
		p.event("Damage.1", "%s's Seaworthiness is NNE: she sinks", s.ID)
	case s.F.Combat == NNE && s.Status == Afloat:
		if e := p.g.enemyWithin(s, 2*table.Inch); e != nil {
			s.Status = Surrendered
			p.event("Damage.2", "%s's Combat is NNE within 2\" of %s: she surrenders", s.ID, e.ID)
		} else {
			s.Status = Leaving
			p.event("Damage.2", "%s's Combat is NNE with no enemy within 2\": she takes no further part and tries to leave the table", s.ID)
		}
	default:
		return
	}
	p.release(s)
}

// release ends s's grapples, and her lashings when she is sunk, lost to fire or off the
// table: nothing is left to lash to, or the burning hulk "drifts down wind" on her own (rule
// "Fires"), so her friends' beams are free and they no longer run as her raft (rule
// "Lashing"). A surrendered or leaving ship stays lashed until cut free.
func (p *phase) release(s *Ship) {
	g := p.g
	for _, id := range s.Grappled {
		if o := g.ship(id); o != nil {
			o.Grappled = removeID(o.Grappled, s.ID)
		}
	}
	s.Grappled = nil
	if s.Status != Sunk && s.Status != Burnt && s.Status != Left {
		return
	}
	for _, id := range s.Lashed {
		if o := g.ship(id); o != nil {
			o.Lashed, o.CutAt = removeID(o.Lashed, s.ID), removeID(o.CutAt, s.ID)
			p.event("Lashing.1", "%s's lashing to %s ends: %s is %s", o.ID, s.ID, s.ID, s.Status)
		}
	}
	s.Lashed, s.CutAt = nil, nil
}

// enemyWithin returns the first active enemy (scenario order) within d of s, or nil.
func (g *Game) enemyWithin(s *Ship, d table.Len) *Ship {
	for _, e := range g.Ships {
		if e.Side != s.Side && e.Active() && table.Distance(s.Corners(), e.Corners()) <= d {
			return e
		}
	}
	return nil
}
