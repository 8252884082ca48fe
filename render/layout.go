package render

import "image"

// The frame's layout, for the pictures' packages and their pixel tests.
const (
	Margin     = margin     // around the board and the legend
	TitleH     = titleH     // the title strip's height
	LegendRowH = legendRowH // one row of the legend
)

// NewFonts returns the faces every picture draws with.
func NewFonts() *Fonts { return newFonts() }

// Encode writes img as the PNG navarch sends (quantized to a palette where that is smaller).
func Encode(img image.Image) ([]byte, error) { return encode(img) }
