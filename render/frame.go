package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// Rect is a region of a picture's board, in board pixels.
type Rect struct{ X, Y, W, H float64 }

// LegendItem explains a colour or a mark.
type LegendItem struct {
	Color color.Color
	Mark  string // drawn in the swatch, may be empty
	Text  string
}

// Picture is a ruleset's board as one side sees it.
type Picture interface {
	// Board is the region to draw, in board pixels: the whole board or a crop of it.
	Board() Rect
	// Draw draws the board region r, whose top-left corner is at the context's origin.
	Draw(dc *gg.Context, r Rect, f *Fonts)
	// Title is the first line of the title strip; Status the second (turn, wind…).
	Title() string
	Status() []string
	// Legend explains the picture's colours and marks; Panels are extra text lines under it
	// (tracks and the like).
	Legend() []LegendItem
	Panels() []string
}

// Compass is implemented by pictures that show a wind rose: the direction the wind blows from,
// in degrees clockwise from north.
type Compass interface {
	WindFrom() (degrees float64, label string)
}

// Fonts are the faces a picture draws with. A face is not safe for concurrent use, so each
// render makes its own from the shared parsed fonts.
type Fonts struct {
	Small, Normal, Bold font.Face
	sized               map[faceKey]font.Face
}

type faceKey struct {
	bold bool
	px   float64
}

// Face is the regular or bold face at px pixels, made once per render.
func (f *Fonts) Face(bold bool, px float64) font.Face {
	k := faceKey{bold, px}
	if fc, ok := f.sized[k]; ok {
		return fc
	}
	r, b := parsed()
	if bold {
		r = b
	}
	fc := cached(truetype.NewFace(r, &truetype.Options{Size: px, Hinting: font.HintingFull}))
	f.sized[k] = fc
	return fc
}

var parsed = sync.OnceValues(func() (*truetype.Font, *truetype.Font) {
	r, err := truetype.Parse(goregular.TTF)
	if err != nil {
		panic(fmt.Sprintf("render: go font: %v", err))
	}
	b, err := truetype.Parse(gobold.TTF)
	if err != nil {
		panic(fmt.Sprintf("render: go bold font: %v", err))
	}
	return r, b
})

func newFonts() *Fonts {
	r, b := parsed()
	opts := func(size float64) *truetype.Options { return &truetype.Options{Size: size, Hinting: font.HintingFull} }
	return &Fonts{Small: cached(truetype.NewFace(r, opts(11))), Normal: cached(truetype.NewFace(r, opts(14))),
		Bold: cached(truetype.NewFace(b, opts(16))), sized: map[faceKey]font.Face{}}
}

// Layout of the frame, in pixels.
const (
	margin     = 8
	titleH     = 46
	legendRowH = 20
)

// fonts keeps Fonts between renders: a face is not safe for concurrent use, so a
// render has its own until it ends, but the faces' glyph caches stay warm from one map to the
// next instead of rasterizing and hinting every glyph again. A glyph from the cache is the
// same mask as one drawn afresh (the cache is keyed by the glyph and its sub-pixel offset).
var fonts = sync.Pool{New: func() any { return newFonts() }}

// Image draws p with its frame.
func Image(p Picture) image.Image {
	f := fonts.Get().(*Fonts)
	defer fonts.Put(f)
	board := p.Board()
	w := int(board.W) + 2*margin
	legend, panels := p.Legend(), wrap(p.Panels(), f.Small, float64(w-2*margin))
	legendRows := (len(legend) + 3) / 4
	h := titleH + int(board.H) + margin + (legendRows+len(panels))*legendRowH + margin
	dc := gg.NewContextForRGBA(newRGBA(w, h))
	dc.SetRGB(1, 1, 1)
	// As dc.Clear(), but the board's place is left: the board is copied over it (draw.Src).
	in := image.Rect(margin, titleH, margin+int(board.W), titleH+int(board.H))
	whiteAround(dc.Image().(*image.RGBA), in)
	drawTitle(dc, p, f, w)
	// The board is drawn in a context of its own, which bounds it without a clip mask (gg
	// draws text through a clip mask at the cost of the whole image).
	bi := newRGBA(int(board.W), int(board.H))
	defer Release(bi)
	bc := gg.NewContextForRGBA(bi)
	bc.SetRGB(1, 1, 1)
	bc.Clear()
	p.Draw(bc, board, f)
	dst := dc.Image().(*image.RGBA)
	draw.Draw(dst, in, bi, image.Point{}, draw.Src)
	drawLegend(dc, legend, panels, f, float64(titleH)+board.H+margin, w)
	return dc.Image()
}

// frames keeps the pixels of pictures drawn (Release) for the next ones: a report
// map's frame and board are some 4 and 3 MB, and memory fresh from the runtime is cleared
// and, in a daemon drawing map after map, often faulted in from the kernel again. Whatever a
// buffer held is painted over: both contexts are cleared to white before anything is drawn.
var frames sync.Pool

