package host

import (
	"bytes"
	"sync"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/play"
	"navarch/store"
)

// EngineCache is how many games' engines the host keeps in memory between mails unless
// Config says otherwise. Without them every mail replays its game's whole log (about 90 ms at
// the end of the full battle, docs/BENCHMARKS.md).
const EngineCache = 64

// engines keeps rebuilt games in memory, each valid for one exact log: its length and head.
// An engine is kept only after a commit, and only when its state hash equals the last state
// record of the committed log, so a kept engine is the log's state and nothing else's. Using
// one takes it out: an engine changed by a transaction that then rolls back is never kept.
type engines struct {
	mu    sync.Mutex
	max   int
	clock uint64
	games map[ident.GameID]*cached
	hits  int // engines used instead of a replay (for tests)
}

type cached struct {
	eng  adjudicator.Game
	size uint64
	head ident.Hash
	used uint64
}

// take returns the engine kept for the game's log as it stands, or nil.
func (c *engines) take(id ident.GameID, size uint64, head ident.Hash) adjudicator.Game {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.games[id]
	if e == nil || e.size != size || e.head != head {
		return nil
	}
	delete(c.games, id)
	c.hits++
	return e.eng
}

// put keeps an engine, dropping the least recently kept one beyond max.
func (c *engines) put(id ident.GameID, e *cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	e.used = c.clock
	c.games[id] = e
	for len(c.games) > c.max {
		var oldest ident.GameID
		least := c.clock + 1
		for gid, g := range c.games {
			if g.used < least {
				oldest, least = gid, g.used
			}
		}
		delete(c.games, oldest)
	}
}

// engine rebuilds a game's state, from memory when the log is as it was last kept, and
// offers it to be kept once the transaction commits.
func (h *Host) engine(tx *store.Tx, id ident.GameID) (adjudicator.Game, error) {
	size, head, err := logHead(tx, id)
	if err != nil {
		return nil, err
	}
	eng := h.engines.take(id, size, head)
	if eng == nil {
		if eng, err = play.Load(tx, id, h.rulesets); err != nil {
			return nil, err
		}
	}
	if h.engines.max > 0 {
		tx.BeforeCommit(func() { h.keep(tx, id, eng) })
	}
	return eng, nil
}

// keep registers the engine to be kept after the commit if it is the committed log's state.
func (h *Host) keep(tx *store.Tx, id ident.GameID, eng adjudicator.Game) {
	size, head, err := logHead(tx, id)
	if err != nil {
		return
	}
	want := lastStateHash(tx, id, size)
	if want == nil { // no step resolved yet: replaying is cheap
		return
	}
	if got := adjudicator.StateHash(eng); !bytes.Equal(got[:], want) {
		return
	}
	tx.AfterCommit(func() { h.engines.put(id, &cached{eng: eng, size: size, head: head}) })
}

func logHead(tx *store.Tx, id ident.GameID) (uint64, ident.Hash, error) {
	size, err := store.Len(tx, id)
	if err != nil {
		return 0, ident.Hash{}, err
	}
	head, err := store.HeadAt(tx, id, size)
	return size, head, err
}

// lastStateHash is the state hash of the log's last state record, or nil.
func lastStateHash(tx *store.Tx, id ident.GameID, size uint64) []byte {
	for i := size; i > 0; i-- {
		r, err := store.Record(tx, id, i-1)
		if err != nil {
			return nil
		}
		if r.Type == gamelog.TypeState {
			return r.Bytes("state-hash")
		}
	}
	return nil
}
