package lepantomap

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
	"navarch/test/racesplit"
)

// The tests of maps a player can play from: each decodes the render.PNG and looks at
// known places.

// topUnits are the units on top of each hex in play inside p's picture.
func topUnits(p *Picture) []lepanto.ViewUnit {
	m, order := p.stacks()
	var out []lepanto.ViewUnit
	for _, h := range order {
		if h.Col >= p.c0 && h.Col <= p.c1 && h.Row >= p.r0 && h.Row <= p.r1 {
			out = append(out, m[h][len(m[h])-1])
		}
	}
	return out
}

// anyNear reports whether some pixel in the board box (x0, y0)-(x1, y1) is near c.
func anyNear(img image.Image, x0, y0, x1, y1 float64, c color.Color, tol int) bool {
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if near(pixel(img, x, y), c, tol) {
				return true
			}
		}
	}
	return false
}

// TestHexNumberBesideEveryCounter: above every counter its hex number is drawn in the code
// colour, and no counter's colour covers it; in the crop and in the whole map.
func TestHexNumberBesideEveryCounter(t *testing.T) {
	g := played(t, 1, "")
	for _, full := range []bool{false, true} {
		p := fromView(g.View("christian"), "test", full)
		img := decode(t, mustPNG(t, p))
		for _, u := range topUnits(p) {
			x, y := p.center(u.Hex)
			ny := p.numberY(y)
			if !anyNear(img, x-6, ny-3, x+6, ny+3, colCode, 30) {
				t.Errorf("full %t: no hex number drawn above %s at %v", full, u.ID, u.Hex)
			}
			if anyNear(img, x-6, ny-2, x+6, ny+2, wingColors[u.Wing], 8) {
				t.Errorf("full %t: %s's counter covers its hex number %v", full, u.ID, u.Hex)
			}
		}
	}
}

// TestFullUnitIDs: under every counter is a label in its side's colour as wide as the unit's
// whole id, group prefix included ("BAR-VEN1", not "VEN1").
func TestFullUnitIDs(t *testing.T) {
	g := played(t, 1, "")
	f := render.NewFonts()
	for _, full := range []bool{false, true} {
		p := fromView(g.View("ottoman"), "test", full)
		img := decode(t, mustPNG(t, p))
		face := p.label(f, true)
		for _, u := range topUnits(p) {
			x, y := p.center(u.Hex)
			iy := p.idY(y)
			half := (render.TextWidth(face, u.ID) + 4) / 2
			short := render.TextWidth(face, u.ID[strings.Index(u.ID, "-")+1:])/2 + 2
			if half-short < 4 {
				t.Fatalf("%s: the prefix is too narrow to test", u.ID)
			}
			// Just inside the label's left edge, where a label of the id without its prefix
			// would not reach, under the letters' baseline.
			h := float64(face.Metrics().Height)/64 + 1
			if got := pixel(img, x-half+1.5, iy+h/2-1.5); !near(got, sideLabel[u.Side], 40) {
				t.Errorf("full %t: %s's label: pixel %v at its left end, want %v", full, u.ID, got, sideLabel[u.Side])
			}
		}
	}
}

// TestStacksVisible: the lower counters of a stack peek out at the left of the top one in
// their wing's colour, a box says how many units the hex holds, and the stack list under the
// map names every unit of it, top first, with its leaders.
func TestStacksVisible(t *testing.T) {
	g := played(t, 40, "")
	p := fromView(g.View("christian"), "test", false)
	img := decode(t, mustPNG(t, p))
	m, order := p.stacks()
	panels := strings.Join(p.Panels(), "\n")
	stacks := 0
	for _, h := range order {
		st := m[h]
		if len(st) < 2 || h.Col < p.c0 || h.Col > p.c1 || h.Row < p.r0 || h.Row > p.r1 {
			continue
		}
		stacks++
		x, y := p.center(h)
		cy, side := p.counterY(y), p.counterSide()
		lower := st[len(st)-2]
		if !anyNear(img, x-side/2-3, cy-side/2+2, x-side/2-1, cy+side/2-2, wingColors[lower.Wing], 12) {
			t.Errorf("%v: %s does not peek out under the top counter", h, lower.ID)
		}
		if got := pixel(img, x-side/2-float64(len(st)-1)*4-1.5, cy); !near(got, colStack, 20) {
			t.Errorf("%v: no stack count box: pixel %v", h, got)
		}
		var names []string
		for i := len(st) - 1; i >= 0; i-- {
			n := st[i].ID
			if len(st[i].Leaders) > 0 {
				n += " (" + strings.Join(st[i].Leaders, ", ") + ")"
			}
			names = append(names, n)
		}
		if want := h.String() + ": " + strings.Join(names, ", "); !strings.Contains(panels, want) {
			t.Errorf("the stack list lacks %q:\n%s", want, panels)
		}
	}
	if stacks == 0 {
		t.Fatal("no stack in the picture to test")
	}
}

