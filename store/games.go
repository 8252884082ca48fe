package store

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"navarch/gamelog"
	"navarch/ident"
)

// Errors about games.
var (
	ErrNoGame     = errors.New("store: no such game")
	ErrGameExists = errors.New("store: game exists")
)

var (
	bucketLog    = []byte("log")
	bucketChain  = []byte("chain")
	bucketSecret = []byte("secret")
	bucketGMeta  = []byte("meta")
)

// InstallationKey returns the installation's Ed25519 signing key, creating it on first use
// (which needs a writable transaction).
func InstallationKey(tx *Tx) (ed25519.PrivateKey, error) {
	meta := tx.tx.Bucket(bucketMeta)
	if seed := meta.Get([]byte("install-key")); len(seed) == ed25519.SeedSize {
		return ed25519.NewKeyFromSeed(seed), nil
	}
	if !tx.tx.Writable() {
		return nil, errors.New("store: no installation key yet")
	}
	seed := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("make installation key: %w", err)
	}
	if err := tx.put(meta, []byte("install-key"), seed); err != nil {
		return nil, fmt.Errorf("store installation key: %w", err)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// CreateGame makes the buckets of a new game.
func CreateGame(tx *Tx, id ident.GameID) error {
	games := tx.tx.Bucket(bucketGames)
	if games.Bucket(id[:]) != nil {
		return fmt.Errorf("create game %x: %w", id[:], ErrGameExists)
	}
	g, err := games.CreateBucket(id[:])
	if err != nil {
		return fmt.Errorf("create game %x: %w", id[:], err)
	}
	for _, name := range [][]byte{bucketLog, bucketChain, bucketSecret, bucketGMeta} {
		if _, err := g.CreateBucket(name); err != nil {
			return fmt.Errorf("create game %x: %w", id[:], err)
		}
	}
	return nil
}

// Games lists every game id, in byte order.
func Games(tx *Tx) []ident.GameID {
	var out []ident.GameID
	tx.tx.Bucket(bucketGames).ForEachBucket(func(k []byte) error {
		var id ident.GameID
		if len(k) == len(id) {
			copy(id[:], k)
			out = append(out, id)
		}
		return nil
	})
	return out
}

func game(tx *Tx, id ident.GameID, name []byte) (*bolt.Bucket, error) {
	g := tx.tx.Bucket(bucketGames).Bucket(id[:])
	if g == nil {
		return nil, fmt.Errorf("game %x: %w", id[:], ErrNoGame)
	}
	return g.Bucket(name), nil
}

// Len returns the number of records in a game's log.
func Len(tx *Tx, id ident.GameID) (uint64, error) {
	log, err := game(tx, id, bucketLog)
	if err != nil {
		return 0, err
	}
	k, _ := log.Cursor().Last()
	if k == nil {
		return 0, nil
	}
	return binary.BigEndian.Uint64(k) + 1, nil
}

// Append gives b the next index of the game's log, checks it against the record schema,
// stores it verbatim and extends the chain. It returns the stored record and the new head.
func Append(tx *Tx, id ident.GameID, b *gamelog.Builder) (gamelog.Record, ident.Hash, error) {
	n, err := Len(tx, id)
	if err != nil {
		return gamelog.Record{}, ident.Hash{}, err
	}
	rec, err := b.Build(n)
	if err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d to game %x: %w", n, id[:], err)
	}
	var prev ident.Hash
	if n > 0 {
		if prev, err = HeadAt(tx, id, n); err != nil {
			return gamelog.Record{}, ident.Hash{}, err
		}
	}
	leaf := gamelog.Leaf(rec.Raw)
	head := gamelog.NextHead(n, prev, leaf)
	log, _ := game(tx, id, bucketLog)
	chain, _ := game(tx, id, bucketChain)
	if err := tx.put(log, u64(n), rec.Raw); err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d: %w", n, err)
	}
	if err := tx.put(chain, u64(n), append(leaf[:], head[:]...)); err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d: %w", n, err)
	}
	return rec, head, nil
}

// HeadAt returns the chain head after the first size records (head_{size−1}).
func HeadAt(tx *Tx, id ident.GameID, size uint64) (ident.Hash, error) {
	var h ident.Hash
	if size == 0 {
		return h, nil
	}
	chain, err := game(tx, id, bucketChain)
	if err != nil {
		return h, err
	}
	v := chain.Get(u64(size - 1))
	if len(v) != 64 {
		return h, fmt.Errorf("game %x: no chain entry %d", id[:], size-1)
	}
	copy(h[:], v[32:])
	return h, nil
}

// Record returns record i of a game's log, parsed. Raw is a copy, valid after the tx.
func Record(tx *Tx, id ident.GameID, i uint64) (gamelog.Record, error) {
	log, err := game(tx, id, bucketLog)
	if err != nil {
		return gamelog.Record{}, err
	}
	v := log.Get(u64(i))
	if v == nil {
		return gamelog.Record{}, fmt.Errorf("game %x: no record %d", id[:], i)
	}
	rec, err := gamelog.Parse(bytes.Clone(v))
	if err != nil {
		return gamelog.Record{}, fmt.Errorf("game %x record %d: %w", id[:], i, err)
	}
	return rec, nil
}

// Records calls fn for each record of a game in index order, with a copy of its bytes and
// its cached leaf. It stops at fn's first error.
func Records(tx *Tx, id ident.GameID, fn func(i uint64, raw []byte, leaf ident.Hash) error) error {
	log, err := game(tx, id, bucketLog)
	if err != nil {
		return err
	}
	chain, _ := game(tx, id, bucketChain)
	c := log.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var leaf ident.Hash
		copy(leaf[:], chain.Get(k))
		if err := fn(binary.BigEndian.Uint64(k), bytes.Clone(v), leaf); err != nil {
			return err
		}
	}
	return nil
}

// PutSecret stores a value that is never exported.
func PutSecret(tx *Tx, id ident.GameID, name string, v []byte) error {
	b, err := game(tx, id, bucketSecret)
	if err != nil {
		return err
	}
	return tx.put(b, []byte(name), v)
}

// Secret returns a copy of a stored secret, or nil.
func Secret(tx *Tx, id ident.GameID, name string) ([]byte, error) {
	b, err := game(tx, id, bucketSecret)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b.Get([]byte(name))), nil
}

// PutMeta stores a game setting or status value.
func PutMeta(tx *Tx, id ident.GameID, name string, v []byte) error {
	b, err := game(tx, id, bucketGMeta)
	if err != nil {
		return err
	}
	return tx.put(b, []byte(name), v)
}

// Meta returns a copy of a game setting, or nil.
func Meta(tx *Tx, id ident.GameID, name string) ([]byte, error) {
	b, err := game(tx, id, bucketGMeta)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b.Get([]byte(name))), nil
}

// PutInstallationKey sets the installation's signing key from a seed, for restoring an
// installation onto a new database (and for tests that need the same key twice). An
// installation that has signed checkpoints must keep its key.
func PutInstallationKey(tx *Tx, seed []byte) error {
	if len(seed) != ed25519.SeedSize {
		return fmt.Errorf("store: an installation key seed has %d bytes", ed25519.SeedSize)
	}
	return tx.put(tx.tx.Bucket(bucketMeta), []byte("install-key"), seed)
}
