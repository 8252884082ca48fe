package store

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

// ErrDamaged means the file is damaged: a page that does not read as one (bbolt panics on
// such pages), or a page beyond the end of a truncated file (a fault on its mapping).
var ErrDamaged = errors.New("store: the database file is damaged")

// Guarded runs fn and returns a panic in it, or a fault reading the file's mapping, as an
// error wrapping ErrDamaged, so that a read-only tool reports what it can of a damaged file
// and goes on with the rest (docs/RELIABILITY.md). A read-only store's View runs in it; a
// caller reading many games in one View guards each, to report the others.
func Guarded(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrDamaged, p)
		}
	}()
	return fn()
}

// guardedView is View for a read-only store: fn in a read transaction, any panic or fault
// while it reads returned as ErrDamaged, and the transaction rolled back all the same.
func (s *Store) guardedView(fn func(*Tx) error) error {
	return Guarded(func() error {
		btx, err := s.db.Begin(false)
		if err != nil {
			return err
		}
		defer btx.Rollback()
		return fn(&Tx{tx: btx, s: s})
	})
}

// openGuarded is bolt.Open for a read-only store, a damaged file's panic or fault an error.
func openGuarded(path string, opts *bolt.Options) (db *bolt.DB, err error) {
	err = Guarded(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, opts)
		return err
	})
	return db, err
}

// checkSize reports a file shorter than its pages (truncated): the size the transaction's
// meta page gives against the file's.
func checkSize(tx *Tx) []string {
	fi, err := os.Stat(tx.s.Path())
	if err != nil {
		return []string{fmt.Sprintf("the file: %v", err)}
	}
	if want := tx.Size(); fi.Size() < want {
		return []string{fmt.Sprintf("the file is truncated: %d bytes, its pages take %d", fi.Size(), want)}
	}
	return nil
}

// Size is the size of the file's pages as this transaction sees them (bbolt's high-water
// mark): a file shorter than that is truncated.
func (tx *Tx) Size() int64 { return tx.tx.Size() }
