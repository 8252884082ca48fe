package medievalmap

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/table"
	"navarch/dice"
	"navarch/ident"
	"navarch/render"
)

var out = flag.String("out", "", "write the test maps into this directory, to look at them")

func newGame(t testing.TB, scenario string) *medieval.Game {
	t.Helper()
	g, err := medieval.Ruleset.New(adjudicator.Config{Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	return g.(*medieval.Game)
}

// playUntil plays scenario with the bots on both sides, up to n steps, stopping after a step
// for which stop is true.
func playUntil(t testing.TB, scenario string, n int, stop func(*medieval.Game) bool) *medieval.Game {
	t.Helper()
	g := newGame(t, scenario)
	for i := 0; i < n && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), byte(i >> 8), 3})); err != nil {
			t.Fatal(err)
		}
		if stop(g) {
			break
		}
	}
	return g
}

func hasTrace(kind string) func(*medieval.Game) bool {
	return func(g *medieval.Game) bool {
		for _, tr := range g.Last {
			if tr.Kind == kind {
				return g.Next().Kind == adjudicator.NeedOrders
			}
		}
		return false
	}
}

func pngOf(t testing.TB, g *medieval.Game, side string, full bool, name string) (image.Image, *Picture) {
	t.Helper()
	pic, err := Map.Picture(g, "m1", side, full)
	if err != nil {
		t.Fatal(err)
	}
	data, err := render.PNG(pic)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 300<<10 {
		t.Errorf("%s: %d bytes, over 300 KB", name, len(data))
	}
	if *out != "" {
		os.WriteFile(filepath.Join(*out, name), data, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img, pic.(*Picture)
}

// pixel is the colour of the framed image at table point q.
func pixel(img image.Image, p *Picture, q table.Point) color.Color {
	x, y := p.At(q)
	return img.At(render.BoardOrigin.X+int(x), render.BoardOrigin.Y+int(y))
}

func near(a, b color.Color, tol int) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) int { return max(int(x>>8)-int(y>>8), int(y>>8)-int(x>>8)) }
	return d(ar, br) <= tol && d(ag, bg) <= tol && d(ab, bb) <= tol
}

// TestLook writes maps of games under way for a person to look at (-out DIR).
func TestLook(t *testing.T) {
	if *out == "" {
		t.Skip("-out DIR writes the maps")
	}
	for _, sc := range medieval.Ruleset.Scenarios() {
		g := newGame(t, sc.ID)
		pngOf(t, g, "", true, sc.ID+"-start-full.png")
		g = playUntil(t, sc.ID, 400, hasTrace(medieval.TraceFire))
		pngOf(t, g, sc.Sides[0], false, sc.ID+"-fire-crop.png")
		pngOf(t, g, sc.Sides[1], true, sc.ID+"-fire-full.png")
		g = playUntil(t, sc.ID, 400, hasTrace(medieval.TraceBoard))
		pngOf(t, g, sc.Sides[0], false, sc.ID+"-board-crop.png")
	}
}

// twoShips is Sluys with only THOMAS (12,24 heading east, Gunnery PNY both sides, loaded) and
// CHRIST, placed at (12,36) heading east, with the English Main's Sail/Fight card turned.
func twoShips(t *testing.T) *medieval.Game {
	t.Helper()
	g := newGame(t, "sluys-1340")
	var keep []*medieval.Ship
	for _, s := range g.Ships {
		if s.ID == "THOMAS" || s.ID == "CHRIST" {
			s.Lashed = nil
			keep = append(keep, s)
		}
	}
	g.Ships = keep
	keep[1].Pose = table.Pose{At: table.Point{X: 1200, Y: 3600}, Heading: 90}
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/SF1"
	return g
}

func in(x, y float64) table.Point {
	return table.Point{X: table.Len(x * float64(table.Inch)), Y: table.Len(y * float64(table.Inch))}
}

