package store

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkCommitWithFreePages is an empty write transaction's commit with many free pages in
// the file, as after 20,000 queued welcome mails were sent (about 5,000 pages at
// 10,000 games), with bbolt's two freelist types: every commit writes the whole freelist,
// and the hash-map type sorts it first.
func BenchmarkCommitWithFreePages(b *testing.B) {
	for _, free := range []int{0, 5000} {
		for _, typ := range []bolt.FreelistType{bolt.FreelistMapType, bolt.FreelistArrayType} {
			b.Run(fmt.Sprintf("free=%d/%s", free, typ), func(b *testing.B) {
				s, err := Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), Options{NoSync: true, freelist: typ})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				v := make([]byte, 1800) // two a page; two of every three are taken out
				for range 3 * free / 2 {
					rand.Read(v)
					if err := s.Update(func(tx *Tx) error { _, err := OutboxAdd(tx, v); return err }); err != nil {
						b.Fatal(err)
					}
				}
				s.Update(func(tx *Tx) error {
					for i, seq := range OutboxSeqs(tx) {
						if i%3 != 0 {
							if err := OutboxDone(tx, seq); err != nil {
								return err
							}
						}
					}
					return nil
				})
				s.Update(func(*Tx) error { return nil })
				b.ResetTimer()
				for b.Loop() {
					s.Update(func(*Tx) error { return nil })
				}
				b.ReportMetric(float64(s.db.Stats().FreePageN), "free-pages")
			})
		}
	}
}
