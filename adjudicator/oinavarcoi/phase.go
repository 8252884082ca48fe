package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"
)

// movement moves one side (rule Movement.each): each squadron in the order of the lines, and
// the signal where its line stands among them: "announced before moving that wing" (rule
// Signals.give), so the other wings' squadrons written above it move before it (Validate
// refuses a line of the signalled wing above the signal); after the second side, the melee
// and morale phases end the turn.
func (rs *resolver) movement(side string, orders []*Order) error {
	g := rs.g
	i := g.sc.SideIndex(side)
	engage := ""
	for _, s := range g.Squadrons {
		if s.Side == side {
			s.Fresh = false // a stationary movement phase from now on rallies (rule Disorder.rally)
		}
	}
	for _, o := range orders {
		if o.Signal != "" {
			rs.signal(i, o)
			if o.Signal == "ENGAGE" {
				engage = o.Wing
			}
			continue
		}
		if o.Sq == "" || o.Deploy || o.Phalanx != "" {
			continue
		}
		s := g.sq(o.Sq)
		if s == nil || s.Side != side || !s.InPlay() || len(s.Melee) > 0 {
			continue // Validate refuses these; Resolve never trusts that it was called
		}
		if err := rs.squadronOrder(o, engage != "" && s.Wing == engage); err != nil {
			return err
		}
	}
	for _, s := range g.Squadrons {
		if s.Side == side && s.Hold && !s.Moved {
			s.Hold = false // a pursuer sits out one movement phase (rule Pursuit.start)
		}
	}
	rs.movePhalanxes(side)
	g.Moved++
	if g.Phase == phaseMove1 {
		g.Phase, g.Act = phaseMove2, 2
		return nil
	}
	g.Act = 3
	return rs.endOfTurn()
}

// signal carries out a signal of the pre-battle list: the wing's squadrons not in melee
// manoeuvre at once, extra to their move and with no manoeuvre test (rules Signals.give,
// Signals.kinds).
func (rs *resolver) signal(i int, o *Order) {
	g := rs.g
	list := g.Signals[i]
	k := slices.IndexFunc(list, func(e SignalEntry) bool { return !e.Used && e.Kind == o.Signal && e.Wing == o.Wing })
	if k < 0 || g.Signalled[i] {
		return // Validate refuses it; Resolve never trusts that it was called
	}
	list[k].Used = true
	g.Signalled[i] = true
	rs.event("Signals.give", "%s signals %s to its %s wing", g.side(i), o.Signal, o.Wing)
	for _, s := range g.Squadrons {
		if !g.takesSignal(s, g.side(i), o.Wing) {
			continue
		}
		switch o.Signal {
		case "TURN-RIGHT", "TURN-LEFT":
			d := 90
			if o.Signal == "TURN-LEFT" {
				d = -90
			}
			s.Pose, s.Moved = s.Pose.Turn(d), true
			rs.event("Signals.kinds", "%s turns 90 degrees to heading %d", s.ID, s.Pose.Heading)
		case "DEPLOY-RIGHT", "DEPLOY-LEFT":
			if s.Formation != Keras {
				continue
			}
			rs.deployLine(s, o.Signal == "DEPLOY-RIGHT")
		}
	}
}

// takesSignal reports whether s carries out a signal side gives to wing: the wing's
// squadrons in play and out of melee; not freighters, nor pursuers, which take no movement
// orders (rules Signals.give, Pursuit.start).
func (g *Game) takesSignal(s *Squadron, side, wing string) bool {
	return s.Side == side && s.Wing == wing && s.InPlay() && len(s.Melee) == 0 && !s.Freighter && !s.Hold && s.Pursuing == ""
}

// afterSignal returns s as the side's signal this turn leaves it, before its own move: a copy
// turned or deployed into line, or s itself when the signal does not reach it. A squadron's
// orders are checked against the formation and facing it will have when it moves (rule
// Signals.give: the signal is carried out before the wing moves).
func (g *Game) afterSignal(s *Squadron, sig *Order) *Squadron {
	if sig == nil || !g.takesSignal(s, s.Side, sig.Wing) {
		return s
	}
	c := *s
	switch sig.Signal {
	case "TURN-RIGHT":
		c.Pose = c.Pose.Turn(90)
	case "TURN-LEFT":
		c.Pose = c.Pose.Turn(-90)
	case "DEPLOY-RIGHT", "DEPLOY-LEFT":
		if c.Formation == Keras {
			c.Formation = Mias
		}
	}
	return &c
}

// deployLine deploys a column into line to the right or left of its lead ship: the line's
// end stand stands where the lead ship was (rule Signals.kinds).
func (rs *resolver) deployLine(s *Squadron, right bool) {
	g := rs.g
	ob, nb := g.base(s), g.footprint(s, Mias)
	lead := frontPoint(ob, s.Pose)
	side := table.Norm(s.Pose.Heading + 90)
	if !right {
		side = table.Norm(s.Pose.Heading - 90)
	}
	at := lead.Add(table.Offset(s.Pose.Heading, -nb.Length/2)).Add(table.Offset(side, nb.Beam/2-g.data.Rules.StandWidth/2))
	s.Pose, s.Formation, s.Moved = table.Pose{At: at, Heading: s.Pose.Heading}, Mias, true
	dir := "right"
	if !right {
		dir = "left"
	}
	rs.event("Signals.kinds", "%s deploys from column into line to the %s", s.ID, dir)
}