// blend is the colour of the bands k... stacked over the sea, farthest first, as drawn.
func blend(ks ...int) color.RGBA {
	c := colSea
	for _, k := range ks {
		b := bandColors[k]
		a := float64(b.A) / 255
		mix := func(x, y uint8) uint8 { return uint8(float64(x)*a + float64(y)*(1-a) + 0.5) }
		c = color.RGBA{mix(b.R, c.R), mix(b.G, c.G), mix(b.B, c.B), 255}
	}
	return c
}

// TestBandsAndRuler: the whole table at 12 px an inch; the ruler's 6" lines and the sea
// between; the base in its side's colour; the range bands of the active Division's loaded
// broadsides, stacked close over long over extreme off each beam (rule "Gunnery"), and none
// on a Command and Control card.
func TestBandsAndRuler(t *testing.T) {
	g := twoShips(t)
	img, p := pngOf(t, g, "english", true, "bands.png")
	if b := img.Bounds(); b.Dx() != 72*fullScale+2*render.Margin {
		t.Errorf("width %d, want the 72\" table at %d px an inch", b.Dx(), fullScale)
	}
	for _, c := range []struct {
		what string
		at   table.Point
		want color.Color
	}{
		{"THOMAS's base", in(11, 24), sideColors[0]},
		{"the 18\" ruler line", in(18, 3.5), colGrid6},
		{"the sea beside it", in(18.5, 3.5), colSea},
		{"close to THOMAS's port beam", in(12.5, 28.25), blend(2, 1, 0)},
		{"long off her port beam", in(12.5, 31.75), blend(2, 1)},
		{"extreme off her port beam", in(12.5, 39.75), blend(2)},
		{"beyond 20\"", in(12.5, 45.75), colSea},
		{"close to her starboard beam", in(12.5, 19.75), blend(2, 1, 0)},
		{"ahead of her bow, out of both arcs", in(16.5, 24.5), colSea},
	} {
		if got := pixel(img, p, c.at); !near(got, c.want, 8) {
			t.Errorf("%s at %v: %v, want %v", c.what, c.at, got, c.want)
		}
	}
	g.Card = "E-MAIN/CC"
	img, p = pngOf(t, g, "english", true, "bands-cc.png")
	if got := pixel(img, p, in(12.5, 28.25)); !near(got, colSea, 8) {
		t.Errorf("a Command and Control card shows range bands: %v", got)
	}
}

// TestTracesAndMarkers: the last card's move (the path from where she started) and broadside
// (the line to the target) are drawn, as are fire and grapple markers; the crop is a window
// of 40" by 28" at 20 px an inch around them.
func TestTracesAndMarkers(t *testing.T) {
	g := twoShips(t)
	g.Last = []medieval.Trace{
		{Kind: medieval.TraceMove, Ship: "THOMAS", Poses: []table.Pose{{At: in(6, 24), Heading: 90}, {At: in(12, 24), Heading: 90}}},
		{Kind: medieval.TraceFire, Ship: "THOMAS", Target: "CHRIST", Hits: 2},
	}
	g.Ships[1].Burning = true
	img, p := pngOf(t, g, "english", false, "traces.png")
	if b := p.Board(); b.W != 40*cropScale || b.H != 28*cropScale {
		t.Errorf("crop %vx%v, want 40\"x28\" at %d px an inch", b.W, b.H, cropScale)
	}
	for _, c := range []struct {
		what string
		at   table.Point
		want color.Color
	}{
		{"the move's path", in(9, 24), colMove},
		{"the broadside's line", in(12, 32.5), colShot},
		{"CHRIST's fire marker, towards her stern", in(10.8, 36), colFireCore},
	} {
		if got := pixel(img, p, c.at); !near(got, c.want, 8) {
			t.Errorf("%s at %v: %v, want %v", c.what, c.at, got, c.want)
		}
	}
	g.Last = nil
	g.Ships[1].Pose = table.Pose{At: in(12, 25.5), Heading: 90} // beam to beam, north of THOMAS
	g.Ships[0].Grappled, g.Ships[1].Grappled = []string{"CHRIST"}, []string{"THOMAS"}
	img, p = pngOf(t, g, "english", false, "grappled.png")
	if got := pixel(img, p, in(12, 25)); !near(got, colGrapple, 8) {
		t.Errorf("the grapple between THOMAS and CHRIST: %v", got)
	}
}

