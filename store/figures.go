package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"navarch/ident"
)

// The game counts: what the operator's metrics count of the games (host.Figures), kept as
// each game is saved, so that a scrape reads a few counters and not every game's settings
// (136 ms at 10,000 games).
//
//	gcount/   "s:" ‖ state name → u64 games in that state; "clocks" → u64 games whose clock runs
//	gameids/  game id → 1 ‖ u8 clock ‖ state name: the figure the game is counted under (a
//	          bare 1: not counted yet)
//
// A game's figure (its state, whether its clock runs) is the host's to compute; the store
// keeps each game's figure in its entry of gameids/ (about 11 bytes a game; an entry of its
// own cost 70 bytes of pages a game, 0.7 MiB at 10,000 games) and the counts in step with
// them, and keeps with them (meta/ state:figures-stamp) a stamp the host chooses for the way
// it computed them, as for the due index. Added to schema 5 before it shipped: a file of
// schema 5 without gcount/ gets it empty when it is opened for writing, with no stamp, and
// the host counts the games again (ClearGameCounts, PutGameFigure).
var bucketGCount = []byte("gcount")

const (
	stateFiguresStamp = "state:figures-stamp"
	countClocks       = "clocks"
	countState        = "s:"
)

// GameFigure is what the counts count of a game.
type GameFigure struct {
	State string // the host's name for the game's state
	Clock bool   // a deadline runs
}

// GameCounts are the counts.
type GameCounts struct {
	States map[string]int // games by state (no entry for a state no game is in)
	Clocks int            // games whose clock runs
}

// ensureCountBucket makes the counts' bucket where a file of schema 5 lacks it.
func ensureCountBucket(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketGCount)
	return err
}

// PutGameFigure counts a game under figure f, taking it out of the counts of the figure it
// was counted under; the same figure again writes nothing.
func PutGameFigure(tx *Tx, id ident.GameID, f GameFigure) error {
	ids := tx.tx.Bucket(bucketGameIDs)
	old := ids.Get(id[:])
	if old == nil {
		return fmt.Errorf("count game %x: %w", id[:], ErrNoGame)
	}
	v := f.encode()
	if bytes.Equal(old, v) {
		return nil
	}
	if was, ok := decodeFigure(old); ok {
		if err := tx.countFigure(was, -1); err != nil {
			return err
		}
	}
	if err := tx.put(ids, id[:], v); err != nil {
		return fmt.Errorf("count game %x: %w", id[:], err)
	}
	return tx.countFigure(f, +1)
}

func (f GameFigure) encode() []byte {
	clock := byte(0)
	if f.Clock {
		clock = 1
	}
	return append([]byte{1, clock}, f.State...)
}

// decodeFigure reads a gameids/ value: false for a game not counted.
func decodeFigure(v []byte) (GameFigure, bool) {
	if len(v) < 2 || v[1] > 1 {
		return GameFigure{}, false
	}
	return GameFigure{State: string(v[2:]), Clock: v[1] == 1}, true
}

func (tx *Tx) countFigure(f GameFigure, d int64) error {
	if err := tx.count(countState+f.State, d); err != nil {
		return err
	}
	if f.Clock {
		return tx.count(countClocks, d)
	}
	return nil
}

// count adds d to a counter; a counter at zero (or below, in counts kept another way) is
// taken out.
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

// CountGames reads the counts (a few keys).
func CountGames(tx *Tx) GameCounts {
	out := GameCounts{States: map[string]int{}}
	b := tx.tx.Bucket(bucketGCount)
	if b == nil { // a file not yet opened for writing by this layout
		return out
	}
	b.ForEach(func(k, v []byte) error {
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
	return out
}

// ClearGameCounts sets every count to zero and every game to not counted (before the host
// counts every game again).
func ClearGameCounts(tx *Tx) error {
	if err := tx.tx.DeleteBucket(bucketGCount); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return fmt.Errorf("clear the game counts: %w", err)
	}
	if err := ensureCountBucket(tx.tx); err != nil {
		return fmt.Errorf("clear the game counts: %w", err)
	}
	ids := tx.tx.Bucket(bucketGameIDs)
	var counted [][]byte
	ids.ForEach(func(k, v []byte) error {
		if len(v) != 1 {
			counted = append(counted, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range counted { // not inside ForEach: bbolt's cursor does not survive a Put
		if err := tx.put(ids, k, []byte{1}); err != nil {
			return fmt.Errorf("clear the game counts: %w", err)
		}
	}
	return nil
}

// FiguresStamp returns the stamp stored with the counts ("" for counts the host has not
// made).
func FiguresStamp(tx *Tx) string {
	if tx.tx.Bucket(bucketGCount) == nil {
		return ""
	}
	return string(tx.tx.Bucket(bucketMeta).Get([]byte(stateFiguresStamp)))
}

// PutFiguresStamp stores the stamp of the counts.
func PutFiguresStamp(tx *Tx, stamp string) error {
	return tx.put(tx.tx.Bucket(bucketMeta), []byte(stateFiguresStamp), []byte(stamp))
}
