package lepantomap

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/dice"
	"navarch/ident"
	"navarch/render"
	"navarch/test/racesplit"
)

var (
	out    = flag.String("out", "", "write the test maps into this directory, to look at them")
	update = flag.Bool("update", false, "rewrite the README's example map, docs/example/map.png")
)

// played returns a lions-at-sea game after n steps of bot play.
func played(t testing.TB, n int, setUp string) *lepanto.Game {
	t.Helper()
	return playUntil(t, n, setUp, func(*lepanto.Game) bool { return false })
}

// playUntil plays up to n steps, stopping early after a step for which stop is true.
func playUntil(t testing.TB, n int, setUp string, stop func(*lepanto.Game) bool) *lepanto.Game {
	t.Helper()
	gm, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*lepanto.Game)
	for i := 0; i < n && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			text := g.BotOrders(side)
			if i == 0 && side == "ottoman" {
				text = setUp
			}
			orders[side], _ = g.Parse(side, text)
		}
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), 7})); err != nil {
			t.Fatal(err)
		}
		if stop(g) {
			break
		}
	}
	return g
}

func save(t testing.TB, name string, data []byte) {
	t.Helper()
	if *out != "" {
		os.WriteFile(*out+"/"+name, data, 0o644)
	}
}

func decode(t testing.TB, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func near(a, b color.Color, tol int) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) int { return abs(int(x>>8) - int(y>>8)) }
	return d(ar, br) <= tol && d(ag, bg) <= tol && d(ab, bb) <= tol
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestRenderLooks writes the maps of a game under way, with what the last activation did, for
// each side and the referee, cropped and whole (-out DIR to look at them); every map stays
// under the 300 KB a mail may carry.
func TestRenderLooks(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	g := untilTrace(t, "sunk")
	for _, side := range []string{"christian", "ottoman", ""} {
		for _, full := range []bool{false, true} {
			data, err := render.Game(Map, g, "lep-7f3a", side, full)
			if err != nil {
				t.Fatal(err)
			}
			name := map[string]string{"": "referee"}[side] + side + map[bool]string{true: "-full", false: ""}[full] + ".png"
			save(t, name, data)
			if *update && side == "ottoman" && !full {
				if err := os.WriteFile("../../docs/example/map.png", data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if len(data) > 300<<10 {
				t.Errorf("%s: %d bytes, over 300 KB", name, len(data))
			}
			t.Logf("%s: %d bytes", name, len(data))
		}
	}
}

// untilTrace plays lions-at-sea until the game waits for orders with kind in the trace of
// what happened since the last orders: the state a report's map is drawn in.
func untilTrace(t testing.TB, kind string) *lepanto.Game {
	t.Helper()
	found := false
	g := playUntil(t, 400, "SIROQ ON SIR-KAP HIDDEN", func(g *lepanto.Game) bool {
		found = g.Next().Kind == adjudicator.NeedOrders && slices.ContainsFunc(g.View("").Trace,
			func(tr lepanto.Trace) bool { return tr.Kind == kind })
		return found
	})
	if !found {
		t.Fatalf("no %s in 400 steps", kind)
	}
	return g
}

// pixel returns the colour of the image at a board point of p.
func pixel(img image.Image, x, y float64) color.Color {
	return img.At(int(x)+render.Margin, int(y)+render.TitleH)
}

func unitOf(v lepanto.View, id string) lepanto.ViewUnit {
	for _, u := range v.Units {
		if u.ID == id {
			return u
		}
	}
	panic("no unit " + id)
}

// TestUnitsInTheirColours: a counter shows its wing's colour at its hex.
func TestUnitsInTheirColours(t *testing.T) {
	g := played(t, 1, "")
	for _, c := range []struct {
		unit string
		want color.RGBA
	}{{"BAR-VEN3", wingColors["christian-left"]}, {"SUL-STA2", wingColors["ottoman-right"]}} {
		p := fromView(g.View("christian"), "test", false)
		img := decode(t, mustPNG(t, p))
		x, y := p.center(unitOf(p.View, c.unit).Hex)
		y = p.counterY(y)
		side := p.counterSide()
		if got := pixel(img, x-side*0.38, y); !near(got, c.want, 12) {
			t.Errorf("%s at %v: pixel %v, want its wing's %v", c.unit, unitOf(p.View, c.unit).Hex, got, c.want)
		}
		if got := pixel(img, x+side*2, y+side*2); near(got, c.want, 12) {
			t.Errorf("%s's colour also beside it", c.unit)
		}
	}
}

// TestFogOfWar: a hidden leader shows only in his own side's map; the referee's map, which
// is no side's, has no hidden-leader mark and no such legend line.
func TestFogOfWar(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	g := played(t, 1, "SIROQ ON SIR-KAP HIDDEN")
	kap := unitOf(g.View(""), "SIR-KAP")
	if len(kap.HiddenLeaders) != 1 {
		t.Fatalf("set-up did not hide Siroq: %+v", kap)
	}
	for side, want := range map[string]bool{"ottoman": true, "christian": false, "": false} {
		p := fromView(g.View(side), "test", true)
		img := decode(t, mustPNG(t, p))
		x, y := p.center(kap.Hex)
		h := p.counterSide() / 2
		if got := near(pixel(img, x-h, p.counterY(y)-h), colHidden, 10); got != want {
			t.Errorf("%q's map shows the hidden leader: %t, want %t", side, got, want)
		}
		legend := slices.ContainsFunc(p.Legend(), func(it render.LegendItem) bool { return strings.Contains(it.Text, "hidden") })
		if legend != (side != "") {
			t.Errorf("%q's legend has a hidden-leader line: %t", side, legend)
		}
	}
	// A leader in plain sight is a gold star in every view.
	lant := unitOf(g.View(""), "BAR-LANT")
	for _, side := range []string{"ottoman", "christian", ""} {
		p := fromView(g.View(side), "test", true)
		img := decode(t, mustPNG(t, p))
		x, y := p.center(lant.Hex)
		h := p.counterSide() / 2
		if got := pixel(img, x-h, p.counterY(y)-h); !near(got, colStar, 12) {
			t.Errorf("%q's map: Barbarigo's star pixel %v", side, got)
		}
	}
}

// TestLastStepDrawn: a fire arrow runs from the shooter to its target, and the map is cropped
// around the action.
func TestLastStepDrawn(t *testing.T) {
	var fire lepanto.Trace
	g := playUntil(t, 300, "", func(g *lepanto.Game) bool {
		for _, tr := range g.View("").Trace {
			if tr.Kind == "fire" {
				fire = tr
			}
		}
		return fire.Kind != ""
	})
	if fire.Kind == "" {
		t.Fatal("no fire in 200 steps")
	}
	p := fromView(g.View("christian"), "test", false)
	img := decode(t, mustPNG(t, p))
	x0, y0 := p.center(fire.From)
	x1, y1 := p.center(fire.To)
	if got := pixel(img, (x0+x1)/2, (y0+y1)/2); !near(got, colFire, 40) {
		t.Errorf("fire %v→%v: midpoint pixel %v, want the fire arrow's red", fire.From, fire.To, got)
	}
	if p.c0 > fire.From.Col || p.c1 < fire.From.Col || p.r0 > fire.To.Row || p.r1 < fire.To.Row {
		t.Errorf("the crop %d,%d-%d,%d leaves out the action %v→%v", p.c0, p.r0, p.c1, p.r1, fire.From, fire.To)
	}
}

func mustPNG(t testing.TB, p render.Picture) []byte {
	t.Helper()
	data, err := render.PNG(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestReportAfterDrawShowsLastActivation: when the orders of a group are followed by an
// automatic step (the draw of the next chit) before the game waits again, the report's map
// still shows and crops to the moves of that group.
func TestReportAfterDrawShowsLastActivation(t *testing.T) {
	var kinds []adjudicator.StepKind
	g := playUntil(t, 400, "", func(g *lepanto.Game) bool {
		kinds = append(kinds, g.Next().Kind)
		n := len(kinds)
		return n >= 2 && kinds[n-1] == adjudicator.NeedOrders && kinds[n-2] == adjudicator.Auto &&
			slices.ContainsFunc(g.View("").Trace, func(tr lepanto.Trace) bool { return tr.Kind == "move" && len(tr.Path) > 1 })
	})
	v := g.View("christian")
	var mv lepanto.Trace
	for _, tr := range v.Trace {
		if tr.Kind == "move" && len(tr.Path) > 1 {
			mv = tr
		}
	}
	if mv.Kind == "" {
		t.Fatal("no report after a draw shows a move")
	}
	p := fromView(v, "test", false)
	for _, h := range mv.Path {
		if h.Col < p.c0 || h.Col > p.c1 || h.Row < p.r0 || h.Row > p.r1 {
			t.Errorf("the crop %d,%d-%d,%d leaves out %v of the move %v", p.c0, p.r0, p.c1, p.r1, h, mv.Path)
		}
	}
	img := decode(t, mustPNG(t, p))
	x0, y0 := p.center(mv.Path[0])
	x1, y1 := p.center(mv.Path[1])
	// The dashed path runs from a dot at the start: some pixel near the first leg is the path's.
	found := false
	for f := 0.0; f <= 0.5 && !found; f += 0.02 {
		found = near(pixel(img, x0+(x1-x0)*f, y0+(y1-y0)*f), colMove, 30)
	}
	if !found {
		t.Errorf("no move path drawn from %v to %v", mv.Path[0], mv.Path[1])
	}
}

// diceFor is the roller of step i of a test game.
func diceFor(st adjudicator.Step, i int) dice.Roller {
	return dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), byte(i >> 8), 7})
}

// Issue 14: the maps of one step share their crop, and the second draws its hexes from the
// board the first kept; the map is the same, byte for byte, as one drawn afresh.
func TestHexesKeptDrawTheSameMap(t *testing.T) {
	g := untilTrace(t, "move")
	forget := func() {
		layers.mu.Lock()
		defer layers.mu.Unlock()
		layers.keys, layers.pix = nil, nil
	}
	hits := func() int {
		layers.mu.Lock()
		defer layers.mu.Unlock()
		return layers.hits
	}
	forget()
	mustPNG(t, fromView(g.View("christian"), "lep-test", false))
	before := hits()
	kept := mustPNG(t, fromView(g.View("ottoman"), "lep-test", false))
	if hits() != before+1 {
		t.Fatal("the second map of the step did not use the hexes the first kept")
	}
	forget()
	fresh := mustPNG(t, fromView(g.View("ottoman"), "lep-test", false))
	if hits() != before+1 || !bytes.Equal(kept, fresh) {
		t.Error("the map drawn on the kept hexes differs from the map drawn afresh")
	}
}

// The whole map's hexes are kept apart from the crops': the second whole map, of another
// side, is drawn on the hexes the first kept (a crop drawn between evicts them not) and is the
// same, byte for byte, as the map drawn afresh.
func TestWholeMapHexesKept(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	g := untilTrace(t, "move")
	forget := func() {
		wholeLayers.mu.Lock()
		defer wholeLayers.mu.Unlock()
		wholeLayers.keys, wholeLayers.pix = nil, nil
	}
	hits := func() int {
		wholeLayers.mu.Lock()
		defer wholeLayers.mu.Unlock()
		return wholeLayers.hits
	}
	forget()
	mustPNG(t, fromView(g.View("christian"), "lep-test", true))
	before := hits()
	for range maxHexLayers + 1 {
		mustPNG(t, fromView(g.View("christian"), "lep-test", false))
	}
	kept := mustPNG(t, fromView(g.View("ottoman"), "lep-test", true))
	if hits() != before+1 {
		t.Fatal("the second whole map did not use the hexes the first kept")
	}
	forget()
	fresh := mustPNG(t, fromView(g.View("ottoman"), "lep-test", true))
	if hits() != before+1 || !bytes.Equal(kept, fresh) {
		t.Error("the whole map drawn on the kept hexes differs from the map drawn afresh")
	}
}

// The boards kept are reused for the next ones kept: after more crops than are
// kept, each step's second map, drawn on the hexes the first kept in a reused buffer, is the
// same byte for byte as the map drawn afresh.
func TestHexesKeptInReusedBuffers(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	var games []*lepanto.Game
	for _, n := range []int{6, 9, 12, 15, 18, 21, 24, 27} {
		games = append(games, played(t, n, "SIROQ ON SIR-KAP HIDDEN"))
	}
	forget := func() {
		layers.mu.Lock()
		defer layers.mu.Unlock()
		layers.keys, layers.pix = nil, nil
	}
	count := func() (hits, evicted int) {
		layers.mu.Lock()
		defer layers.mu.Unlock()
		return layers.hits, layers.evicted
	}
	var fresh [][]byte
	for _, g := range games {
		forget()
		fresh = append(fresh, mustPNG(t, fromView(g.View("ottoman"), "lep-test", false)))
	}
	forget()
	hits, evicted := count()
	for i, g := range games {
		mustPNG(t, fromView(g.View("christian"), "lep-test", false))
		if kept := mustPNG(t, fromView(g.View("ottoman"), "lep-test", false)); !bytes.Equal(kept, fresh[i]) {
			t.Errorf("game %d: the map drawn on the kept hexes differs from the map drawn afresh", i)
		}
	}
	if h, e := count(); h-hits < len(games) || e-evicted < 2 {
		t.Errorf("%d maps drawn on kept hexes, %d boards evicted; want at least %d and 2", h-hits, e-evicted, len(games))
	}
}