// validateMove checks a side's movement orders.
func (g *Game) validateMove(side string, orders []*Order) []lineErr {
	i := g.sc.SideIndex(side)
	var errs []lineErr
	seen := map[string]bool{}
	signals := 0
	var sig *Order // the side's signal this turn, carried out before its squadrons move
	for _, o := range orders {
		if o.Signal != "" {
			signals++
			if why, legal := g.validSignal(i, o, signals); why != "" {
				errs = append(errs, lineErr{o, why, legal})
			} else {
				sig = o
			}
		}
	}
	for _, o := range orders {
		if o.Signal != "" {
			continue
		}
		if s := g.sq(o.Sq); sig != nil && s != nil && o.line < sig.line && s.Side == side && g.takesSignal(s, side, sig.Wing) {
			errs = append(errs, lineErr{o, fmt.Sprintf("the signal to the %s wing is announced before that wing moves: write %s's line below the SIGNAL line", sig.Wing, s.ID), nil})
			continue
		}
		if o.Choice != "" || o.Deploy || o.Phalanx != "" {
			errs = append(errs, lineErr{o, "movement orders name a squadron (or give a SIGNAL)", nil})
			continue
		}
		s := g.sq(o.Sq)
		if s == nil || s.Side != side {
			errs = append(errs, lineErr{o, o.Sq + " is not a squadron of yours", g.movable(side)})
			continue
		}
		if seen[s.ID] {
			errs = append(errs, lineErr{o, "one line per squadron", nil})
			continue
		}
		seen[s.ID] = true
		if why, legal := g.validSquadron(g.afterSignal(s, sig), o); why != "" {
			errs = append(errs, lineErr{o, why, legal})
		}
	}
	slices.SortStableFunc(errs, func(x, y lineErr) int { return x.o.line - y.o.line })
	return errs
}

func (g *Game) validSignal(i int, o *Order, n int) (string, []string) {
	var legal []string
	for _, e := range g.Signals[i] {
		if !e.Used {
			legal = append(legal, fmt.Sprintf("SIGNAL %s WING %s", e.Kind, e.Wing))
		}
	}
	switch {
	case g.sc.NoSignals[i]:
		return "this fleet cannot use signals (meeting engagement or ambushed)", nil
	case n > 1 || g.Signalled[i]:
		return "one signal a turn", nil
	case !slices.Contains(legal, o.String()):
		return "only the signals written down before the battle, each once", legal
	}
	return "", nil
}

// movable lists the side's squadrons that may take movement orders now.
func (g *Game) movable(side string) []string {
	var out []string
	for _, s := range g.Squadrons {
		if s.Side == side && s.InPlay() && len(s.Melee) == 0 && !s.Hold && s.Pursuing == "" {
			out = append(out, s.ID)
		}
	}
	return out
}

// validSquadron checks one squadron's order against its formation (rules Formations.*); a
// conditional order's two branches each, for a squadron whose move the average die gives.
func (g *Game) validSquadron(s *Squadron, o *Order) (string, []string) {
	if o.If > 0 {
		if s.InPlay() && s.Formation != Mias && s.Formation != Unformed {
			return fmt.Sprintf("IF waits for the average die, and %s in %s rolls none: it moves 8\"", s.ID, s.Formation), nil
		}
		then := *o
		then.If, then.Else = 0, nil
		if why, legal := g.validSquadron(s, &then); why != "" {
			return why, legal
		}
		return g.validSquadron(s, o.Else)
	}
	switch {
	case s.Status == Beached:
		return s.ID + " is still on the beach (it launches on 10+ at the start of a turn)", nil
	case !s.InPlay():
		return fmt.Sprintf("%s is %s", s.ID, s.Status), nil
	case o.Hold:
		return "", nil
	case len(s.Melee) > 0:
		return fmt.Sprintf("%s is in melee with %s: it fights and cannot move", s.ID, strings.Join(s.Melee, ", ")), []string{s.ID + " HOLD"}
	case s.Hold:
		return s.ID + " pursued last turn and does not move this movement phase", []string{s.ID + " HOLD"}
	case s.Pursuing != "":
		return s.ID + " is pursuing " + s.Pursuing + ": it follows its quarry until it stops pursuing in a morale phase", []string{s.ID + " HOLD"}
	case s.Freighter != (o.Sail != ""):
		if s.Freighter {
			return "freighters only sail: away from the wind or across it", []string{s.ID + " SAIL DOWNWIND", s.ID + " SAIL LEFT", s.ID + " SAIL RIGHT", s.ID + " HOLD"}
		}
		return "only freighters SAIL", nil
	case o.Sail != "":
		return "", nil
	case o.Reform != "":
		if s.Formation != Unformed {
			return s.ID + " is not Unformed: REFORM is for unformed squadrons", nil
		}
		return "", nil
	case o.Formation != "":
		switch {
		case s.Formation == Unformed:
			return "an unformed squadron must spend a stationary turn to reform", []string{s.ID + " REFORM " + Mias}
		case len(o.Steps) > 0 || o.Attack != "":
			return "changing formation costs the whole move (unless done by signal)", []string{s.ID + " " + o.Formation}
		case o.Formation == s.Formation:
			return s.ID + " is already in " + s.Formation, nil
		}
		return "", nil
	}
	if s.Formation == Kyklos {
		return "a squadron in kyklos cannot move", []string{s.ID + " HOLD", s.ID + " " + Mias}
	}
	if why := g.validSteps(s, o.Steps); why != "" {
		return why, g.legalSteps(s)
	}
	if o.Attack != "" {
		t := g.sq(o.Target)
		if t == nil || t.Side == s.Side || !t.InPlay() {
			return o.Target + " is not an enemy squadron in play", nil
		}
		if why := g.attackBarred(s, t, o.Attack); why != "" {
			return why, nil
		}
	}
	return "", nil
}

