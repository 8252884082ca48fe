package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"navarch/test/racesplit"
)

// TestCompact: a database that once held much mail gives its pages back (the outbox sent,
// the file as large as ever), keeps every game record, checks clean, and the file as it was
// stays beside it; a database the daemon holds is left alone.
func TestCompact(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the store's lock is raced by host's Serve tests)
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		_, _, err := Append(tx, testGame, note("kept"))
		return err
	}), "write")
	var seqs []uint64
	for range 20 { // 20 MB of mail, in transactions of 1 MB
		tcheck(t, s.Update(func(tx *Tx) error {
			for range 8 {
				seq, err := OutboxAdd(tx, noise(128<<10))
				if err != nil {
					return err
				}
				seqs = append(seqs, seq)
			}
			return nil
		}), "queue")
	}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, q := range seqs {
			if err := OutboxDone(tx, q); err != nil {
				return err
			}
		}
		return nil
	}), "send")
	if _, _, err := Compact(path); !errors.Is(err, ErrInUse) {
		t.Errorf("compacting a database in use: %v", err)
	}
	s.Close()
	before, after, err := Compact(path)
	if err != nil {
		t.Fatal(err)
	}
	if before < 16<<20 || after > before/4 {
		t.Errorf("compacted %d bytes to %d", before, after)
	}
	if st, err := os.Stat(path + ".before-compact"); err != nil || st.Size() != before {
		t.Errorf("the file as it was: %v", err)
	}
	c := open(t, path)
	c.View(func(tx *Tx) error {
		if n, _ := Len(tx, testGame); n != 1 {
			t.Errorf("%d records after compaction, want 1", n)
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("check after compaction: %v", p)
		}
		if OutboxLen(tx) != 0 {
			t.Error("sent mail came back")
		}
		return nil
	})
}

// noise is n bytes that deflate cannot shrink.
func noise(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}