// TestEventMarkers: a hit, an evasion, a flight, a sinking, a surrender and a capture each
// leave a tag in their colour beside the unit's counter, where the placement puts it, clear
// of the counter; a unit lost is drawn as a
// dashed ghost with its id; an evasion's path is teal.
func TestEventMarkers(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	g := played(t, 1, "")
	base := g.View("christian")
	p0 := fromView(base, "test", false)
	u := topUnits(p0)[0]
	for i, tu := range topUnits(p0) {
		if i > 0 && len(tu.Leaders) == 0 {
			u = tu
			break
		}
	}
	to := u.Hex
	from := lepanto.Hex{Col: to.Col, Row: to.Row - 2}
	for _, c := range []struct {
		kind, status string
		want         color.RGBA
	}{
		{"hit", "", colHit}, {"evade", "", colEvade}, {"fled", "fled", colLoss},
		{"sunk", "sunk", colLoss}, {"surrendered", "surrendered", colLoss}, {"captured", "surrendered", colLoss},
	} {
		t.Run(c.kind, func(t *testing.T) {
			v := base
			v.Units = slices.Clone(base.Units)
			for i := range v.Units {
				if v.Units[i].ID == u.ID {
					v.Units[i].Status = c.status
				}
			}
			tr := lepanto.Trace{Kind: c.kind, Unit: u.ID, From: to, To: to}
			if c.kind == "evade" {
				tr.From = from
			}
			v.Trace = []lepanto.Trace{tr}
			p := fromView(v, "test", false)
			img := decode(t, mustPNG(t, p))
			x, y := p.center(to)
			b, first := tagBox(t, p, to)
			if !tagShown(img, first, c.want) {
				t.Errorf("no %s tag at %v: its box %v shows %v, want %v", c.kind, to, b, pixel(img, b.X0+1, b.Y0+6), c.want)
			}
			if b.Overlap(p.counterBox(to)) > 0 {
				t.Errorf("the %s tag %v covers its counter %v", c.kind, b, p.counterBox(to))
			}
			if c.status != "" && !near(pixel(img, x, p.idY(y)-3), sideLabel[u.Side], 40) && !near(pixel(img, x-8, p.idY(y)), sideLabel[u.Side], 40) {
				t.Errorf("the lost %s has no id label", u.ID)
			}
			if c.kind == "evade" {
				fx, fy := p.center(from)
				if !anyNear(img, fx-2, fy+p.size*0.9, fx+2, fy+p.size*1.1, colEvade, 30) {
					t.Errorf("no teal evasion path from %v", from)
				}
			}
		})
	}
	// Without the trace, no tag.
	img := decode(t, mustPNG(t, p0))
	_, y := p0.center(to)
	tx := p0.counterBox(to).X1 + 5 // where a tag to the right would be
	ty := p0.counterY(y)
	if anyNear(img, tx, ty-2, tx+1, ty+2, colHit, 20) {
		t.Errorf("a hit tag without a hit")
	}
}

