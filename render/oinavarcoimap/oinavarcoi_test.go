package oinavarcoimap

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/oinavarcoi"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
	"navarch/render"
)

// oiPlayed returns an Oi Navarcoi! game of scenario id after n steps of bot play.
func oiPlayed(t testing.TB, id string, n int, opts ...string) *oinavarcoi.Game {
	t.Helper()
	gm, err := oinavarcoi.Ruleset.New(adjudicator.Config{Scenario: id, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*oinavarcoi.Game)
	for i := 0; i < n && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		key := sha256.Sum256([]byte(fmt.Sprint(id, i)))
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestOiNavarcoiLooks draws every scenario from both sides after some play and checks pixels
// in known places: a squadron's side colour at its centre's neighbourhood, the viewer's
// friendly edge green and the enemy edge red; `-out DIR` writes the maps to look at. Full-size
// play is drawn after the deployment (its doubled squadrons placed in their zones).
func TestOiNavarcoiLooks(t *testing.T) {
	for _, sc := range oinavarcoi.Ruleset.Scenarios() {
		for _, full := range []bool{false, true} {
			g, name := oiPlayed(t, sc.ID, 4), sc.ID
			if full {
				g, name = oiPlayed(t, sc.ID, 1, oinavarcoi.OptionFullSize), sc.ID+"-full"
			}
			oiLooks(t, g, sc, name)
		}
	}
}

func oiLooks(t *testing.T, g *oinavarcoi.Game, sc adjudicator.Scenario, name string) {
	t.Helper()
	for _, side := range sc.Sides {
		v := g.View(side)
		pic := fromView(v, "test")
		data, err := render.PNG(pic)
		if err != nil {
			t.Fatal(err)
		}
		save(t, fmt.Sprintf("oinavarcoi-%s-%s.png", name, side), data)
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		board := image.Pt(render.Margin, render.TitleH)
		for _, s := range v.Squadrons {
			if s.Status != "" || s.Freighter {
				continue
			}
			c := s.Corners // 1/12 of the way from the stern-starboard corner to the bow-port one: inside the end stand, off its lines, the bow line and the label
			q := c[2]
			q.X += (c[0].X - c[2].X) / 12
			q.Y += (c[0].Y - c[2].Y) / 12
			x, y := pic.pt(q)
			got := img.At(board.X+int(x), board.Y+int(y))
			if !near(got, oiSides[pic.sideIndex(s.Side)], 24) {
				t.Errorf("%s/%s: %s at %v shows %v", name, side, s.ID, q, got)
			}
		}
		for i, want := range v.Edges {
			x0, y0 := pic.pt(oinavarcoiEdgeMid(v, i))
			got := img.At(board.X+int(x0), board.Y+int(y0))
			if !near(got, oiEdgeCols[want], 24) {
				t.Errorf("%s/%s: the %d edge (%s) shows %v", name, side, i, want, got)
			}
		}
	}
}

// oinavarcoiEdgeMid returns the middle of table edge i (north, east, south, west).
func oinavarcoiEdgeMid(v oinavarcoi.View, i int) table.Point {
	return [4]table.Point{{X: v.Width / 2, Y: v.Height}, {X: v.Width, Y: v.Height / 2}, {X: v.Width / 2}, {Y: v.Height / 2}}[i]
}

var out = flag.String("out", "", "write the test maps into this directory, to look at them")

func save(t testing.TB, name string, data []byte) {
	t.Helper()
	if *out != "" {
		if err := os.WriteFile(filepath.Join(*out, name), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

func near(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return int(x>>8)-int(y>>8) <= tol && int(y>>8)-int(x>>8) <= tol }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

// TestMapPicturesOnlyItsGames: the ruleset's map draws its own games and refuses others.
func TestMapPicturesOnlyItsGames(t *testing.T) {
	g := oiPlayed(t, "clash", 2)
	if _, err := render.Game(Map, g, "oin-test", "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := Map.Picture(nil, "x", "", false); err == nil {
		t.Error("a game of another ruleset was pictured")
	}
}

// TestMapHidesTheOtherSignals: after the secret deployment, sparta's map is the same picture
// whether athens wrote signals or not (the list is athens's alone), and athens's map shows
// them.
func TestMapHidesTheOtherSignals(t *testing.T) {
	draw := func(athens, side string) []byte {
		t.Helper()
		gm, err := oinavarcoi.Ruleset.New(adjudicator.Config{Scenario: "clash"})
		if err != nil {
			t.Fatal(err)
		}
		g := gm.(*oinavarcoi.Game)
		orders := map[string][]adjudicator.Order{}
		orders["athens"], _ = g.Parse("athens", athens)
		if errs := g.Validate("athens", orders["athens"]); len(errs) > 0 {
			t.Fatal(errs)
		}
		key := sha256.Sum256([]byte("signals"))
		if _, err := g.Resolve(orders, dice.NewActivation(1, 0, ident.Hash(key))); err != nil {
			t.Fatal(err)
		}
		data, err := render.PNG(fromView(g.View(side), "test"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	with, without := "DEPLOY A1 AT 24,12\nSIGNAL TURN-LEFT WING LEFT", "DEPLOY A1 AT 24,12"
	if !bytes.Equal(draw(with, "sparta"), draw(without, "sparta")) {
		t.Error("sparta's map differs with athens's signal list")
	}
	if bytes.Equal(draw(with, "athens"), draw(without, "athens")) {
		t.Error("athens's map does not show its own signal list")
	}
}

// TestTitleNumbersTheStep: the map's title numbers the step the game waits for as the mails
// do (turn and activation, the deployment, the game's end), and before the deployment the
// panel says how many signals the viewer may write instead of "Your signals left: none".
func TestTitleNumbersTheStep(t *testing.T) {
	for _, c := range []struct {
		steps        int
		title, panel string
	}{
		{0, "· T1 deployment", "Your signals: up to 2, written with your deployment"},
		{1, "· T1 A2", "Your signals left: ENGAGE"},
		{3, "· T2 start", "Your signals left:"},
		{5, "· T2 A3", "Your signals left:"},
		{400, "game over", "Your signals left:"},
	} {
		g := oiPlayed(t, "clash", c.steps)
		p := fromView(g.View("athens"), "test")
		st := g.Next()
		if !bytes.Contains([]byte(p.Title()), []byte(c.title)) {
			t.Errorf("after %d steps (step %+v): title %q, want %q", c.steps, st, p.Title(), c.title)
		}
		if st.Kind != adjudicator.Over && !bytes.Contains([]byte(p.Title()), []byte(fmt.Sprintf("T%d", st.Turn))) {
			t.Errorf("title %q does not number turn %d", p.Title(), st.Turn)
		}
		panels := fmt.Sprint(p.Panels())
		if !bytes.Contains([]byte(panels), []byte(c.panel)) {
			t.Errorf("after %d steps: panels %q, want %q", c.steps, panels, c.panel)
		}
	}
}
