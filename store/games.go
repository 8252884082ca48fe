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

// A game's data, since schema 5, lies in buckets that every game shares, each key starting
// with the game's 16-byte id (a bucket of its own per game cost a 4 KiB page a
// game, 40 MiB at 10,000 games holding 1.5 KB each; shared buckets pack the games' keys
// onto common pages). The nested layout before it (games/<id>/log/ and so on) is what
// the upgrades to schema 4 read; flattenGames moves it.
var (
	bucketGameIDs  = []byte("gameids")   // id → 1 (‖ the game's figure, figures.go): every game
	bucketGLog     = []byte("glog")      // id ‖ u64(index) → record bytes
	bucketGChain   = []byte("gchain")    // id ‖ u64(index) → leaf ‖ head
	bucketGSecret  = []byte("gsecret")   // id ‖ name → bytes never exported
	bucketGMetaAll = []byte("gmeta")     // id ‖ name → settings and status
	bucketGRecv    = []byte("greceived") // id ‖ u64(seq) → a JSON ReceivedMail
)

// The nested layout's bucket names (schema 1 to 4).
var (
	bucketLog    = []byte("log")
	bucketChain  = []byte("chain")
	bucketSecret = []byte("secret")
	bucketGMeta  = []byte("meta")
)

// gkey is a game's key in a shared bucket.
func gkey(id ident.GameID, rest []byte) []byte {
	return append(append(make([]byte, 0, len(id)+len(rest)), id[:]...), rest...)
}

// exists fails with ErrNoGame unless the game was created.
func exists(tx *Tx, id ident.GameID) error {
	if tx.games[id] {
		return nil
	}
	if tx.tx.Bucket(bucketGameIDs).Get(id[:]) == nil {
		return noGame(id)
	}
	tx.known(id)
	return nil
}

// noGame is ErrNoGame for game id (a function of its own, so that the id its callers pass
// stays on their stack).
func noGame(id ident.GameID) error { return fmt.Errorf("game %x: %w", id, ErrNoGame) }

// known notes that game id exists, for the rest of the transaction.
func (tx *Tx) known(id ident.GameID) {
	if tx.games == nil {
		tx.games = map[ident.GameID]bool{}
	}
	tx.games[id] = true
}

// lastKey is the last key of a bucket that starts with prefix (an 8-byte suffix follows
// it), or nil.
func lastKey(b *bolt.Bucket, prefix []byte) []byte {
	c := b.Cursor()
	end := append(bytes.Clone(prefix), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	k, _ := c.Seek(end)
	switch {
	case k == nil:
		k, _ = c.Last()
	case !bytes.Equal(k, end):
		k, _ = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return nil
	}
	return k
}

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

// CreateGame enters a new game.
func CreateGame(tx *Tx, id ident.GameID) error {
	ids := tx.tx.Bucket(bucketGameIDs)
	if ids.Get(id[:]) != nil {
		return fmt.Errorf("create game %x: %w", id, ErrGameExists)
	}
	if err := tx.put(ids, id[:], []byte{1}); err != nil {
		return fmt.Errorf("create game %x: %w", id, err)
	}
	tx.known(id)
	return nil
}

// Games lists every game id, in byte order.
func Games(tx *Tx) []ident.GameID {
	var out []ident.GameID
	c := tx.tx.Bucket(bucketGameIDs).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) == len(ident.GameID{}) {
			out = append(out, ident.GameID(k))
		}
	}
	return out
}

// tail is a game's log end as a write transaction has made it: its length and head. Append
// keeps it, so that each record a step appends after the first neither seeks the log's last
// key nor reads the head it wrote itself (only Append writes a game's log).
type tail struct {
	n    uint64
	head ident.Hash
}

// Len returns the number of records in a game's log.
func Len(tx *Tx, id ident.GameID) (uint64, error) {
	if err := exists(tx, id); err != nil {
		return 0, err
	}
	if t, ok := tx.tails[id]; ok {
		return t.n, nil
	}
	k := lastKey(tx.tx.Bucket(bucketGLog), id[:])
	if k == nil {
		return 0, nil
	}
	return binary.BigEndian.Uint64(k[len(id):]) + 1, nil
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
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d to game %x: %w", n, id, err)
	}
	prev, err := HeadAt(tx, id, n)
	if err != nil {
		return gamelog.Record{}, ident.Hash{}, err
	}
	leaf := gamelog.Leaf(rec.Raw)
	head := gamelog.NextHead(n, prev, leaf)
	delete(tx.tails, id) // known again once the record and its chain entry are in
	logs, chain := tx.tx.Bucket(bucketGLog), tx.tx.Bucket(bucketGChain)
	logs.FillPercent, chain.FillPercent = appendFill, appendFill
	if err := tx.put(logs, gkey(id, u64(n)), rec.Raw); err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d: %w", n, err)
	}
	if err := tx.put(chain, gkey(id, u64(n)), append(leaf[:], head[:]...)); err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d: %w", n, err)
	}
	if err := noteState(tx, id, n, &rec); err != nil {
		return gamelog.Record{}, ident.Hash{}, fmt.Errorf("append record %d: index its state: %w", n, err)
	}
	if tx.tails == nil {
		tx.tails = map[ident.GameID]tail{}
	}
	tx.tails[id] = tail{n: n + 1, head: head}
	if tx.appended == nil {
		tx.appended = map[recordKey]gamelog.Record{}
	}
	tx.appended[recordKey{id, n}] = rec
	return rec, head, nil
}