// TestTitleNumberedAsTheMail: the title names the step the game waits for as the mails do
// ("T1 A3 orders due"); the set-up is turn 1's set-up, not turn 0.
func TestTitleNumberedAsTheMail(t *testing.T) {
	gm, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	if got := New(gm.(*lepanto.Game), "x", "christian", false).Title(); !strings.HasSuffix(got, "· T1 set-up") {
		t.Errorf("set-up title %q", got)
	}
	checked := 0
	playUntil(t, 60, "", func(g *lepanto.Game) bool {
		st := g.Next()
		if st.Kind != adjudicator.NeedOrders {
			return false
		}
		want := fmt.Sprintf("· T%d A%d", st.Turn, st.Act)
		if got := New(g, "x", "ottoman", false).Title(); !strings.HasSuffix(got, want) {
			t.Errorf("title %q, the mail says %q", got, want)
		}
		checked++
		return false
	})
	if checked < 5 {
		t.Fatalf("only %d steps checked", checked)
	}
}

// TestSteadyWidth: every cropped map of a game has the same width, for each side.
func TestSteadyWidth(t *testing.T) {
	widths := map[string]map[int]int{}
	var last *lepanto.Game
	playUntil(t, 200, "", func(g *lepanto.Game) bool {
		if g.Next().Kind != adjudicator.NeedOrders {
			return false
		}
		last = g
		for _, side := range []string{"christian", "ottoman"} {
			p := fromView(g.View(side), "x", false)
			if widths[side] == nil {
				widths[side] = map[int]int{}
			}
			widths[side][int(p.Board().W)+2*render.Margin]++
		}
		return false
	})
	for side, ws := range widths {
		if len(ws) != 1 {
			t.Errorf("%s's maps have widths %v", side, ws)
		}
	}
	img := decode(t, mustPNG(t, fromView(last.View("christian"), "x", false)))
	for w := range widths["christian"] {
		if img.Bounds().Dx() != w {
			t.Errorf("the render.PNG is %d wide, the picture says %d", img.Bounds().Dx(), w)
		}
	}
}

// TestDistinctColours: no colour that marks a state (moves, evasions, fire and hits, rams,
// losses, the counter markers) is near a wing's colour or another state's, so that no colour
// means two things (red was both "ottoman" and "fired at").
func TestDistinctColours(t *testing.T) {
	states := map[string]color.RGBA{"move": colMove, "evade": colEvade, "fire/hit": colFire, "ram": colRam, "loss": colLoss}
	for _, b := range badgeKinds {
		states["badge "+b.letter] = b.fill
	}
	far := func(a, b color.RGBA) bool {
		return max(abs(int(a.R)-int(b.R)), abs(int(a.G)-int(b.G)), abs(int(a.B)-int(b.B))) >= 48
	}
	for s, c := range states {
		for w, wc := range wingColors {
			if !far(c, wc) {
				t.Errorf("state %s %v is near wing %s %v", s, c, w, wc)
			}
		}
		for s2, c2 := range states {
			if s < s2 && !far(c, c2) {
				t.Errorf("states %s and %s share a colour", s, s2)
			}
		}
	}
	if colHit != colFire {
		t.Errorf("a hit is tagged in another colour than the fire that made it")
	}
}

// TestTerrainKey: the legend explains deep water, shallow water and coast, each swatch in the
// colour the map uses for it.
func TestTerrainKey(t *testing.T) {
	p := fromView(played(t, 1, "").View("christian"), "test", false)
	img := decode(t, mustPNG(t, p))
	w := int(p.Board().W) + 2*render.Margin
	colW := float64(w-2*render.Margin) / 4
	y0 := float64(render.TitleH) + p.Board().H + render.Margin
	found := 0
	for i, it := range p.Legend() {
		want, ok := map[string]color.RGBA{"deep water": colDeep, "shallow water": colShallow, "coast (land)": colCoast}[it.Text]
		if !ok {
			continue
		}
		found++
		x := render.Margin + float64(i%4)*colW + 7
		y := y0 + float64(i/4)*render.LegendRowH + 10
		if got := img.At(int(x)+3, int(y)+3); !near(got, want, 8) {
			t.Errorf("legend %q: swatch pixel %v, want %v", it.Text, got, want)
		}
	}
	if found != 3 {
		t.Errorf("the legend has %d of the 3 terrains", found)
	}
}

