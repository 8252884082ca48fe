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
	events []adjudicator.Event
	catch  []string // the catch/SHIP/HULK rolls made, so that none is asked for twice
}

func (p *phase) event(rule, format string, a ...any) {
	p.events = append(p.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, a...)})
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
