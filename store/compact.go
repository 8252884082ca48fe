package store

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// compactTxSize bounds each transaction of a compaction (bbolt.Compact commits every that
// many bytes, so memory stays bounded however large the database).
const compactTxSize = 64 << 20

// Compact rewrites the database at path without its free pages (bbolt never gives a file's
// pages back: a file stays as large as it ever was, say while 10,000 welcome mails waited).
// It needs the file to itself: with the daemon running it fails with ErrInUse. The copy is
// written beside it (path.compact), checked (Check) and only then put in its place; the
// file as it was is kept as path.before-compact until the operator removes it. It returns
// the sizes before and after.
func Compact(path string) (before, after int64, err error) {
	if _, err := os.Stat(path); err != nil {
		return 0, 0, fmt.Errorf("compact: %w", err)
	}
	src, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, NoFreelistSync: true, FreelistType: freelistType})
	if errors.Is(err, berrors.ErrTimeout) {
		return 0, 0, fmt.Errorf("compact %s: %w", path, ErrInUse)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	defer src.Close()
	if err := src.View(func(tx *bolt.Tx) error { return checkVersion(&Tx{tx: tx}) }); err != nil {
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	tmp := path + ".compact"
	if err := compactInto(src, tmp); err != nil {
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		before = st.Size()
	}
	if st, err := os.Stat(tmp); err == nil {
		after = st.Size()
	}
	if err := os.Rename(path, path+".before-compact"); err != nil {
		os.Remove(tmp)
		return 0, 0, fmt.Errorf("compact %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, 0, fmt.Errorf("compact %s: the file as it was is %s.before-compact: %w", path, path, err)
	}
	return before, after, syncDir(filepath.Dir(path))
}

// compactInto writes src's buckets into a new file at dst and checks the copy.
func compactInto(src *bolt.DB, dst string) error {
	os.Remove(dst)
	db, err := bolt.Open(dst, 0o600, &bolt.Options{Timeout: 2 * time.Second, NoFreelistSync: true, FreelistType: freelistType})
	if err != nil {
		return err
	}
	db.AllocSize = allocSize
	if err := bolt.Compact(db, src, compactTxSize); err != nil {
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	s, err := Open(dst, slog.New(slog.DiscardHandler), Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	var problems []string
	s.View(func(tx *Tx) error { problems = Check(tx); return nil })
	if len(problems) > 0 {
		return fmt.Errorf("the compacted copy does not check: %v", problems)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
