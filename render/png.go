package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// The maps are written by a paletted PNG writer of this package's own: image/png at
// default compression spends most of a map's encoding in compress/flate, and
// github.com/klauspost/compress's deflate at level 6 compresses a map's 1-byte-per-pixel
// rows to the same size (±1 %) in about 40 % of the time. The picture is the same: the file
// decodes, with image/png, to the pixels image/png's own encoding of the same paletted image
// decodes to (TestPNGDecodesLikeImagePNG).

// deflateLevel is klauspost's level 6: its best ratio before the slow levels (7-9), a little
// smaller than image/png at default compression on a map.
const deflateLevel = 6

// zwriters keeps the compressors between maps: each holds the deflate state (some hundred KB)
// that would otherwise be allocated and cleared for every map.
var zwriters = sync.Pool{New: func() any {
	w, err := zlib.NewWriterLevel(nil, deflateLevel)
	if err != nil {
		panic(fmt.Sprintf("render: zlib level %d: %v", deflateLevel, err))
	}
	return w
}}

// pngSignature opens every PNG file (PNG spec 5.2).
const pngSignature = "\x89PNG\r\n\x1a\n"

// writePaletted writes p as an 8-bit paletted PNG (colour type 3) to buf: IHDR, PLTE, one
// IDAT of the rows each with filter type 0 (none, as image/png writes paletted rows), IEND.
// Every colour of p's palette must be opaque (quantize's are): no tRNS chunk is written.
func writePaletted(buf *bytes.Buffer, p *image.Paletted) error {
	w, h := p.Rect.Dx(), p.Rect.Dy()
	if len(p.Palette) == 0 || len(p.Palette) > 256 || w <= 0 || h <= 0 {
		return fmt.Errorf("png: %d colours, %d × %d px", len(p.Palette), w, h)
	}
	buf.WriteString(pngSignature)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3 (indexed); compression, filter, interlace 0
	chunk(buf, "IHDR", func(b *bytes.Buffer) error { b.Write(ihdr[:]); return nil })
	chunk(buf, "PLTE", func(b *bytes.Buffer) error {
		for _, c := range p.Palette {
			r, g, bl, _ := c.RGBA()
			b.Write([]byte{byte(r >> 8), byte(g >> 8), byte(bl >> 8)})
		}
		return nil
	})
	err := chunk(buf, "IDAT", func(b *bytes.Buffer) error {
		z := zwriters.Get().(*zlib.Writer)
		defer zwriters.Put(z)
		z.Reset(b)
		none := []byte{0} // filter type 0 before each row
		for y := range h {
			if _, err := z.Write(none); err != nil {
				return err
			}
			if _, err := z.Write(p.Pix[y*p.Stride : y*p.Stride+w]); err != nil {
				return err
			}
		}
		return z.Close()
	})
	if err != nil {
		return fmt.Errorf("png: %w", err)
	}
	chunk(buf, "IEND", func(*bytes.Buffer) error { return nil })
	return nil
}

// chunk appends a chunk of the type whose data body writes: its length, type, data and CRC
// of type and data (PNG spec 5.3), the data written in place.
func chunk(buf *bytes.Buffer, typ string, body func(*bytes.Buffer) error) error {
	start := buf.Len()
	buf.Write([]byte{0, 0, 0, 0})
	buf.WriteString(typ)
	if err := body(buf); err != nil {
		return err
	}
	b := buf.Bytes()
	n := len(b) - start - 8
	binary.BigEndian.PutUint32(b[start:], uint32(n))
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], crc32.ChecksumIEEE(b[start+4:]))
	buf.Write(crc[:])
	return nil
}
