package medieval

import (
	"strings"
	"testing"
)

// figures counts what happened in self-played games.
type figures struct {
	games, sunk, burnt, surrendered, left, leaving int
	broadsides, boardings, missiles, cuts          int
}

func (f *figures) add(steps []played, g *Game) {
	f.games++
	for _, s := range g.Ships {
		switch s.Status {
		case Sunk:
			f.sunk++
		case Burnt:
			f.burnt++
		case Surrendered:
			f.surrendered++
		case Left:
			f.left++
		case Leaving:
			f.leaving++
		}
	}
	for _, p := range steps {
		for _, r := range p.rolls {
			parts := strings.Split(r.Label, "/")
			switch {
			case parts[0] == "gunnery" && len(parts) == 3:
				f.broadsides++
			case parts[0] == "board" && len(parts) == 3 && parts[1] != "" && parts[2] != "hit":
				f.boardings++
			case parts[0] == "missile" && len(parts) == 2:
				f.missiles++
			case parts[0] == "cut":
				f.cuts++
			}
		}
	}
}

// TestSelfPlayFigures plays 40 games (20 seeds of each scenario) with the bots and reports
// what the rules did in them: ships sunk, burnt, surrendered and gone, broadsides fired,
// boarding attacks and missile rolls. The bots close, board and fire, so ships are lost in
// every way the rules have.
func TestSelfPlayFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("40 games")
	}
	var all figures
	for _, sc := range Ruleset.Scenarios() {
		var f figures
		for seed := byte(1); seed <= 20; seed++ {
			steps, g := selfPlay(t, sc.ID, seed)
			f.add(steps, g)
		}
		t.Logf("%s: %+v", sc.ID, f)
		all.games += f.games
		all.sunk += f.sunk
		all.burnt += f.burnt
		all.surrendered += f.surrendered
		all.left += f.left
		all.leaving += f.leaving
		all.broadsides += f.broadsides
		all.boardings += f.boardings
		all.missiles += f.missiles
		all.cuts += f.cuts
	}
	t.Logf("all: %+v", all)
	if all.sunk+all.burnt == 0 || all.surrendered == 0 || all.broadsides < 5*all.games || all.boardings == 0 || all.cuts == 0 {
		t.Errorf("the bots' games lose no ship to the sea or fire, take no prize, fire under five broadsides a game, board or cut free: %+v", all)
	}
}
