package duelmap

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/render"
)

// TestShipsInTheirColours: each ship shows in its side's colour at its place on the map.
func TestShipsInTheirColours(t *testing.T) {
	g, err := duel.Ruleset.New(adjudicator.Config{Scenario: "short"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := render.Game(Map, g, "duel-1", "red", false)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for side, want := range map[string]color.RGBA{"red": Red, "blue": Blue} {
		x, y := Ship(side)
		got := img.At(int(x)+render.BoardOrigin.X, int(y)+render.BoardOrigin.Y)
		if r, g, b, _ := got.RGBA(); uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(b>>8) != want.B {
			t.Errorf("%s ship: pixel %v, want %v", side, got, want)
		}
	}
}
