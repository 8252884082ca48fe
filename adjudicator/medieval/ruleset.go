package medieval

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
)

// Ruleset is the medieval d10 rules as an adjudicator.Ruleset.
var Ruleset adjudicator.Ruleset = ruleset{}

type ruleset struct{}

var _ adjudicator.Game = (*Game)(nil)

var builtIn = sync.OnceValues(LoadData)

func (ruleset) ID() string    { return "medieval" }
func (ruleset) Title() string { return "Medieval naval rules (d10)" }

func (ruleset) Options() []adjudicator.Option { return nil }

func (ruleset) Scenarios() []adjudicator.Scenario {
	d, err := builtIn()
	if err != nil {
		return nil
	}
	var out []adjudicator.Scenario
	for _, s := range d.Scenarios {
		out = append(out, adjudicator.Scenario{ID: s.ID, Title: s.Title, Rule: "Designed.scenarios", Sides: slices.Clone(s.Sides), MaxTurns: s.Turns})
	}
	return out
}

// New sets up a scenario. cfg.Tables[TablesKey], if given, is a referee's corrected data
// (Data.WithOverride).
func (ruleset) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	d, err := builtIn()
	if err != nil {
		return nil, err
	}
	if text, ok := cfg.Tables[TablesKey]; ok {
		if d, err = d.WithOverride(text); err != nil {
			return nil, err
		}
	}
	if len(cfg.Options) > 0 {
		return nil, fmt.Errorf("medieval has no options")
	}
	i := slices.IndexFunc(d.Scenarios, func(s *Scenario) bool { return s.ID == cfg.Scenario })
	if i < 0 {
		return nil, fmt.Errorf("medieval has no scenario %q", cfg.Scenario)
	}
	return newGame(d, d.Scenarios[i])
}

// Next says what the game needs: the start of a turn (the shuffle), or the orders of the side
// whose Division's card is turned.
func (g *Game) Next() adjudicator.Step {
	switch {
	case g.Over:
		return adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(g.Act), Kind: adjudicator.Over, What: g.Result}
	case g.Card == "":
		return adjudicator.Step{Turn: uint32(g.Turn + 1), Kind: adjudicator.Auto, What: fmt.Sprintf("start of turn %d: shuffle the deck", g.Turn+1)}
	}
	div, _ := cardDivision(g.Card)
	def := "ships hold their place (leaving ships make for the nearest edge); boarding actions are fought"
	if isCommand(g.Card) {
		def = "every ship fights her fire and reloads the broadside furthest below its Gunnery"
	}
	return adjudicator.Step{Turn: uint32(g.Turn), Act: uint32(g.Act), Kind: adjudicator.NeedOrders,
		Sides: []string{g.division(div).Side}, What: g.cardText(g.Card), Default: def, Standing: slices.Clone(g.sc.Sides)}
}

// Parse reads order text (see ParseOrders).
func (g *Game) Parse(side, text string) ([]adjudicator.Order, []adjudicator.LineError) {
	return ParseOrders(text)
}

// Validate checks orders against the turned card and where the ships stand.
func (g *Game) Validate(side string, orders []adjudicator.Order) []adjudicator.LineError {
	var errs []adjudicator.LineError
	seen := map[string]bool{}
	rafts := map[string]string{} // a ship of a raft already moving -> the ship whose line moves it
	for _, ord := range orders {
		o := ord.(*Order)
		legal, err := g.validate(side, o, seen)
		if s := g.ship(o.Ship); err == nil && s != nil && len(s.Lashed) > 0 && len(o.Path) > 0 {
			if by, moving := rafts[s.ID]; moving {
				err = fmt.Errorf("%s's raft already runs by the line for %s (lashed vessels move together)", s.ID, by)
			}
			for _, r := range g.raft(s) {
				rafts[r.ID] = s.ID
			}
		}
		if err != nil {
			errs = append(errs, adjudicator.LineError{Line: o.line, Text: o.String(), Err: fmt.Errorf("%w: %v", adjudicator.ErrIllegal, err), Legal: legal})
		}
		seen[o.Ship] = true
	}
	return errs
}

func (g *Game) ownShips(side, div string) []string {
	var out []string
	for _, s := range g.Ships {
		if s.Side == side && s.Division == div && (s.Active() || s.Status == Leaving) {
			out = append(out, s.ID)
		}
	}
	return out
}

