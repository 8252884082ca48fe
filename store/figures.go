package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"navarch/ident"
)

// The figures index: what the operator's metrics count of the games (host.Figures), kept as
// each game is saved, so that a scrape reads a few counters and not every game's settings
// (136 ms at 10,000 games).
//
//	gstate/  game id → the game's figure: u8 clock ‖ u64(unix ns) deadline ‖ state name
//	gcount/  "s:" ‖ state name → u64 games in that state; "clocks" → u64 games whose clock runs
//	gclock/  u64(unix ns) ‖ game id → empty: the deadline of each game whose clock runs
//
// The states and what a running clock means are the host's; the store keeps the counts in
// step with the entries, and keeps with them (meta/ state:figures-stamp) a stamp the host
// chooses for the way it computed them, as for the due index. Added to schema 5 before it
// shipped: a file of schema 5 without these buckets gets them empty when it is opened for
// writing, with no stamp, and the host rebuilds them (ClearGameFigures, PutGameFigure).
var (
	bucketGState = []byte("gstate")
	bucketGCount = []byte("gcount")
	bucketGClock = []byte("gclock")
)

const (
	stateFiguresStamp = "state:figures-stamp"
	countClocks       = "clocks"
	countState        = "s:"
)

// GameFigure is what the figures index keeps of a game.
type GameFigure struct {
	State    string    // the host's name for the game's state
	Clock    bool      // a deadline runs
	Deadline time.Time // the deadline, when Clock
}

// GameCounts are the figures index's counts.
type GameCounts struct {
	States  map[string]int // games by state (no entry for a state no game is in)
	Clocks  int            // games whose clock runs
	Overdue int            // of those, games whose deadline is before now
}

// ensureFigureBuckets makes the figures index's buckets where a file of schema 5 lacks them.
func ensureFigureBuckets(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketGState, bucketGCount, bucketGClock} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

func (f GameFigure) encode() []byte {
	b := []byte{0}
	n := uint64(0)
	if f.Clock {
		b[0] = 1
		n = unixNano(f.Deadline)
	}
	return append(binary.BigEndian.AppendUint64(b, n), f.State...)
}

func decodeFigure(v []byte) (GameFigure, bool) {
	if len(v) < 9 || v[0] > 1 {
		return GameFigure{}, false
	}
	f := GameFigure{State: string(v[9:]), Clock: v[0] == 1}
	if f.Clock {
		f.Deadline = time.Unix(0, int64(binary.BigEndian.Uint64(v[1:9]))).UTC()
	}
	return f, true
}

// unixNano is a moment as the indexes key it: unix nanoseconds, 0 for moments before 1970.
func unixNano(at time.Time) uint64 {
	if at.After(time.Unix(0, 0)) {
		return uint64(at.UnixNano())
	}
	return 0
}

// PutGameFigure sets a game's figure, replacing its previous one and moving the counts with
// it. A figure equal to the stored one writes nothing.
func PutGameFigure(tx *Tx, id ident.GameID, f GameFigure) error {
	states := tx.tx.Bucket(bucketGState)
	old := states.Get(id[:])
	v := f.encode()
	if bytes.Equal(old, v) {
		return nil
	}
	if was, ok := decodeFigure(old); ok {
		if err := tx.countFigure(id, was, -1); err != nil {
			return err
		}
	}
	if err := tx.put(states, id[:], v); err != nil {
		return fmt.Errorf("figures of game %x: %w", id[:], err)
	}
	return tx.countFigure(id, f, +1)
}

// countFigure adds d games of figure f to the counts, and puts the game's deadline in
// gclock/ (d = 1) or takes it out (d = −1).
func (tx *Tx) countFigure(id ident.GameID, f GameFigure, d int64) error {
	if err := tx.count(countState+f.State, d); err != nil {
		return err
	}
	if !f.Clock {
		return nil
	}
	if err := tx.count(countClocks, d); err != nil {
		return err
	}
	clock := tx.tx.Bucket(bucketGClock)
	k := append(u64(unixNano(f.Deadline)), id[:]...)
	var err error
	if d > 0 {
		err = tx.put(clock, k, nil)
	} else {
		err = clock.Delete(k)
	}
	if err != nil {
		return fmt.Errorf("figures of game %x: %w", id[:], err)
	}
	return nil
}

// count adds d to a counter of gcount/; a counter at zero (or below, in an index built
// another way) is taken out.
func (tx *Tx) count(name string, d int64) error {
	b := tx.tx.Bucket(bucketGCount)
	n := int64(0)
	if v := b.Get([]byte(name)); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	var err error
	if n += d; n > 0 {
		err = tx.put(b, []byte(name), u64(uint64(n)))
	} else {
		err = b.Delete([]byte(name))
	}
	if err != nil {
		return fmt.Errorf("count %q: %w", name, err)
	}
	return nil
}

// CountGames reads the figures index's counts: a few counters, and the deadlines before now
// (none while the deadline pass keeps up).
func CountGames(tx *Tx, now time.Time) GameCounts {
	out := GameCounts{States: map[string]int{}}
	counts, clock := tx.tx.Bucket(bucketGCount), tx.tx.Bucket(bucketGClock)
	if counts == nil || clock == nil { // a file not yet opened for writing by this layout
		return out
	}
	counts.ForEach(func(k, v []byte) error {
		if len(v) != 8 {
			return nil
		}
		n := int(binary.BigEndian.Uint64(v))
		if state, ok := bytes.CutPrefix(k, []byte(countState)); ok {
			out.States[string(state)] = n
		} else if string(k) == countClocks {
			out.Clocks = n
		}
		return nil
	})
	limit := u64(unixNano(now))
	c := clock.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:min(8, len(k))], limit) < 0; k, _ = c.Next() {
		out.Overdue++
	}
	return out
}

// GameFigures returns every game's figure in the index (for checks and tests; it reads the
// index whole).
func GameFigures(tx *Tx) map[ident.GameID]GameFigure {
	out := map[ident.GameID]GameFigure{}
	if b := tx.tx.Bucket(bucketGState); b != nil {
		b.ForEach(func(k, v []byte) error {
			if f, ok := decodeFigure(v); ok && len(k) == len(ident.GameID{}) {
				out[ident.GameID(k)] = f
			}
			return nil
		})
	}
	return out
}

// ClearGameFigures empties the figures index (before the host rebuilds it).
func ClearGameFigures(tx *Tx) error {
	for _, name := range [][]byte{bucketGState, bucketGCount, bucketGClock} {
		if err := tx.tx.DeleteBucket(name); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return fmt.Errorf("clear the figures index: %w", err)
		}
	}
	if err := ensureFigureBuckets(tx.tx); err != nil {
		return fmt.Errorf("clear the figures index: %w", err)
	}
	return nil
}

// FiguresStamp returns the stamp stored with the figures index ("" for an index the host has
// not built).
func FiguresStamp(tx *Tx) string {
	if tx.tx.Bucket(bucketGState) == nil {
		return ""
	}
	return string(tx.tx.Bucket(bucketMeta).Get([]byte(stateFiguresStamp)))
}

// PutFiguresStamp stores the stamp of the figures index.
func PutFiguresStamp(tx *Tx, stamp string) error {
	return tx.put(tx.tx.Bucket(bucketMeta), []byte(stateFiguresStamp), []byte(stamp))
}
