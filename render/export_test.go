package render

import "image"

// Quantize is quantize, for the external tests.
func Quantize(img image.Image) *image.Paletted { return quantize(img) }