func (g *Game) validate(side string, o *Order, seen map[string]bool) ([]string, error) {
	if g.Card == "" || g.Over {
		return nil, fmt.Errorf("no card waits for orders")
	}
	div, _ := cardDivision(g.Card)
	s := g.ship(o.Ship)
	own := g.ownShips(side, div)
	switch {
	case s == nil || s.Side != side:
		return own, fmt.Errorf("%s is not a ship of yours", o.Ship)
	case s.Division != div:
		return own, fmt.Errorf("%s is in division %s; the card turned is %s", s.ID, s.Division, g.Card)
	case seen[o.Ship]:
		return own, fmt.Errorf("one line per ship")
	case !s.Active() && s.Status != Leaving:
		return own, fmt.Errorf("%s is %s", s.ID, s.Status)
	}
	if isCommand(g.Card) {
		return g.validateCommand(s, o)
	}
	return g.validateSailFight(s, o)
}

func (g *Game) validateSailFight(s *Ship, o *Order) ([]string, error) {
	if o.Reloading || len(o.Pass) > 0 || o.Douse || len(o.Cut) > 0 {
		return []string{"MOVE", "TURN", "SHOOT", "FIRE", "FIGHT", "HOLD", "GRAPPLE", "NOGRAPPLE", "AGAINST"}, fmt.Errorf("RELOAD, PASS, DOUSE and CUT belong to a Command and Control card; this is %s", g.Card)
	}
	if err := g.checkPath(s, o.Path); err != nil {
		return g.legalMovesText(s), err
	}
	if s.Status == Leaving {
		if err := g.validateLeaving(s, o); err != nil {
			return g.leavingLegal(s), err
		}
	}
	for _, id := range append(append([]string{o.Shoot, o.Against}, o.Fight...), fireTargets(o)...) {
		if id == "" {
			continue
		}
		if t := g.ship(id); t == nil || t.Side == s.Side {
			return g.enemies(s.Side), fmt.Errorf("%s is not an enemy ship", id)
		}
	}
	for _, f := range o.Fire {
		if s.Loaded[sideIndex(f.Side)] == NNE {
			return nil, fmt.Errorf("%s's %s broadside is not loaded (track NNE): reload it in Command and Control", s.ID, f.Side)
		}
	}
	if (o.Shoot != "" || len(o.Fire) > 0) && len(o.Fight) > 0 {
		return nil, fmt.Errorf("a vessel which fights cannot shoot or fire in the same phase")
	}
	var inContact []string
	for _, e := range g.boarders(s) {
		inContact = append(inContact, e.ID)
	}
	for _, id := range o.Fight {
		if !contains(inContact, id) && len(o.Path) == 0 {
			return inContact, fmt.Errorf("%s is not in a boarding action with %s", s.ID, id)
		}
	}
	return nil, nil
}

// validateLeaving checks a leaving ship's line: she "will otherwise take no further part in
// the battle, attempting to leave the table" (rule "Damage"), so she only moves, her move
// must take her towards the edge nearest her (leaveRank), and she may not hold where a
// move would serve. A line of standing orders alone leaves her the default course.
func (g *Game) validateLeaving(s *Ship, o *Order) error {
	switch {
	case o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0:
		return fmt.Errorf("%s takes no further part in the battle: she may only move", s.ID)
	case len(o.Path) > 0:
		return g.leavingError(s, o.Path)
	case o.Hold && g.leavingPath(s) != nil:
		return fmt.Errorf("%s takes no further part in the battle and attempts to leave the table (rule Damage): she may not hold", s.ID)
	}
	return nil
}

// leavingLegal is the answer to a leaving ship's bad line: the course she takes with none.
func (g *Game) leavingLegal(s *Ship) []string {
	if p := g.leavingPath(s); p != nil {
		return []string{fmt.Sprintf("%s %v (the course she takes with no line), or another move towards the edge nearest her", s.ID, p)}
	}
	return []string{s.ID + " HOLD (no move takes her towards the table's edge)"}
}

func fireTargets(o *Order) []string {
	var out []string
	for _, f := range o.Fire {
		out = append(out, f.Target)
	}
	return out
}

func (g *Game) enemies(side string) []string {
	var out []string
	for _, s := range g.Ships {
		if s.Side != side && s.Active() {
			out = append(out, s.ID)
		}
	}
	return out
}

func (g *Game) validateCommand(s *Ship, o *Order) ([]string, error) {
	if len(o.Path) > 0 || o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0 {
		return []string{"RELOAD", "PASS", "DOUSE", "CUT", "HOLD", "GRAPPLE", "NOGRAPPLE", "AGAINST"}, fmt.Errorf("MOVE, TURN, SHOOT, FIRE and FIGHT belong to a Sail/Fight card; this is %s", g.Card)
	}
	if s.Status == Leaving && (o.Reloading || len(o.Pass) > 0) {
		return nil, fmt.Errorf("%s takes no further part in the battle", s.ID)
	}
	if t := g.ship(o.Against); o.Against != "" && (t == nil || t.Side == s.Side) {
		return g.enemies(s.Side), fmt.Errorf("%s is not an enemy ship", o.Against)
	}
	for _, p := range o.Pass {
		if t := g.ship(p.To); t == nil || t.Side != s.Side || t == s {
			return nil, fmt.Errorf("%s is not another ship of yours", p.To)
		}
	}
	if len(o.Cut) > 1 {
		return nil, errOneCut
	}
	for _, c := range o.Cut {
		if !contains(s.Grappled, c) && !contains(s.Lashed, c) {
			return append(slices.Clone(s.Grappled), s.Lashed...), fmt.Errorf("%s is neither grappled with nor lashed to %s", s.ID, c)
		}
	}
	if o.Douse && !s.Burning {
		return nil, fmt.Errorf("%s is not on fire", s.ID)
	}
	return nil, nil
}

