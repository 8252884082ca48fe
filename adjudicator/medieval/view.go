package medieval

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

// Nothing in the rules is hidden from either side (the open table; the deck is shuffled in
// the open log), so every side sees the whole game: the accessors below serve the map and
// the reports alike.

// Band is a gunnery range band (rule "Gunnery"): ranges up to To, rolling Dice dice.
type Band struct {
	Name string
	To   table.Len
	Dice int
}

// Bands are the gunnery range bands, nearest first (rule "Gunnery": Close 0-4", Long 4"-10",
// Extreme 10"-20").
var Bands = []Band{{"close", 4 * table.Inch, 3}, {"long", 10 * table.Inch, 2}, {"extreme", gunReach, 1}}

// ScenarioTitle is the scenario's title.
func (g *Game) ScenarioTitle() string { return g.sc.Title }

// MaxTurns is the scenario's last turn.
func (g *Game) MaxTurns() int { return g.sc.Turns }

// Table is the playing area.
func (g *Game) Table() table.Table { return g.sc.Table }

// Sides are the scenario's sides in its order.
func (g *Game) Sides() []string { return slices.Clone(g.sc.Sides) }

// Divisions are the scenario's Divisions in its order.
func (g *Game) Divisions() []Division { return slices.Clone(g.sc.Divisions) }

// MissileRange is the missile range of the rules data (a substitute).
func (g *Game) MissileRange() table.Len { return g.data.Rules.MissileRange }

// ActiveDivision is the Division whose card is turned and waits for orders ("" if none),
// and whether the card is a Command and Control card.
func (g *Game) ActiveDivision() (string, bool) {
	if g.Card == "" || g.Over {
		return "", false
	}
	div, _ := cardDivision(g.Card)
	return div, isCommand(g.Card)
}

// Summary implements adjudicator.Summarizer: the whole battle, as the open table shows it
// to everyone. For a side: each of her ships, where she stands, her factors, tracks and
// markers, followed by every enemy still fighting with range and arc from her (band too
// within 20", the rest on one line), so nobody has to measure a picture; then every enemy
// ship's own line. For the referee (side ""), every ship so.
func (g *Game) Summary(side string) adjudicator.Summary {
	if side == "" {
		return adjudicator.Summary{{Heading: "Positions", Lines: g.positions(func(*Ship) bool { return true })}}
	}
	return adjudicator.Summary{
		{Heading: "Your ships", Lines: g.positions(func(s *Ship) bool { return s.Side == side })},
		{Heading: "The enemy's ships", Lines: g.shipLines(func(s *Ship) bool { return s.Side != side })},
	}
}

// reachAll is more than any table's diagonal: every enemy on it.
const reachAll = 1000 * table.Inch

// positions are the lines of the ships for which pick is true, each followed by the
// bearings of every enemy still fighting.
func (g *Game) positions(pick func(*Ship) bool) []string {
	var out []string
	for _, s := range g.Ships {
		if !pick(s) {
			continue
		}
		if !s.Active() {
			out = append(out, fmt.Sprintf("%s %s", s.ID, s.Status))
			continue
		}
		out = append(out, shipLine(s))
		for _, r := range g.inRange(s) {
			out = append(out, "  "+r)
		}
		if far := g.beyond(s); len(far) > 0 {
			out = append(out, "  beyond 20\": "+strings.Join(far, ", "))
		}
	}
	return out
}

// beyond lists the active enemies more than 20" from s, out of gunnery's reach, each with
// her range and the arcs of s she is in, on one line.
func (g *Game) beyond(s *Ship) []string {
	var out []string
	for _, e := range g.Ships {
		if e.Side == s.Side || !e.Active() {
			continue
		}
		d := table.Distance(s.Corners(), e.Corners())
		if d <= gunReach {
			continue
		}
		var arcs []string
		for _, a := range s.Base.ArcsOf(s.Pose, e.Corners(), reachAll) {
			arcs = append(arcs, a.String())
		}
		out = append(out, fmt.Sprintf("%s %s\" %s", e.ID, table.FormatInches(d), strings.Join(arcs, "+")))
	}
	return out
}

// shipLines are the lines of the ships for which pick is true, without bearings.
func (g *Game) shipLines(pick func(*Ship) bool) []string {
	var out []string
	for _, s := range g.Ships {
		switch {
		case !pick(s):
		case !s.Active():
			out = append(out, fmt.Sprintf("%s %s", s.ID, s.Status))
		default:
			out = append(out, shipLine(s))
		}
	}
	return out
}

// shipLine is one ship's line of the summary.
func shipLine(s *Ship) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %v h%03d %v loaded %v/%v", s.ID, s.Division, s.Pose.At, s.Pose.Heading, s.F, s.Loaded[0], s.Loaded[1])
	if s.Flagship {
		b.WriteString(", flagship")
	}
	if s.Burning {
		fmt.Fprintf(&b, ", on fire (%d of 4 attempts made, %d of 4 Command and Control phases burnt)", s.FireTries, s.FireTurns)
	}
	if len(s.Grappled) > 0 {
		b.WriteString(", grappled with " + strings.Join(s.Grappled, " "))
	}
	if len(s.Lashed) > 0 {
		b.WriteString(", lashed to " + strings.Join(s.Lashed, " "))
	}
	if s.Against != "" {
		b.WriteString(", standing order AGAINST " + s.Against)
	}
	return b.String()
}
