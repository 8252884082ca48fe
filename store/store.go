package store

import (
	"cmp"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"navarch/gamelog"
	"navarch/ident"
)

// ErrInUse means another process (or another Open in this one) holds the file.
var ErrInUse = errors.New("store: database file is in use by another navarch process")

// Options tune Open. The zero value is fine.
type Options struct {
	// Timeout is how long Open waits for the file lock; 0 means 2 seconds.
	Timeout time.Duration
	// ReadOnly opens the file without a write lock (for verify-style tools). A damaged file's
	// panics and faults are then errors (ErrDamaged, damaged.go).
	ReadOnly bool
	// AnySchema, with ReadOnly, opens a file of an older or newer schema too: for a copy of
	// its bytes (backup), never to read it.
	AnySchema bool
	// NoSync skips fsync on commit. Only for tests and benchmarks that build large
	// logs: a crash can then lose committed data.
	NoSync bool
	// AfterWrite, if set, is called after every Put inside a transaction. Crash tests use
	// it to kill the process between any two writes.
	AfterWrite func()
	// SyncFreelist writes bbolt's list of free pages with every commit, as bbolt does by
	// default. Without it (the default here) the list is rebuilt when the file is opened for
	// writing, by walking every page: every commit wrote the whole list, which the pages left
	// free by sent mail make long (0.5 ms of a CHECK mail's commit at 10,000
	// games); an open walks the file once instead (BenchmarkManyGames's open-ms). A crash
	// loses nothing either way: the list is rebuilt from the pages in use.
	SyncFreelist bool
	// freelist is bbolt's freelist type, for benchmarks that compare them; "" is freelistType.
	freelist bolt.FreelistType
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	db         *bolt.DB
	log        *slog.Logger
	afterWrite func()
	mu         sync.Mutex
	writers    map[[32]byte][]*flate.Writer // deflate writers by their dictionary (mail.go)
	readOnly   bool                         // a tool's: View is guarded (damaged.go)
}

// Tx is a transaction; functions of this package that take a *Tx run inside it.
type Tx struct {
	tx     *bolt.Tx
	s      *Store
	before []func()
	memo   map[any]any // Memo's values
	tails  map[ident.GameID]tail
	// games are the games found (or created) in this transaction: a game is never taken
	// out of gameids/, so that each is looked up once a transaction.
	games map[ident.GameID]bool
	// appended are the records Append wrote in this transaction, by game and index, as it
	// built them: Record reads them without parsing their bytes again.
	appended map[recordKey]gamelog.Record
	metas    map[metaKey][]byte // gmeta/'s values read or written in this transaction (Tx.meta)
}

// recordKey names a record of a game's log.
type recordKey struct {
	game  ident.GameID
	index uint64
}

// BeforeCommit registers fn to run inside a read-write transaction once its function has
// returned nil, just before the commit (fn may read and register AfterCommit; it may write
// only a cache whose loss changes nothing, such as a snapshot, for it cannot fail the
// transaction). It is not run when the transaction rolls back, nor in a read-only one.
func (tx *Tx) BeforeCommit(fn func()) { tx.before = append(tx.before, fn) }

// AfterCommit registers fn to run once the transaction has been committed to disk.
func (tx *Tx) AfterCommit(fn func()) { tx.tx.OnCommit(fn) }

// Open opens or creates the database at path and brings its schema up to date.
func Open(path string, log *slog.Logger, opts Options) (*Store, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
	}
	bopts := &bolt.Options{Timeout: opts.Timeout, ReadOnly: opts.ReadOnly,
		NoSync: opts.NoSync, FreelistType: cmp.Or(opts.freelist, freelistType), NoFreelistSync: !opts.SyncFreelist}
	var db *bolt.DB
	var err error
	if opts.ReadOnly { // a tool's: a damaged file is an error, not a panic
		db, err = openGuarded(path, bopts)
	} else {
		db, err = bolt.Open(path, 0o600, bopts)
	}
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("open %s: %w", path, ErrInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.AllocSize = allocSize
	s := &Store{db: db, log: log, afterWrite: opts.AfterWrite, readOnly: opts.ReadOnly}
	if !opts.ReadOnly {
		err = s.Update(upgrade)
	} else if !opts.AnySchema {
		err = s.View(checkVersion)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

// freelistType is bbolt's freelist type.
const freelistType = bolt.FreelistMapType

// allocSize is how much the file grows when bbolt needs more pages: bbolt's default, 16 MiB
// once the file is past 16 MiB, left a file up to 16 MiB larger than its pages
// (64 MiB for 48.6 MiB of pages at 10,000 games). Each growth costs a truncate and an fsync,
// once a MiB.
const allocSize = 1 << 20

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the database file's path.
func (s *Store) Path() string { return s.db.Path() }

// Update runs fn in a read-write transaction, committed if fn returns nil. Keep network I/O
// out of fn: the write lock is held until it returns.
func (s *Store) Update(fn func(*Tx) error) error {
	return s.db.Update(func(btx *bolt.Tx) error {
		tx := &Tx{tx: btx, s: s}
		if err := fn(tx); err != nil {
			return err
		}
		for i := 0; i < len(tx.before); i++ { // a hook may register more
			tx.before[i]()
		}
		return nil
	})
}

// View runs fn in a read-only transaction. In a store opened ReadOnly, a damaged file's
// panic or fault while fn reads is returned as an error wrapping ErrDamaged (Guarded).
func (s *Store) View(fn func(*Tx) error) error {
	if s.readOnly {
		return s.guardedView(fn)
	}
	return s.db.View(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx, s: s}) })
}

// Backup writes a consistent copy of the whole database to w while it stays in use.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy to path, atomically: a temporary file in the same
// directory, synced, then renamed. An existing file at path is refused.
func (s *Store) BackupFile(path string) (int64, error) {
	if _, err := os.Stat(path); err == nil {
		return 0, fmt.Errorf("backup: %s already exists", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".navarch-backup-*")
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	n, err := s.Backup(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("backup to %s: %w", path, err)
	}
	return n, nil
}

func (tx *Tx) put(b *bolt.Bucket, k, v []byte) error {
	if err := b.Put(k, v); err != nil {
		return err
	}
	if tx.s.afterWrite != nil {
		tx.s.afterWrite()
	}
	return nil
}

// PageWrites is how many page writes the commits since Open made (a write a page, or a chunk
// of a large one, the meta page's included): what a benchmark counts beside the time of its
// commits.
func (s *Store) PageWrites() int64 {
	st := s.db.Stats()
	return st.TxStats.GetWrite()
}
