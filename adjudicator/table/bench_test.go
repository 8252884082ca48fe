package table

import (
	"math/bits"
	"testing"
)

var sink int64

// BenchmarkGeometry times the questions a ruleset asks per ship and target, beside the bare
// primitive they are built of (a 64x64->128-bit multiply and divide, as in one range step).
func BenchmarkGeometry(b *testing.B) {
	a, t := pose(10, 10, 30), pose(18, 14, 100)
	pa, pt := ship.Corners(a), ship.Corners(t)
	between := ship.Corners(pose(14, 12, 0))
	b.Run("primitive-mul128", func(b *testing.B) {
		x := uint64(123456789)
		for i := 0; i < b.N; i++ {
			hi, lo := bits.Mul64(x+uint64(i), x)
			q, _ := bits.Div64(hi, lo, x+7)
			sink += int64(q)
		}
	})
	b.Run("corners", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += ship.Corners(a)[0].X
		}
	})
	b.Run("range", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += Distance(pa, pt)
		}
	})
	b.Run("arcs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += int64(len(ship.ArcsOf(a, pt, 20*Inch)))
		}
	})
	b.Run("line-of-fire", func(b *testing.B) {
		from := ship.Edge(a, Starboard)
		mid := Point{(from[0].X + from[1].X) / 2, (from[0].Y + from[1].Y) / 2}
		for i := 0; i < b.N; i++ {
			if Clear(mid, t.At, []Polygon{between}) {
				sink++
			}
		}
	})
	b.Run("follow-to-contact", func(b *testing.B) {
		path := Path{{Turn: 30}, {Move: 150}, {Turn: 30}, {Move: 600}}
		for i := 0; i < b.N; i++ {
			poses, _ := ship.Follow(pose(10, 2, 0), path, []Polygon{pt, between})
			sink += poses[len(poses)-1].At.X
		}
	})
}
