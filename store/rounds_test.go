package store

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestRounds: a round kept is read back by its chain and number, and only so.
func TestRounds(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	defer s.Close()
	chain, other := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	tcheck(t, s.Update(func(tx *Tx) error { return PutRound(tx, chain, 7, []byte("sig")) }), "put")
	if err := s.Update(func(tx *Tx) error { return PutRound(tx, chain[:5], 7, []byte("sig")) }); err == nil {
		t.Error("a round under a short chain hash is kept")
	}
	s.View(func(tx *Tx) error {
		if got := Round(tx, chain, 7); string(got) != "sig" {
			t.Errorf("round 7: %q", got)
		}
		if Round(tx, chain, 8) != nil || Round(tx, other, 7) != nil {
			t.Error("a round of another number or chain is found")
		}
		return nil
	})
}

// A file of schema 8 (before the beacon's rounds) is upgraded in place when opened, and
// keeps rounds after.
func TestUpgradeToSchema9(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketRounds); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put([]byte("schema"), u64(8))
	}), "downgrade")
	s.Close()
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{})
	tcheck(t, err, "reopen")
	defer s.Close()
	chain := bytes.Repeat([]byte{3}, 32)
	tcheck(t, s.Update(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion || v < 9 {
			t.Errorf("schema %d after upgrade, want %d", v, SchemaVersion)
		}
		return PutRound(tx, chain, 1, []byte("s"))
	}), "a round after upgrade")
}