// Resolve performs the current step.
func (g *Game) Resolve(orders map[string][]adjudicator.Order, r dice.Roller) ([]adjudicator.Event, error) {
	if g.Over {
		return nil, fmt.Errorf("the game is over")
	}
	if g.Card == "" {
		ps, err := g.newTurn(r)
		if err != nil {
			return nil, err
		}
		return ps[0].events, nil
	}
	notes := adjudicator.NoteRolls(r)
	p := &phase{g: g, r: notes, notes: notes}
	g.Last = nil
	div, _ := cardDivision(g.Card)
	var own []*Order
	for _, o := range orders[g.division(div).Side] {
		own = append(own, o.(*Order))
	}
	held := g.held
	g.held = nil
	for _, o := range append(held, own...) {
		p.wish(o)
	}
	var err error
	if isCommand(g.Card) {
		err = p.command(div, own)
	} else {
		err = p.sailFight(div, own)
	}
	if err != nil {
		return nil, err
	}
	if err := p.drawNext(); err != nil {
		return nil, err
	}
	return p.events, nil
}

// wish applies a ship's standing orders (rules "Grappling", "Boarding" iii); a standing
// order is told when it changes (restated, it changes nothing).
func (p *phase) wish(o *Order) {
	s := p.g.ship(o.Ship)
	if s == nil {
		return
	}
	if o.Grapple != "" && s.NoGrapple != (o.Grapple == "NOGRAPPLE") {
		s.NoGrapple = o.Grapple == "NOGRAPPLE"
		p.event("Grappling.1", "%s will %sgrapple an enemy she comes into contact with", s.ID, map[bool]string{true: "not ", false: ""}[s.NoGrapple])
	}
	if o.Against != "" && s.Against != o.Against {
		s.Against = o.Against
		p.event("Boarding.3", "%s will fight against %s when %s's Division is phasing and they are in contact", s.ID, s.Against, s.Against)
	}
}

// sailFight resolves a Sail/Fight card (rule "Sequence"): every ship's move in the order of
// the lines, then missiles, then broadsides, then boarding.
func (p *phase) sailFight(div string, orders []*Order) error {
	g := p.g
	ordered := map[string]bool{}
	for _, o := range orders {
		ordered[o.Ship] = !o.wishOnly()
		if len(o.Path) > 0 {
			if err := p.move(g.ship(o.Ship), o.Path); err != nil {
				return err
			}
		}
	}
	for _, s := range g.Ships { // leaving ships with no line make for the nearest edge
		if s.Division == div && s.Status == Leaving && !ordered[s.ID] {
			if path := g.leavingPath(s); path != nil {
				p.event("Damage.2", "%s, leaving the battle, makes for the nearest table edge", s.ID)
				if err := p.move(s, path); err != nil {
					return err
				}
			}
		}
	}
	for _, o := range orders {
		if o.Shoot != "" {
			if err := p.shoot(g.ship(o.Ship), o.Shoot); err != nil {
				return err
			}
		}
	}
	for _, o := range orders {
		for _, f := range o.Fire {
			if err := p.fire(g.ship(o.Ship), f); err != nil {
				return err
			}
		}
	}
	fights := map[string][]string{}
	for _, o := range orders {
		var still []string
		for _, e := range g.boarders(g.ship(o.Ship)) {
			if contains(o.Fight, e.ID) {
				still = append(still, e.ID)
			}
		}
		if len(still) > 0 {
			fights[o.Ship] = still
		}
	}
	return p.boarding(div, fights)
}

// command resolves a Command and Control card: reloads, passes, fire fighting and cutting
// free, in the order of the lines; a ship with no line, or only a GRAPPLE or NOGRAPPLE line,
// fights her fire and reloads her emptiest broadside (the no-orders default).
func (p *phase) command(div string, orders []*Order) error {
	g := p.g
	byShip := map[string]*Order{}
	for _, o := range orders {
		byShip[o.Ship] = o
	}
	for _, s := range g.Ships {
		if s.Division != div || (!s.Active() && s.Status != Leaving) {
			continue
		}
		o := byShip[s.ID]
		if o == nil || o.wishOnly() {
			o = &Order{Ship: s.ID, Douse: s.Burning}
			if side, ok := defaultReload(s); ok && s.Active() {
				o.Reload, o.Reloading = side, true
			}
		}
		if err := p.commandShip(s, o); err != nil {
			return err
		}
		if err := p.fireBurns(s); err != nil {
			return err
		}
	}
	return nil
}