// appendFill is how full bbolt fills the pages it splits in the buckets a game's log is
// appended to.
var appendFill = 1.0

// HeadAt returns the chain head after the first size records (head_{size−1}).
func HeadAt(tx *Tx, id ident.GameID, size uint64) (ident.Hash, error) {
	var h ident.Hash
	if size == 0 {
		return h, nil
	}
	if err := exists(tx, id); err != nil {
		return h, err
	}
	if t, ok := tx.tails[id]; ok && t.n == size {
		return t.head, nil
	}
	v := tx.tx.Bucket(bucketGChain).Get(gkey(id, u64(size-1)))
	if len(v) != 64 {
		return h, fmt.Errorf("game %x: no chain entry %d", id, size-1)
	}
	copy(h[:], v[32:])
	return h, nil
}

// Record returns record i of a game's log, parsed. Raw is a copy, valid after the tx (of a
// record appended in this transaction, the bytes Append stored, which nothing changes).
func Record(tx *Tx, id ident.GameID, i uint64) (gamelog.Record, error) {
	if err := exists(tx, id); err != nil {
		return gamelog.Record{}, err
	}
	if rec, ok := tx.appended[recordKey{id, i}]; ok { // its bytes never change (gamelog.Record)
		return rec, nil
	}
	v := tx.tx.Bucket(bucketGLog).Get(gkey(id, u64(i)))
	if v == nil {
		return gamelog.Record{}, fmt.Errorf("game %x: no record %d", id, i)
	}
	rec, err := gamelog.Parse(bytes.Clone(v))
	if err != nil {
		return gamelog.Record{}, fmt.Errorf("game %x record %d: %w", id, i, err)
	}
	return rec, nil
}

// Records calls fn for each record of a game in index order, with a copy of its bytes and
// its cached leaf. It stops at fn's first error.
func Records(tx *Tx, id ident.GameID, fn func(i uint64, raw []byte, leaf ident.Hash) error) error {
	return RecordsFrom(tx, id, 0, fn)
}

// PutSecret stores a value that is never exported.
func PutSecret(tx *Tx, id ident.GameID, name string, v []byte) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	return tx.put(tx.tx.Bucket(bucketGSecret), gkey(id, []byte(name)), v)
}

// Secret returns a copy of a stored secret, or nil.
func Secret(tx *Tx, id ident.GameID, name string) ([]byte, error) {
	if err := exists(tx, id); err != nil {
		return nil, err
	}
	return bytes.Clone(tx.tx.Bucket(bucketGSecret).Get(gkey(id, []byte(name)))), nil
}

// PutMeta stores a game setting or status value. A value equal to the one stored (an empty
// one where it is kept empty) is not written again: the bucket holds the same either way.
func PutMeta(tx *Tx, id ident.GameID, name string, v []byte) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	b, k := tx.tx.Bucket(bucketGMetaAll), gkey(id, []byte(name))
	if old := tx.meta(b, id, name, k); old != nil && bytes.Equal(old, v) {
		return nil
	}
	if err := tx.put(b, k, v); err != nil {
		return err
	}
	tx.metas[metaKey{id, name}] = bytes.Clone(v) // what the bucket's Get now gives, copied
	return nil
}

// Meta returns a copy of a game setting, or nil.
func Meta(tx *Tx, id ident.GameID, name string) ([]byte, error) {
	if err := exists(tx, id); err != nil {
		return nil, err
	}
	return bytes.Clone(tx.meta(tx.tx.Bucket(bucketGMetaAll), id, name, gkey(id, []byte(name)))), nil
}

// metaKey names a game's value in gmeta/.
type metaKey struct {
	game ident.GameID
	name string
}

// meta is the value of game id's name, key k in gmeta/ (b), as Get gives it: read once a
// transaction and kept (a copy), since only PutMeta writes the bucket, and it keeps what it
// writes. The value kept must not be changed.
func (tx *Tx) meta(b *bolt.Bucket, id ident.GameID, name string, k []byte) []byte {
	if v, ok := tx.metas[metaKey{id, name}]; ok {
		return v
	}
	v := bytes.Clone(b.Get(k))
	if tx.metas == nil {
		tx.metas = map[metaKey][]byte{}
	}
	tx.metas[metaKey{id, name}] = v
	return v
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
