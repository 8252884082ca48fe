package medieval

import (
	"crypto/sha256"
	"fmt"
	"navarch/adjudicator/adjtest"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
)

// played is one step of a self-played game: the orders sent, the rolls made, the state after.
type played struct {
	orders map[string]string
	rolls  []dice.Roll
	state  []byte
}

// selfPlay plays scenario id to its end with BotOrders on both sides and real dice keyed by
// seed; every order line the bot sends must validate.
func selfPlay(t *testing.T, id string, seed byte) ([]played, *Game) {
	t.Helper()
	g := newScenario(t, id)
	var steps []played
	for i := 0; g.Next().Kind != adjudicator.Over; i++ {
		if i > 2000 {
			t.Fatalf("%s: no end after %d steps", id, i)
		}
		st := g.Next()
		p := played{orders: map[string]string{}}
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			adjtest.CheckForm(t, g, side)
			text := g.BotOrders(side)
			os, errs := g.Parse(side, text)
			errs = append(errs, g.Validate(side, os)...)
			if len(errs) > 0 {
				t.Fatalf("%s step %d: the bot's orders %q are refused: %v", id, i, text, errs)
			}
			p.orders[side], orders[side] = text, os
		}
		key := sha256.Sum256([]byte{seed, byte(i), byte(i >> 8)})
		act := dice.NewActivation(st.Turn, st.Act, ident.Hash(key))
		if _, err := g.Resolve(orders, act); err != nil {
			t.Fatalf("%s step %d (%s): %v", id, i, st.What, err)
		}
		for _, r := range act.Rolls() {
			p.rolls = append(p.rolls, *r)
		}
		p.state = g.Encode()
		steps = append(steps, p)
	}
	return steps, g
}

// TestSelfPlay: bots play every scenario to the end; a replay of the logged orders and rolls
// reaches the same state after every step, byte for byte.
func TestSelfPlay(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			steps, g := selfPlay(t, sc.ID, 7)
			if !g.Over || g.Result == "" {
				t.Fatalf("not over: %s", g.Result)
			}
			var lost []string
			for _, s := range g.Ships {
				if s.Status != Afloat {
					lost = append(lost, s.ID+" "+s.Status)
				}
			}
			t.Logf("%s: %d steps, turn %d, %s; out of the battle: %s", sc.ID, len(steps), g.Turn, g.Result, strings.Join(lost, ", "))
			h := newScenario(t, sc.ID)
			for i, p := range steps {
				orders := map[string][]adjudicator.Order{}
				for side, text := range p.orders {
					orders[side], _ = h.Parse(side, text)
				}
				r := dice.NewReplay(p.rolls)
				if _, err := h.Resolve(orders, r); err != nil {
					t.Fatalf("replay step %d: %v", i, err)
				}
				if err := r.Done(); err != nil {
					t.Fatalf("replay step %d: %v", i, err)
				}
				if string(h.Encode()) != string(p.state) {
					t.Fatalf("replay step %d differs:\n%s\nwant\n%s", i, h.Encode(), p.state)
				}
			}
		})
	}
}

// TestSelfPlayFights: across a few seeds the bots' games see broadsides, boarding and
// damage, so the self-play test exercises the rules and not only movement.
func TestSelfPlayFights(t *testing.T) {
	seen := map[string]bool{}
	for seed := byte(1); seed <= 3; seed++ {
		for _, sc := range Ruleset.Scenarios() {
			steps, _ := selfPlay(t, sc.ID, seed)
			for _, p := range steps {
				for _, r := range p.rolls {
					seen[strings.SplitN(r.Label, "/", 2)[0]] = true
				}
			}
		}
	}
	for _, kind := range []string{"deck", "gunnery", "board", "missile"} {
		if !seen[kind] {
			t.Errorf("no %s roll in the bots' games (seen %v)", kind, fmt.Sprint(seen))
		}
	}
}

// TestWinchelseaEnglishClose: the English at Winchelsea, beating with the Castilians to
// windward, close with them (close-hauled, wearing round rather than into the wind's eye)
// and none ends stuck against the table's edge: most of them come within 10" of an enemy,
// and every one still afloat ends 3" or more from every edge.
func TestWinchelseaEnglishClose(t *testing.T) {
	for seed := byte(1); seed <= 4; seed++ {
		g := newScenario(t, "winchelsea-1350")
		near := map[string]bool{}
		for i := 0; g.Next().Kind != adjudicator.Over; i++ {
			st := g.Next()
			orders := map[string][]adjudicator.Order{}
			for _, side := range st.Sides {
				orders[side], _ = g.Parse(side, g.BotOrders(side))
			}
			if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), byte(i >> 8), seed})); err != nil {
				t.Fatal(err)
			}
			for _, s := range g.Ships {
				if _, d := g.nearestEnemy(s, s.Pose); s.Side == "english" && d <= 10*table.Inch {
					near[s.ID] = true
				}
			}
		}
		n := 0
		for _, s := range g.Ships {
			if s.Side != "english" {
				continue
			}
			n++
			if _, d := g.nearestEdge(s.Pose); s.Status == Afloat && d < 3*table.Inch {
				t.Errorf("seed %d: %s ends against the %v", seed, s.ID, s.Pose)
			}
		}
		if len(near)*2 < n {
			t.Errorf("seed %d: only %v of %d English ships came within 10\" of an enemy", seed, near, n)
		}
	}
}