// TestNotMedieval: the map refuses another ruleset's game.
func TestNotMedieval(t *testing.T) {
	if _, err := Map.Picture(nil, "x", "", false); err == nil {
		t.Error("a nil game drew")
	}
}

// TestSameForBothSides: the rules hide nothing, so both sides' maps show the same board
// (only the title strip names the view); compared before quantizing, whose palette depends
// on the whole image.
func TestSameForBothSides(t *testing.T) {
	g := playUntil(t, "sluys-1340", 400, hasTrace(medieval.TraceFire))
	a, b := render.Image(New(g, "m1", "english", false)), render.Image(New(g, "m1", "french", false))
	if a.Bounds() != b.Bounds() {
		t.Fatalf("sizes differ: %v, %v", a.Bounds(), b.Bounds())
	}
	for y := render.TitleH; y < a.Bounds().Dy(); y++ {
		for x := 0; x < a.Bounds().Dx(); x++ {
			if !near(a.At(x, y), b.At(x, y), 0) {
				t.Fatalf("the maps differ at %d,%d", x, y)
			}
		}
	}
}

// TestWindow: a crop is its full width, starts on a whole inch, and stays on the table.
func TestWindow(t *testing.T) {
	const in = table.Inch
	for _, c := range []struct{ mid, w, size, lo, hi table.Len }{
		{36 * in, 40 * in, 72 * in, 16 * in, 56 * in},
		{2 * in, 40 * in, 72 * in, 0, 40 * in},
		{71 * in, 40 * in, 72 * in, 32 * in, 72 * in},
		{36*in + 50, 40 * in, 72 * in, 16 * in, 56 * in},
		{10 * in, 40 * in, 30 * in, 0, 30 * in},
	} {
		if lo, hi := window(c.mid, c.w, c.size); lo != c.lo || hi != c.hi {
			t.Errorf("window(%d, %d, %d) = %d-%d, want %d-%d", c.mid, c.w, c.size, lo, hi, c.lo, c.hi)
		}
	}
}

// TestLookLate writes maps of a game at its first fire aboard, or at its end if none broke
// out, to look at (-out DIR).
func TestLookLate(t *testing.T) {
	if *out == "" {
		t.Skip("-out DIR writes the maps")
	}
	g := playUntil(t, "winchelsea-1350", 2000, func(g *medieval.Game) bool {
		for _, s := range g.Ships {
			if s.Burning && g.Next().Kind == adjudicator.NeedOrders {
				return true
			}
		}
		return false
	})
	pngOf(t, g, "", true, "late-full.png")
	pngOf(t, g, "english", false, "late-crop.png")
}

// TestTracks: a broadside's track is a dot beside its beam for each level of Gunnery, black
// when loaded and white when not (THOMAS given Gunnery PNY, one dot a side; her port beam
// faces north).
func TestTracks(t *testing.T) {
	g := twoShips(t)
	th := g.Ships[0]
	th.F.GunPort, th.F.GunStarboard, th.Loaded = medieval.PNY, medieval.PNY, [2]medieval.Level{medieval.PNY, medieval.PNY}
	th.Start = th.F
	port := in(12, 24.75+4.0/fullScale) // 4 px off the middle of her port beam
	img, p := pngOf(t, g, "english", true, "tracks-loaded.png")
	if got := pixel(img, p, port); !near(got, colInk, 8) {
		t.Errorf("the loaded port broadside's dot: %v, want %v", got, colInk)
	}
	g.Ships[0].Loaded[0] = medieval.NNE
	img, p = pngOf(t, g, "english", true, "tracks-empty.png")
	if got := pixel(img, p, port); !near(got, color.White, 8) {
		t.Errorf("the empty port broadside's dot: %v, want white", got)
	}
}

