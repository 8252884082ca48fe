package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "navarch.db"))
	r := Rotation{Dir: filepath.Join(dir, "backups"), Every: 24 * time.Hour, Keep: 2}
	t0 := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	if !r.Due(t0) || !r.Latest().IsZero() {
		t.Fatal("a first backup is not due")
	}
	os.MkdirAll(r.Dir, 0o700)
	os.WriteFile(filepath.Join(r.Dir, "notes.txt"), []byte("the operator's"), 0o600)
	var paths []string
	for i := range 3 {
		now := t0.Add(time.Duration(i) * 24 * time.Hour)
		tcheck(t, s.Update(func(tx *Tx) error {
			if i == 0 {
				if err := CreateGame(tx, testGame); err != nil {
					return err
				}
			}
			_, _, err := Append(tx, testGame, note("day"))
			return err
		}), "write")
		p, err := r.Take(s, now)
		tcheck(t, err, "take")
		paths = append(paths, p)
		if !r.Latest().Equal(now) || r.Due(now.Add(23*time.Hour)) || !r.Due(now.Add(24*time.Hour)) {
			t.Errorf("after the backup of %v: latest %v", now, r.Latest())
		}
	}
	if _, err := os.Stat(paths[0]); !os.IsNotExist(err) {
		t.Errorf("the oldest backup beyond Keep was kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "notes.txt")); err != nil {
		t.Errorf("a file not ours was removed: %v", err)
	}
	c := open(t, paths[2])
	c.View(func(tx *Tx) error {
		if n, _ := Len(tx, testGame); n != 3 {
			t.Errorf("the newest backup has %d records, want 3", n)
		}
		return nil
	})
	if (Rotation{Dir: r.Dir}).Due(t0.Add(1000 * time.Hour)) {
		t.Error("a rotation without Every is due")
	}
}
