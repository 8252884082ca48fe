package render_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
	"navarch/render/lepantomap"
	"navarch/test/racesplit"
)

// TestPNGDecodesLikeImagePNG: the PNG the package writes decodes, with image/png, to the
// pixels image/png's own encoding of the same quantized image decodes to, for maps of a game
// (each side's and the referee's, cropped and whole) and for pictures at the edges (one
// pixel, one colour, more colours than a palette holds); and a map is no more than 3 % larger
// (a gradient, which no map is, compresses less well by half).
func TestPNGDecodesLikeImagePNG(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the pools are raced by host's drawing tests)
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	imgs := map[string]image.Image{"one pixel": flat(1, 1), "one colour": flat(300, 7), "gradient": gradient(640, 480)}
	for _, side := range []string{"christian", "ottoman", ""} {
		for _, full := range []bool{false, true} {
			p, err := lepantomap.Map.Picture(g, "lep-1", side, full)
			if err != nil {
				t.Fatal(err)
			}
			imgs["map "+side+map[bool]string{true: " full"}[full]] = render.Image(p)
		}
	}
	for name, img := range imgs {
		t.Run(name, func(t *testing.T) {
			data, err := render.Encode(img)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := png.Encode(&want, render.Quantize(img)); err != nil {
				t.Fatal(err)
			}
			samePixels(t, decode(t, data), decode(t, want.Bytes()))
			t.Logf("%d bytes, image/png's %d", len(data), want.Len())
			if strings.HasPrefix(name, "map") && len(data) > want.Len()*103/100 {
				t.Errorf("%d bytes, image/png's %d", len(data), want.Len())
			}
		})
	}
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func samePixels(t *testing.T, got, want image.Image) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if g, w := color.RGBAModel.Convert(got.At(x, y)), color.RGBAModel.Convert(want.At(x, y)); g != w {
				t.Fatalf("pixel (%d, %d) is %v, want %v", x, y, g, w)
			}
		}
	}
}

func flat(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = []uint8{40, 90, 200, 255}[i%4]
	}
	return img
}

// gradient has some 2,000 colours after rounding to 5 bits a channel: most take the nearest
// of the 256 kept.
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) % 97), 255})
		}
	}
	return img
}