// TestStatusFullLabelled: the whole map (STATUS FULL) carries hex numbers and ids too.
func TestStatusFullLabelled(t *testing.T) {
	g := played(t, 1, "")
	p := fromView(g.View(""), "test", true)
	img := decode(t, mustPNG(t, p))
	if p.c0 != 1 || p.c1 != g.View("").Cols {
		t.Fatalf("the whole map shows columns %d-%d", p.c0, p.c1)
	}
	for _, u := range topUnits(p) {
		x, y := p.center(u.Hex)
		if !anyNear(img, x-5, p.idY(y)-2, x+5, p.idY(y)+2, sideLabel[u.Side], 30) {
			t.Errorf("%s has no id label on the whole map", u.ID)
		}
	}
	// Hex numbers on empty hexes too.
	x, y := p.center(lepanto.Hex{Col: 1, Row: p.r0})
	if !anyNear(img, x-6, p.numberY(y)-3, x+6, p.numberY(y)+3, colCode, 30) {
		t.Errorf("no hex number on the whole map's first hex")
	}
}

// TestReportMapSizes: the maps a report of the full battle (13.1) sends, at report points
// spread over the first turns, for both sides: every one under the 300 KB a mail may carry,
// and the usual one (the median) at most 80 KB; the whole map too is under 300 KB.
func TestReportMapSizes(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the boards' cache is raced by host's drawing tests)
	if testing.Short() {
		t.Skip("draws some twenty maps of the full battle")
	}
	gm, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*lepanto.Game)
	var sizes []int
	check := func(name string, data []byte) {
		t.Helper()
		if len(data) >= 300<<10 {
			t.Errorf("%s: %d bytes, over 300 KB", name, len(data))
		}
		sizes = append(sizes, len(data))
	}
	reports := 0
	for i := 0; i < 300 && g.Next().Kind != adjudicator.Over && reports < 16; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		if _, err := g.Resolve(orders, diceFor(st, i)); err != nil {
			t.Fatal(err)
		}
		if g.Next().Kind != adjudicator.NeedOrders || i%5 != 0 && i > 2 {
			continue
		}
		for _, side := range []string{"christian", "ottoman"} {
			data, err := render.Game(Map, g, "size", side, false)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("step %d %s", i, side), data)
			save(t, fmt.Sprintf("battle-step%02d-%s.png", i, side), data)
			reports++
		}
	}
	whole, err := render.Game(Map, g, "size", "", true)
	if err != nil {
		t.Fatal(err)
	}
	save(t, "battle-full.png", whole)
	if len(whole) >= 300<<10 {
		t.Errorf("the whole map: %d bytes, over 300 KB", len(whole))
	}
	slices.Sort(sizes)
	median := sizes[len(sizes)/2]
	t.Logf("%d report maps: %d-%d bytes, median %d; whole map %d bytes", len(sizes), sizes[0], sizes[len(sizes)-1], median, len(whole))
	if median > 80<<10 {
		t.Errorf("the usual report map is %d bytes, over 80 KB", median)
	}
}

// TestTraceRecordsEvents: a game played by bots records, for the report's map, each kind of
// event the map marks, and a real hit is tagged at its unit's counter.
func TestTraceRecordsEvents(t *testing.T) {
	seen := map[string]bool{}
	kinds := []string{"move", "fire", "hit", "evade", "fled", "sunk", "surrendered"}
	tagged := false
	playUntil(t, 400, "SIROQ ON SIR-KAP HIDDEN", func(g *lepanto.Game) bool {
		if g.Next().Kind != adjudicator.NeedOrders {
			return false
		}
		for _, tr := range g.View("").Trace {
			seen[tr.Kind] = true
			if tr.Kind == "hit" && !tagged && unitOf(g.View(""), tr.Unit).Status == "" {
				hitTagged(t, g, tr.Unit)
				tagged = true
			}
		}
		return tagged && !slices.ContainsFunc(kinds, func(k string) bool { return !seen[k] })
	})
	for _, k := range kinds {
		if !seen[k] {
			t.Errorf("no %s recorded in 400 steps (saw %v)", k, seen)
		}
	}
	if !tagged {
		t.Fatal("no hit on a unit still in play")
	}
}

