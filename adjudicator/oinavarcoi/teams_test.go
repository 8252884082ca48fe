package oinavarcoi

import (
	"fmt"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// TestTeamsSplitPlays: in every scenario, each side's bot orders split among 2 and 4 players
// by wings, each player's part sent alone, pass Parse and Validate and resolve as the
// whole side's (adjtest.TeamPlay), over deployment (rule Deployment.secret), initiative (rule Initiative) and movement (rule Movement.each).
func TestTeamsSplitPlays(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		for _, n := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/%d", sc.ID, n), func(t *testing.T) {
				newGame := func() adjudicator.Game {
					g, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
					if err != nil {
						t.Fatal(err)
					}
					return g
				}
				if pl := adjtest.TeamPlay(t, newGame, n, 300, sc.ID, adjtest.AsWhole); pl.Asked < 5 || pl.Shared == 0 {
					t.Errorf("%+v", pl)
				}
			})
		}
	}
}

// TestTeamsCommands: each side's commands are the wings of its fleet list (rules
// Deployment.zone, Signals.list), the convoy's freighters (rule Scenarios.convoy) and the army's
// phalanxes (rule Phalanx.orders): every squadron and phalanx in exactly one, the wing's
// squadrons those the fleet list puts in it.
func TestTeamsCommands(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		gi, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
		if err != nil {
			t.Fatal(err)
		}
		g := gi.(*Game)
		seen := map[string]int{}
		for _, side := range sc.Sides {
			for _, c := range g.Commands(side) {
				for _, id := range c.Units {
					seen[id]++
					s := g.sq(id)
					switch {
					case c.ID == armyCommand:
						if !slices.ContainsFunc(g.Phalanxes, func(p *Phalanx) bool { return p.ID == id && p.Side == side }) {
							t.Errorf("%s: %s in the army", sc.ID, id)
						}
					case s == nil || s.Side != side:
						t.Errorf("%s: %s in %s's command %s", sc.ID, id, side, c.ID)
					case c.ID == convoyCommand && !s.Freighter, c.ID != convoyCommand && s.Wing != c.ID:
						t.Errorf("%s: %s (wing %q) in command %s", sc.ID, id, s.Wing, c.ID)
					}
				}
			}
		}
		for _, s := range g.Squadrons {
			if seen[s.ID] != 1 {
				t.Errorf("%s: %s is in %d commands", sc.ID, s.ID, seen[s.ID])
			}
		}
		for _, p := range g.Phalanxes {
			if seen[p.ID] != 1 {
				t.Errorf("%s: phalanx %s is in %d commands", sc.ID, p.ID, seen[p.ID])
			}
		}
	}
}

// TestTeamsLatePlayer: in every scenario, split among 2 and 4 players, a player who never
// sends his part (a wing's, or the side's commander's with its choices) leaves the others'
// orders standing: each passes alone and Resolve takes them, his units getting the rules'
// no-orders default, over a whole game by the bots (adjtest.LatePlay).
func TestTeamsLatePlayer(t *testing.T) {
	adjtest.LateEveryScenario(t, Ruleset, 300, adjtest.AsWhole)
}

// TestTeamsDeploymentOverlap: two players' deployments, each legal alone, that put two
// squadrons on one spot: the later line's squadron stays where the scenario places it, and
// no two squadrons of the fleet overlap (rule Deployment.secret).
func TestTeamsDeploymentOverlap(t *testing.T) {
	gi, err := Ruleset.New(adjudicator.Config{Scenario: Ruleset.Scenarios()[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	home := g.sq("A2").Pose
	var merged []adjudicator.Order
	for _, text := range []string{"DEPLOY A1 AT 12,11 FACING 0 EPI-POLLON", "DEPLOY A2 AT 12,11 FACING 0 EPI-POLLON"} {
		o, errs := g.Parse("athens", text)
		if len(errs) == 0 {
			errs = g.Validate("athens", o)
		}
		if len(errs) > 0 {
			t.Fatalf("%q alone: %v", text, errs)
		}
		merged = append(merged, o...)
	}
	if errs := g.Validate("athens", merged); len(errs) == 0 {
		t.Fatal("one player's orders putting both squadrons on one spot pass")
	}
	events, err := g.Resolve(map[string][]adjudicator.Order{"athens": merged}, dice.NewActivation(1, 0, ident.Hash{}))
	if err != nil {
		t.Fatal(err)
	}
	if p := g.sq("A1").Pose.At; fmt.Sprint(p) != "12,11" {
		t.Errorf("A1 at %v, want its deployment", p)
	}
	if g.sq("A2").Pose != home {
		t.Errorf("A2 at %v, want the scenario's %v", g.sq("A2").Pose, home)
	}
	if !hasEvent(events, "", "A2's deployment would overlap") {
		t.Errorf("no event tells A2 stays: %v", events)
	}
	for _, s := range g.Squadrons {
		for _, o := range g.Squadrons {
			if s != o && s.Side == o.Side && table.Overlap(g.corners(s), g.corners(o)) {
				t.Errorf("%s overlaps %s", s.ID, o.ID)
			}
		}
	}
}