// fireBurns counts a Command and Control phase a fire has burnt through: "a fire may burn
// for four turns", and each turn gives one attempt to put it out in this phase, so a fire
// still burning after its fourth such phase (fought every time or not) is out of control
// (rule "Fires"). A fire that starts after its ship's phase in a turn gets its four attempts
// in the turns that follow.
func (p *phase) fireBurns(s *Ship) error {
	if !s.Burning || s.Status == Burnt {
		return nil
	}
	s.FireTurns++
	if s.FireTurns >= 4 {
		what := "Command and Control phases"
		if s.Status == Surrendered {
			what = "turns"
		}
		p.event("Fires.2", "%s's fire has burnt through four %s", s.ID, what)
		return p.outOfControl(s)
	}
	return nil
}

func (p *phase) commandShip(s *Ship, o *Order) error {
	if o.Douse {
		if err := p.douse(s); err != nil {
			return err
		}
	}
	if !s.Active() {
		return nil
	}
	if o.Reloading {
		p.reload(s, o.Reload)
	}
	for k, po := range o.Pass {
		if err := p.pass(s, po, k+1); err != nil {
			return err
		}
	}
	if !s.Active() { // she passed her last Combat (rule "Damage")
		return nil
	}
	for _, c := range o.Cut {
		if err := p.cut(s, c); err != nil {
			return err
		}
	}
	return nil
}

// Help describes the order language, with the side's ships and what each may do.
func (g *Game) Help(side string) string {
	var b strings.Builder
	b.WriteString(helpText)
	for _, s := range g.Ships {
		if s.Side != side || !s.Active() {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s, %s): %v, loaded %v/%v\n", s.ID, s.Name, s.Division, s.F, s.Loaded[0], s.Loaded[1])
		for _, l := range g.legalMoves(s) {
			b.WriteString("  " + l + "\n")
		}
		for _, r := range g.inRange(s) {
			b.WriteString("  " + r + "\n")
		}
	}
	return b.String()
}

const helpText = `Orders: one line per ship of the Division whose card is turned.
Sail/Fight:  LION MOVE 3 | LION MOVE 1.5 TURN S30 MOVE 1.5 | LION TURN P30 MOVE 1.5 TURN P30 MOVE 1.5
             then SHOOT EAGLE (missiles), FIRE PORT EAGLE (a broadside), FIGHT EAGLE HAWK (split boarding dice)
Command and Control:  LION RELOAD PORT | LION PASS COMBAT TO BEAR | LION DOUSE | LION CUT EAGLE
LION NOGRAPPLE (or GRAPPLE), on any card: whether she wishes to grapple an enemy she touches.
LION AGAINST EAGLE, on any card: when the enemy's Division is phasing and she is in contact
with EAGLE, she fights against EAGLE (otherwise against the first phasing ship in contact).
A line of only these standing orders leaves the card's defaults to the ship.
LION HOLD does nothing. Distances in inches (1.5), turns P (port) or S (starboard) up to 30 degrees.
A raft of lashed ships: LION MOVE 2 (at most) runs the whole raft downwind, no turns, and
only when it is running. A leaving ship (Combat NNE) only moves, towards the table edge
nearest her, and may not hold; with no line she makes for that edge.
Orders ahead: lines for ships whose card is not turned are held and used when it is, each
ship's first line of that card's kind first (so two MOVE lines serve her two Sail/Fight cards).
`

// EnemiesInRange lists, for each of side's ships still fighting, the enemies within 20"
// with range, band and arc, for the player's report.
func (g *Game) EnemiesInRange(side string) []string {
	var out []string
	for _, s := range g.Ships {
		if s.Side == side && s.Active() {
			for _, r := range g.inRange(s) {
				out = append(out, s.ID+": "+r)
			}
		}
	}
	return out
}

// inRange lists the enemies within 20" of s with range, band and the arcs they are in
// (nearest base edge to nearest base edge).
func (g *Game) inRange(s *Ship) []string {
	var out []string
	for _, e := range g.Ships {
		if e.Side == s.Side || !e.Active() {
			continue
		}
		d := table.Distance(s.Corners(), e.Corners())
		if d > gunReach {
			continue
		}
		var arcs []string
		for _, a := range s.Base.ArcsOf(s.Pose, e.Corners(), gunReach) {
			arcs = append(arcs, a.String())
		}
		_, name := band(d)
		out = append(out, fmt.Sprintf("enemy %s at %s\" (%s), arc %s", e.ID, table.FormatInches(d), name, strings.Join(arcs, "+")))
	}
	return out
}
