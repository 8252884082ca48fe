package medieval

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/table"
	"navarch/dice"

	"navarch/adjudicator"
)

// Card kinds (rule "Sequence").
const (
	cardSF1 = "SF1" // Sail/Fight
	cardSF2 = "SF2"
	cardCC  = "CC" // Command and Control
)

// cards returns the game deck in its canonical order: for each Division of the scenario, two
// Sail/Fight cards and a Command and Control card, "DIVISION/KIND".
func (g *Game) cards() []string {
	var out []string
	for _, d := range g.sc.Divisions {
		for _, k := range []string{cardSF1, cardSF2, cardCC} {
			out = append(out, d.ID+"/"+k)
		}
	}
	return out
}

// cardDivision splits a card into its division and kind.
func cardDivision(card string) (string, string) {
	i := strings.LastIndexByte(card, '/')
	return card[:i], card[i+1:]
}

func isCommand(card string) bool { _, k := cardDivision(card); return k == cardCC }

// newTurn ends the turn under way (fires, victory) and starts the next: every card goes back
// into the deck and the first is drawn (drawNext).
func (g *Game) newTurn(r dice.Roller) ([]*phase, error) {
	notes := adjudicator.NoteRolls(r)
	p := &phase{g: g, r: notes, notes: notes}
	if g.Turn > 0 {
		if err := p.endOfTurn(); err != nil {
			return nil, err
		}
		if g.Over {
			return []*phase{p}, nil
		}
	}
	g.Turn++
	g.Act = 0
	g.Deck = g.cards()
	p.event("Sequence.2", "turn %d: the %d cards are shuffled; each is drawn when the one before it is done", g.Turn, len(g.Deck))
	if err := p.drawNext(); err != nil {
		return nil, err
	}
	return []*phase{p}, nil
}

// drawNext turns the next card whose Division still has a ship that can act; cards of
// divisions with none are set aside. A card is drawn only when it is turned, by a draw
// without replacement from the cards still in the deck in their canonical order (label
// deck/TURN/K for the turn's K-th draw from 0, DICE.md: Draw), so no one knows the order of
// the cards to come, as no one at a table does (rule "Sequence": the cards "will then be
// drawn in any sequence"); Deck holds the cards still to draw in canonical order, an
// unordered set.
func (p *phase) drawNext() error {
	g := p.g
	g.Card = ""
	for len(g.Deck) > 0 {
		k := len(g.cards()) - len(g.Deck)
		i, _, err := dice.Draw(p.r, fmt.Sprintf("deck/%d/%d", g.Turn, k), g.Deck)
		if err != nil {
			return fmt.Errorf("draw a card: %w", err)
		}
		c := g.Deck[i]
		g.Deck = slices.Delete(slices.Clone(g.Deck), i, i+1)
		div, _ := cardDivision(c)
		if g.divisionCanAct(div) {
			g.Card = c
			g.Act++
			p.event("Sequence.2", "card %s drawn: %s", c, g.cardText(c))
			return nil
		}
		p.event("Sequence.2", "card %s drawn: the division has no ship that can act", c)
	}
	return nil
}

func (g *Game) divisionCanAct(div string) bool {
	for _, s := range g.Ships {
		if s.Division == div && (s.Active() || s.Status == Leaving) {
			return true
		}
	}
	return false
}

func (g *Game) cardText(c string) string {
	div, k := cardDivision(c)
	d := g.division(div)
	if k == cardCC {
		return fmt.Sprintf("Command and Control of %s (%s, %s)", d.ID, d.Name, d.Side)
	}
	return fmt.Sprintf("Sail/Fight of %s (%s, %s)", d.ID, d.Name, d.Side)
}

// endOfTurn: burnt ships drift downwind one base length and set fire to the bases they touch
// on 1-4 (rule "Fires"); then the designed end of the battle. A fire's four turns are counted
// in its ship's Command and Control phases (command), so that a fire started after that
// phase still gets its four attempts; a surrendered prize, which has none, counts ends of
// turn.
func (p *phase) endOfTurn() error {
	g := p.g
	for _, s := range g.Ships {
		// a surrendered prize has no Command and Control phase: her fire's turns are ends of turn
		if s.Burning && s.Status == Surrendered && s.OnTable() {
			if err := p.fireBurns(s); err != nil {
				return err
			}
		}
	}
	for _, s := range g.Ships {
		if s.Status != Burnt || !g.onTable(s) {
			continue
		}
		polys, _ := g.obstacles([]*Ship{s})
		from := s.Pose
		s.Pose, _ = s.Base.Slide(s.Pose, table.Downwind(g.Wind), s.Base.Length, polys)
		p.traceMove(s, from, s.Pose)
		p.event("Fires.4", "the burning %s drifts downwind to %v", s.ID, s.Pose)
		for _, o := range g.Ships {
			if o != s && table.Contact(s.Corners(), o.Corners()) {
				if err := p.catchFire(o, s, "touches"); err != nil {
					return err
				}
			}
		}
	}
	p.victory()
	return nil
}

// score returns what side has won: the victory values of enemy ships out of the battle.
func (g *Game) score(side string) int {
	n := 0
	for _, s := range g.Ships {
		if s.Side == side || s.Active() {
			continue
		}
		v := g.data.Type(s.Type).Value
		if s.Status == Surrendered {
			v *= g.data.Rules.Prize
		}
		if s.Flagship {
			v *= g.data.Rules.Flagship
		}
		n += v
	}
	return n
}

// victory ends the battle after the scenario's last turn or when a side has no ship still
// fighting (a designed rule: the text gives none; data/rules.txt).
func (p *phase) victory() {
	g := p.g
	a, b := g.sc.Sides[0], g.sc.Sides[1]
	fighting := func(side string) bool {
		for _, s := range g.Ships {
			if s.Side == side && s.Active() {
				return true
			}
		}
		return false
	}
	if g.Turn < g.sc.Turns && fighting(a) && fighting(b) {
		return
	}
	sa, sb := g.score(a), g.score(b)
	switch {
	case sa >= sb+g.data.Rules.Margin:
		g.Result = fmt.Sprintf("%s wins, %d to %d", a, sa, sb)
	case sb >= sa+g.data.Rules.Margin:
		g.Result = fmt.Sprintf("%s wins, %d to %d", b, sb, sa)
	default:
		g.Result = fmt.Sprintf("a draw, %d to %d", sa, sb)
	}
	g.Over = true
	p.event("Designed.victory", "the battle ends after turn %d: %s", g.Turn, g.Result)
}
