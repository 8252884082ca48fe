package medieval

import (
	"fmt"

	"navarch/adjudicator"
	"navarch/dice"
)

// phase collects what one step does: its events and its rolls.
type phase struct {
	g      *Game
	r      dice.Roller
	notes  *adjudicator.RollNotes // r, noting the rolls behind each event
	events []adjudicator.Event
	catch  []string // the catch/SHIP/HULK rolls made, so that none is asked for twice
}

// event records an event of the kind its rule's section gives (kinds).
func (p *phase) event(rule, format string, a ...any) {
	p.eventAs(adjudicator.KindOf(kinds, rule), rule, format, a...)
}

// eventAs records an event of a kind its place knows; it is behind the rolls made since the
// step's last event.
func (p *phase) eventAs(kind adjudicator.Kind, rule, format string, a ...any) {
	p.events = append(p.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, a...), Rolls: p.notes.Take(), Kind: kind})
}

// d10 rolls n ten-sided dice read with 0 for 10 (rule "Dice"); the values returned are
// 1..10, so a "0" counts as 10 against every required score.
func (p *phase) d10(label, rule string, n int) ([]int, error) {
	roll, err := p.r.Roll(label, 10, n)
	if err != nil {
		return nil, fmt.Errorf("roll %s: %w", label, err)
	}
	roll.As, roll.Rule = dice.AsD10Zero, rule
	return roll.Values, nil
}

// shown writes a d10 value as the rules read it: 10 is 0.
func shown(v int) int { return v % 10 }

func shownAll(vs []int) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = shown(v)
	}
	return out
}