// TestCropFramesTheWholeBattle: a report's map frames every ship on the table, both sides',
// not only the Division whose card waits: at Sluys's first card the English are at x 12-14
// and the French at 50-56, so the window widens beyond 40" and draws at a smaller scale;
// the board keeps its one size all game long.
func TestCropFramesTheWholeBattle(t *testing.T) {
	g := playUntil(t, "sluys-1340", 1, func(*medieval.Game) bool { return true })
	sizes := map[render.Rect]bool{}
	for i := 0; ; i++ {
		p := New(g, "m", "english", false)
		sizes[p.Board()] = true
		for _, s := range g.Ships {
			if s.OnTable() && !g.Table().Off(s.Corners()) {
				for _, c := range s.Corners() {
					if c.X < p.proj.X0 || c.X > p.proj.X1 || c.Y < p.proj.Y0 || c.Y > p.proj.Y1 {
						t.Fatalf("step %d (%s): %s at %v is outside the map's window x %v-%v y %v-%v", i, g.Next().What, s.ID, s.Pose, p.proj.X0, p.proj.X1, p.proj.Y0, p.proj.Y1)
					}
				}
			}
		}
		if i == 0 && (p.proj.Scale >= cropScale || p.proj.X1-p.proj.X0 <= cropW) {
			t.Errorf("the first map's window is %v\" at %.1f px an inch: not widened to both fleets", table.FormatInches(p.proj.X1-p.proj.X0), p.proj.Scale)
		}
		if i == 0 {
			pngOf(t, g, "english", false, "whole-battle-crop.png")
		}
		if g.Next().Kind == adjudicator.Over || i > 60 {
			break
		}
		g = playUntil(t, "sluys-1340", i+2, func(*medieval.Game) bool { return false })
	}
	if len(sizes) != 1 {
		t.Errorf("the maps change size: %v", sizes)
	}
}

// TestLabelsClearOfOtherShips: in the bots' games, where ships bunch in boarding actions and
// rafts, no ship's label covers another ship's base on a report's map, and hardly one a shot's
// hit tag: a label that cannot sit beside her stands further out with a leader line.
func TestLabelsClearOfOtherShips(t *testing.T) {
	f := render.NewFonts()
	checked, leaders, onTags := 0, 0, 0
	for _, sc := range []string{"sluys-1340", "winchelsea-1350"} {
		g := newGame(t, sc)
		for i := 0; i < 160 && g.Next().Kind != adjudicator.Over; i++ {
			p := New(g, "m", "english", false)
			pls := p.placeLabels(f, p.Board())
			for _, pl := range pls {
				if pl.at.Leader {
					leaders++
				}
				for _, s := range g.Ships {
					if s != pl.ship && s.OnTable() && pl.at.Box.Covers(p.shape(s)) > 0 {
						t.Errorf("%s step %d: %s's label covers %s", sc, i, pl.ship.ID, s.ID)
					}
				}
				for _, sh := range p.shots() {
					if pl.at.Box.Overlap(tagBox(f, sh)) > 0 {
						t.Logf("%s step %d: %s's label covers the tag %q of a shot", sc, i, pl.ship.ID, sh.tag)
						onTags++
					}
				}
				checked++
			}
			st := g.Next()
			orders := map[string][]adjudicator.Order{}
			for _, side := range st.Sides {
				orders[side], _ = g.Parse(side, g.BotOrders(side))
			}
			if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), byte(i >> 8), 5})); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d labels checked, %d with leader lines, %d over a hit tag", checked, leaders, onTags)
	// A tag weighs as a label: a label covers a corner of one rather than stand far out on a
	// leader line, which is rare.
	if onTags*500 > checked {
		t.Errorf("%d of %d labels cover a shot's hit tag", onTags, checked)
	}
}