// validSteps: one whole-move manoeuvre alone; epi mias wheels and backs water; epi pollon
// wheels or turns 90 all together; epi keras turns in succession up to 90 a move; unformed
// squadrons move straight. A change of front (TURN) or an about face costs the whole move for
// every formation but epi keras turning in succession (rules Formations.change,
// Turning.front: "About face and change of front normally cost the move"; the only "at no
// cost" turn is epi keras's).
func (g *Game) validSteps(s *Squadron, steps []mstep) string {
	turned := 0
	for _, st := range steps {
		whole := st.Kind == stAbout || st.Kind == stTurn && s.Formation != Keras || st.Kind == stBack
		switch {
		case whole && len(steps) > 1:
			return fmt.Sprintf("%s costs the whole move: write it alone", st.Kind)
		case st.Kind == stBack && s.Formation != Mias:
			return "only epi mias backs water"
		case st.Kind == stBack && st.Dist > 2*table.Inch:
			return "backing water is 2\" at most"
		case s.Formation == Unformed && st.Kind != stMove:
			return "an unformed squadron moves in a straight line only"
		case st.Kind == stWheel && (s.Formation == Keras || max(st.Deg, -st.Deg) > 90):
			if s.Formation == Keras {
				return "epi keras turns in succession: TURN L|R DEG, up to 90 a move"
			}
			return "a wheel is 90 degrees at most"
		case st.Kind == stTurn && s.Formation == Keras:
			turned += max(st.Deg, -st.Deg)
			if turned > 90 {
				return "epi keras turns up to 90 degrees a move"
			}
		case st.Kind == stTurn && max(st.Deg, -st.Deg) != 90:
			return "epi pollon and epi mias turn 90 degrees (TURN L 90 or TURN R 90)"
		}
	}
	return ""
}

func (g *Game) legalSteps(s *Squadron) []string {
	switch s.Formation {
	case Mias:
		return []string{s.ID + " MOVE", s.ID + " WHEEL L 45 MOVE", s.ID + " BACK 2", s.ID + " TURN R 90", s.ID + " ABOUT", s.ID + " EPI-POLLON", s.ID + " PERIPLOUS ENEMY"}
	case Pollon:
		return []string{s.ID + " MOVE 8", s.ID + " WHEEL R 30 MOVE", s.ID + " TURN L 90", s.ID + " DIEKPLOUS ENEMY"}
	case Keras:
		return []string{s.ID + " MOVE 4 TURN R 45 MOVE 4", s.ID + " EPI-MIAS", s.ID + " DIEKPLOUS ENEMY"}
	case Unformed:
		return []string{s.ID + " MOVE", s.ID + " REFORM EPI-MIAS", s.ID + " HOLD"}
	}
	return []string{s.ID + " HOLD"}
}

// attackBarred says why s may not attempt a diekplous or periplous against t (rules
// Diekplous.who, Diekplous.barred): diekplous from epi pollon or epi keras against an
// unengaged enemy in epi mias; periplous line against line; never green or disordered.
func (g *Game) attackBarred(s, t *Squadron, kind string) string {
	switch {
	case s.Quality < 0:
		return "green squadrons cannot attempt diekplous or periplous"
	case s.Disordered:
		return "disordered squadrons cannot attempt diekplous or periplous"
	case len(t.Melee) > 0:
		return t.ID + " is engaged already"
	case t.Formation != Mias:
		return t.ID + " is not in epi mias"
	case kind == "DIEKPLOUS" && s.Formation != Pollon && s.Formation != Keras:
		return "diekplous is made from epi pollon or epi keras"
	case kind == "PERIPLOUS" && s.Formation != Mias:
		return "periplous is line against line: the attacker must be in epi mias"
	}
	return ""
}