// hitTagged checks that the report map of g tags unit as hit beside its counter.
func hitTagged(t *testing.T, g *lepanto.Game, unit string) {
	t.Helper()
	p := New(g, "x", "christian", false)
	img := decode(t, mustPNG(t, p))
	u := unitOf(p.View, unit)
	if _, b := tagBox(t, p, u.Hex); !tagShown(img, b, colHit) {
		t.Errorf("no hit tag beside %s at %v (its box %v)", u.ID, u.Hex, b)
	}
}

// tagBox is where the map places the tags of the unit in hex h: the label's box, and the
// first tag's (the lines are centred in the label, each on a box as wide as its word).
func tagBox(t *testing.T, p *Picture, h lepanto.Hex) (label, first render.Box) {
	t.Helper()
	ls, at := p.placeTags(render.NewFonts(), p.Board())
	for i, l := range ls {
		if l.Of == p.counterBox(h) {
			b := at[i].Box
			mid, w := (b.X0+b.X1)/2, render.TextWidth(l.Lines[0].Face, l.Lines[0].Text)+4
			return b, render.Box{X0: mid - w/2, Y0: b.Y0 + 1, X1: mid + w/2, Y1: b.Y0 + 13}
		}
	}
	t.Fatalf("no tags placed for the unit in %v", h)
	return render.Box{}, render.Box{}
}

// tagShown reports whether the tag in box b shows colour want at its left end, beside its
// word.
func tagShown(img image.Image, b render.Box, want color.Color) bool {
	return anyNear(img, b.X0+1, b.Y0+3, b.X0+2, b.Y0+9, want, 20)
}

// TestTagsClearOfOtherCounters: in a bot game of lions-at-sea, where the galleys close and
// board in clusters, no unit's tags cover another counter or its id on a report's map: tags
// that cannot sit beside their counter stand further out with a leader line. `-out DIR`
// writes the first map with a leader line (tags-leader.png) to look at.
func TestTagsClearOfOtherCounters(t *testing.T) {
	f := render.NewFonts()
	checked, leaders := 0, 0
	saved := false
	playUntil(t, 160, "", func(g *lepanto.Game) bool {
		p := New(g, "x", "christian", false)
		ls, at := p.placeTags(f, p.Board())
		pieces := p.pieces(f)
		for i, l := range ls {
			checked++
			if at[i].Leader {
				leaders++
				if !saved {
					save(t, "tags-leader.png", mustPNG(t, p))
					saved = true
				}
			}
			for _, b := range pieces {
				if b != l.Of && at[i].Box.Overlap(b) > 0 {
					t.Errorf("turn %d: the tags %v at %v cover a counter or id at %v", g.Turn, l.Lines, at[i].Box, b)
				}
			}
		}
		return false
	})
	if checked == 0 {
		t.Fatal("no tags to check")
	}
	t.Logf("%d units' tags checked, %d with leader lines", checked, leaders)
}

// TestCropShowsUnitsDue: at every step of a game that asks a group's, a fury chit's or a side's
// own units for orders, each side's cropped map shows every one of those units it may know of
// (a request for group BAR once came with a map of the other wing's moves alone).
func TestCropShowsUnitsDue(t *testing.T) {
	steps := 0
	playUntil(t, 200, "", func(g *lepanto.Game) bool {
		if g.Next().Kind != adjudicator.NeedOrders {
			return false
		}
		for _, side := range []string{"christian", "ottoman", ""} {
			v := g.View(side)
			p := fromView(v, "x", false)
			for _, u := range v.Units {
				if u.Status != "" || !slices.Contains(v.Due, u.ID) {
					continue
				}
				steps++
				if u.Hex.Col < p.c0 || u.Hex.Col > p.c1 || u.Hex.Row < p.r0 || u.Hex.Row > p.r1 {
					t.Errorf("T%d A%d %s: %q's map (hexes %02d%02d-%02d%02d) leaves out %s at %v, due to give orders",
						v.Turn, v.Act, g.Next().What, side, p.c0, p.r0, p.c1, p.r1, u.ID, u.Hex)
				}
			}
		}
		return false
	})
	if steps == 0 {
		t.Fatal("no step asked any unit for orders")
	}
}