// newRGBA is a w × h image whose pixels are undefined until drawn over. A buffer too small
// for it goes back to the pool (it may serve a board), and a new one has room to spare: the
// frames of one game's maps differ in height by a row of legend or two.
func newRGBA(w, h int) *image.RGBA {
	n := 4 * w * h
	var small []*image.RGBA
	defer func() {
		for _, m := range small {
			frames.Put(m)
		}
	}()
	for range 2 {
		m, ok := frames.Get().(*image.RGBA)
		if !ok {
			break
		}
		if cap(m.Pix) >= n {
			return &image.RGBA{Pix: m.Pix[:n], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
		}
		small = append(small, m)
	}
	return &image.RGBA{Pix: make([]uint8, n, n+n/8), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
}

// Release gives the pixels of an image Image drew back, for the next pictures; img must not
// be used after (its pixels will be painted over). Images of other kinds are left alone.
func Release(img image.Image) {
	if m, ok := img.(*image.RGBA); ok {
		frames.Put(m)
	}
}

// whiteAround paints img white (opaque) outside the rectangle in, which lies inside it.
func whiteAround(img *image.RGBA, in image.Rectangle) {
	b := img.Rect
	for _, r := range []image.Rectangle{
		image.Rect(b.Min.X, b.Min.Y, b.Max.X, in.Min.Y), image.Rect(b.Min.X, in.Max.Y, b.Max.X, b.Max.Y), // above, below
		image.Rect(b.Min.X, in.Min.Y, in.Min.X, in.Max.Y), image.Rect(in.Max.X, in.Min.Y, b.Max.X, in.Max.Y), // left, right
	} {
		draw.Draw(img, r, image.White, image.Point{}, draw.Src)
	}
}

func drawTitle(dc *gg.Context, p Picture, f *Fonts, w int) {
	dc.SetRGB255(32, 42, 64)
	dc.DrawRectangle(0, 0, float64(w), titleH-4)
	dc.Fill()
	if c, ok := p.(Compass); ok {
		deg, label := c.WindFrom()
		windRose(dc, f, float64(w)-30, 21, 16, deg, label)
	}
	Text(dc, f.Bold, color.White, p.Title(), margin, 14, 0, 0.5)
	x := float64(margin)
	for _, s := range p.Status() {
		Text(dc, f.Small, color.White, s, x, 32, 0, 0.5)
		x += TextWidth(f.Small, s) + 18
	}
}

// windRose draws a compass with north marked and an arrow blowing from the wind's direction
// towards the centre (11.1).
func windRose(dc *gg.Context, f *Fonts, x, y, r, deg float64, label string) {
	dc.SetRGB(1, 1, 1)
	dc.SetLineWidth(1.2)
	dc.DrawCircle(x, y, r)
	dc.Stroke()
	Text(dc, f.Small, color.White, "N", x, y-r+6, 0.5, 0.5)
	a := (deg - 90) * math.Pi / 180 // screen angle of the direction the wind comes from
	sx, sy := x+math.Cos(a)*r, y+math.Sin(a)*r
	ex, ey := x-math.Cos(a)*r*0.45, y-math.Sin(a)*r*0.45
	// a flat head: its tip 6 pixels past the shaft's end, its wings 7 from that end, 2.2
	// radians off the direction the wind comes from
	Arrow(dc, sx, sy, ex, ey, color.RGBA{120, 200, 255, 255}, ArrowStyle{Width: 3, Head: 6 + 7*math.Cos(2.2), Half: 7 * math.Sin(2.2), Past: 6})
	Text(dc, f.Small, color.White, label, x-r-8, y, 1, 0.5)
}

func drawLegend(dc *gg.Context, items []LegendItem, panels []string, f *Fonts, y float64, w int) {
	colW := float64(w-2*margin) / 4
	for i, it := range items {
		x := margin + float64(i%4)*colW
		yy := y + float64(i/4)*legendRowH
		dc.SetColor(it.Color)
		dc.DrawRectangle(x, yy+3, 14, 14)
		dc.Fill()
		dc.SetRGB(0.2, 0.2, 0.2)
		dc.DrawRectangle(x, yy+3, 14, 14)
		dc.SetLineWidth(1)
		dc.Stroke()
		if it.Mark != "" {
			Text(dc, f.Small, colInk, it.Mark, x+7, yy+10, 0.5, 0.5)
		}
		Text(dc, f.Small, colInk, it.Text, x+20, yy+10, 0, 0.5)
	}
	y += float64((len(items)+3)/4) * legendRowH
	for i, s := range panels {
		Text(dc, f.Small, colInk, s, margin, y+float64(i)*legendRowH+10, 0, 0.5)
	}
}

// wrap breaks each line that is wider than width at spaces; the continuation is indented.
func wrap(lines []string, face font.Face, width float64) []string {
	var out []string
	for _, l := range lines {
		for TextWidth(face, l) > width {
			cut := 0
			for i, r := range l {
				if r == ' ' && i > 0 {
					if TextWidth(face, l[:i]) > width {
						break
					}
					cut = i
				}
			}
			if cut == 0 {
				break
			}
			out = append(out, l[:cut])
			l = "    " + strings.TrimLeft(l[cut:], " ")
		}
		out = append(out, l)
	}
	return out
}

// PNG draws p and encodes it, reduced to a palette of 256 colours, which keeps a map mail
// small (docs/DESIGN.md 6).
func PNG(p Picture) ([]byte, error) {
	img := Image(p)
	defer Release(img)
	return encode(img)
}

var colInk = color.RGBA{40, 40, 40, 255}

// encode quantizes img and encodes it as a paletted PNG (writePaletted).
func encode(img image.Image) ([]byte, error) {
	q := quantize(img)
	defer release(q)
	var buf bytes.Buffer
	if err := writePaletted(&buf, q); err != nil {
		return nil, fmt.Errorf("encode map: %w", err)
	}
	return buf.Bytes(), nil
}
