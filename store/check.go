package store

import (
	"bytes"
	"fmt"

	"navarch/gamelog"
	"navarch/ident"
)

// Check re-reads every game's log: each record must parse, carry its key as index, follow
// its predecessor without a gap, and match the cached leaf and head; the index of its last
// state record must name the log's; and the file must hold every page its meta page counts
// (not truncated). A game whose pages are damaged is reported (ErrDamaged, in a store
// opened ReadOnly) and the others checked. It returns one line per problem found (none
// means the file is sound).
func Check(tx *Tx) []string {
	problems := checkSize(tx)
	if err := checkVersion(tx); err != nil {
		problems = append(problems, err.Error())
	}
	var games []ident.GameID
	if err := Guarded(func() error { games = Games(tx); return nil }); err != nil {
		return append(problems, fmt.Sprintf("the list of games: %v", err))
	}
	for _, id := range games {
		var p []string
		if err := Guarded(func() error { p = checkGame(tx, id); return nil }); err != nil {
			p = append(p, fmt.Sprintf("game %x: %v", id[:], err))
		}
		problems = append(problems, p...)
	}
	return problems
}

func checkGame(tx *Tx, id ident.GameID) []string {
	var problems []string
	var head ident.Hash
	next := uint64(0)
	lastState, hasState := uint64(0), false
	chain := tx.tx.Bucket(bucketGChain)
	err := Records(tx, id, func(i uint64, raw []byte, _ ident.Hash) error {
		if i != next {
			problems = append(problems, fmt.Sprintf("game %x: record %d missing", id[:], next))
		}
		next = i + 1
		rec, err := gamelog.Parse(raw)
		if err != nil || rec.Index != i {
			problems = append(problems, fmt.Sprintf("game %x: record %d does not parse as index %d: %v", id[:], i, i, err))
		} else if isStateRecord(&rec) {
			lastState, hasState = i, true
		}
		// Each entry is checked against its predecessor's cached head, so that one damaged
		// record is reported once, not with every record after it.
		leaf := gamelog.Leaf(raw)
		c := chain.Get(gkey(id, u64(i)))
		if len(c) != 64 || [32]byte(c[:32]) != leaf || [32]byte(c[32:]) != gamelog.NextHead(i, head, leaf) {
			problems = append(problems, fmt.Sprintf("game %x: record %d does not match its chain entry", id[:], i))
		}
		if len(c) == 64 {
			head = ident.Hash(c[32:])
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	n := uint64(0)
	c := chain.Cursor()
	for k, _ := c.Seek(id[:]); k != nil && bytes.HasPrefix(k, id[:]); k, _ = c.Next() {
		n++
	}
	if n != next {
		problems = append(problems, fmt.Sprintf("game %x: %d chain entries for %d records", id[:], n, next))
	}
	if i, ok, _ := LastState(tx, id); i != lastState || ok != hasState {
		problems = append(problems, fmt.Sprintf("game %x: the index names record %d (%t) as its last state record, the log %d (%t)",
			id[:], i, ok, lastState, hasState))
	}
	return problems
}
