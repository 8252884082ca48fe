package host

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
)

// EngineCache is how many games' engines the host keeps in memory between mails unless
// Config says otherwise. Without them every mail replays its game's whole log (about 90 ms at
// the end of the full battle, docs/BENCHMARKS.md). An engine of the full battle takes about
// 46 KiB, so the default costs at most some 12 MiB; it covers the 100 active games of the
// throughput goal, which 64 did not: mail that goes round the games in turn found
// none kept.
const EngineCache = 256

// engines keeps rebuilt games in memory, each valid for one exact log: its length and head.
// An engine is kept only after a commit, and only when its state hash equals the last state
// record of the committed log, so a kept engine is the log's state and nothing else's. Using
// one takes it out: an engine changed by a transaction that then rolls back is never kept.
type engines struct {
	mu    sync.Mutex
	max   int
	clock uint64
	games map[ident.GameID]*cached
	// txs are the write transactions run by updateGames, with the engines rebuilt for each
	// outside the lock.
	txs  map[*store.Tx]*txEngines
	hits int // engines used instead of a replay (for tests)
	// rebuilds counts replays in a read transaction for updateGames; lockedReplays, replays
	// inside one of its write transactions (for tests: the goal is none).
	rebuilds, lockedReplays int
	drawReplays             int           // replays by the outbox's drawer (drawStates.Replay)
	restores                int           // engines restored from a snapshot instead of a replay
	noSnapshots             bool          // for tests of the replays: no engine restored from a snapshot
	held                    time.Duration // the write lock held by updateGames (for benchmarks)
	afterRebuild            func()        // for tests: runs after each rebuild
}

// txEngines is what one transaction of updateGames may use instead of replaying.
type txEngines struct {
	ready  map[ident.GameID]*cached // rebuilt before the transaction began
	asked  map[ident.GameID]bool    // games whose engine the transaction has had
	strict bool                     // a game's first engine must not be replayed in it
	denied *needEngine              // an engine refused: the transaction must not commit
}

type cached struct {
	eng  adjudicator.Game
	size uint64
	head ident.Hash
	used uint64
	// state is the engine's state hash when it was kept (the log's last state record): a
	// lent engine comes back only with the same.
	state ident.Hash
	// traceless: restored from a snapshot, and no step resolved since. Its state is the log's,
	// but not what the engine keeps of its last step for the maps (the moves a report's map
	// crops to, which a snapshot does not hold), so the drawer never borrows it.
	traceless bool
	// replayed: rebuilt by replaying the log, its snapshot unable to serve (none, another
	// state's, too old): the commit that keeps it saves a fresh one (play.ReplaceSnapshot).
	replayed bool
}

// take returns the engine kept for the game's log as it stands, or nil.
func (c *engines) take(id ident.GameID, size uint64, head ident.Hash) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.games[id]
	if e == nil || e.size != size || e.head != head {
		return nil
	}
	delete(c.games, id)
	c.hits++
	return e
}

// lend takes the game's engine out of the cache, whatever log it was kept for, or nil; the
// borrower may only read it, and gives it back (giveBack). A traceless engine is not lent.
func (c *engines) lend(id ident.GameID) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.games[id]
	if e == nil || e.traceless {
		return nil
	}
	delete(c.games, id)
	return e
}

// giveBack keeps a lent engine again, unless the game has had another kept meanwhile (a newer
// state) or the engine's state is no longer the one it was kept with.
func (c *engines) giveBack(id ident.GameID, e *cached) {
	if adjudicator.StateHash(e.eng) != e.state {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games[id] == nil {
		c.putLocked(id, e)
	}
}

// put keeps an engine, dropping the least recently kept one beyond max.
func (c *engines) put(id ident.GameID, e *cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(id, e)
}

func (c *engines) putLocked(id ident.GameID, e *cached) {
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

// get returns the engine kept for the game's log as it stands, or else the one rebuilt for
// tx before it began if that is still the log's state (sameState), or nil. Only a
// transaction's first request for a game's engine may use the one rebuilt for it.
func (h *Host) get(tx *store.Tx, id ident.GameID, size uint64, head ident.Hash) *cached {
	c := h.engines
	if e := c.take(id, size, head); e != nil {
		c.use(tx, id)
		return e
	}
	e := c.candidate(tx, id)
	if e == nil {
		return nil
	}
	if !sameState(tx, id, e.size, e.head, size) {
		c.drop(tx, id) // not the log's state now, it never will be: logs only grow
		return nil
	}
	c.use(tx, id)
	return e
}

// candidate is the engine rebuilt for tx, if tx has not asked for the game's engine yet.
func (c *engines) candidate(tx *store.Tx, id ident.GameID) *cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.txs[tx]; t != nil && !t.asked[id] {
		return t.ready[id]
	}
	return nil
}

// use notes that tx has the game's engine: one rebuilt for it is used up (after a rollback it
// may have changed, and is not used again).
func (c *engines) use(tx *store.Tx, id ident.GameID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.txs[tx]; t != nil {
		t.asked[id] = true
		delete(t.ready, id)
	}
}

// drop forgets the engine rebuilt for tx.
func (c *engines) drop(tx *store.Tx, id ident.GameID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.txs[tx]; t != nil {
		delete(t.ready, id)
	}
}

// sameState reports whether the game's state after its log's first size records is the state
// after the first at records, whose head was head: the log then is a prefix of this one, and
// no close record lies between (play.Replay changes an engine only at a close record, which
// commits with the rolls, events and state it brings).
func sameState(tx *store.Tx, id ident.GameID, at uint64, head ident.Hash, size uint64) bool {
	if at > size {
		return false
	}
	if h, err := store.HeadAt(tx, id, at); err != nil || h != head {
		return false
	}
	return noClose(tx, id, at, size)
}

// noClose reports whether no record from the game's record lo up to hi (not included) is a
// close record.
func noClose(tx *store.Tx, id ident.GameID, lo, hi uint64) bool {
	for i := lo; i < hi; i++ {
		if r, err := store.Record(tx, id, i); err != nil || r.Type == gamelog.TypeClose {
			return false
		}
	}
	return true
}

// replay reports whether tx may replay the game's log (needEngine if not), and counts the
// replays in updateGames' transactions. A strict transaction must not replay for its first
// request of a game's engine; a later request may (the transaction has changed that game's
// log since, so no engine rebuilt before it could serve).
func (c *engines) replay(tx *store.Tx, id ident.GameID) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.txs[tx]
	if t == nil {
		return nil
	}
	first := !t.asked[id]
	t.asked[id] = true
	if t.strict && (first || t.denied != nil) {
		t.denied = &needEngine{games: t.missing()}
		return t.denied
	}
	c.lockedReplays++
	return nil
}

// missing is every game whose engine the transaction asked for and has no longer ready.
func (t *txEngines) missing() []ident.GameID {
	var out []ident.GameID
	for id := range t.asked {
		if t.ready[id] == nil {
			out = append(out, id)
		}
	}
	return out
}

// needEngine rolls back a transaction of updateGames that needs engines not in memory.
type needEngine struct{ games []ident.GameID }

func (e *needEngine) Error() string {
	return fmt.Sprintf("%d games' engines to rebuild before the transaction", len(e.games))
}

// maxRebuilds bounds the attempts of updateGames: a transaction that still misses an engine
// after that many rebuilds (the log kept growing meanwhile) replays inside the lock.
const maxRebuilds = 3

// updateGames runs fn in a write transaction in which no game's log is replayed (no
// write transaction holds the lock for a replay). When fn asks for a game's engine that is
// neither in memory nor rebuilt for it, the transaction rolls back (fn must keep nothing of an
// attempt outside the transaction), the log is replayed in a read transaction at its length
// then, and fn runs again; the rebuilt engine is used only if the log has not grown since.
// ready holds engines rebuilt beforehand (warm); those fn does not use are kept in the cache.
func (h *Host) updateGames(fn func(tx *store.Tx) error, ready map[ident.GameID]*cached) error {
	if ready == nil {
		ready = map[ident.GameID]*cached{}
	}
	for attempt := 0; ; attempt++ {
		err := h.attempt(fn, ready, attempt < maxRebuilds)
		var need *needEngine
		if !errors.As(err, &need) {
			if err == nil && h.engines.max > 0 {
				for id, e := range ready {
					h.engines.giveBack(id, e)
				}
			}
			return err
		}
		for _, id := range need.games {
			e, err := h.rebuild(id)
			if err != nil {
				return err
			}
			ready[id] = e
		}
	}
}

// attempt runs fn in a write transaction that may use the engines ready. A transaction that
// was refused an engine never commits, even when the code between swallowed the error (a
// referee's command answers most errors as a refusal): its last step before the commit
// panics, bbolt rolls the transaction back, and attempt returns the refusal (as it does when
// the transaction failed otherwise after a refusal).
func (h *Host) attempt(fn func(tx *store.Tx) error, ready map[ident.GameID]*cached, strict bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			need, ok := r.(*needEngine)
			if !ok {
				panic(r)
			}
			err = need
		}
	}()
	var t *txEngines
	var locked time.Time
	defer func() {
		if !locked.IsZero() {
			h.engines.mu.Lock()
			h.engines.held += time.Since(locked)
			h.engines.mu.Unlock()
		}
	}()
	err = h.s.Update(func(tx *store.Tx) error {
		locked = time.Now()
		t = h.engines.begin(tx, ready, strict)
		tx.BeforeCommit(func() {
			if t.denied != nil {
				panic(t.denied)
			}
		})
		defer h.engines.end(tx)
		return fn(tx)
	})
	if err != nil && t != nil && t.denied != nil { // whatever failed may have lacked the engine
		return t.denied
	}
	return err
}

func (c *engines) begin(tx *store.Tx, ready map[ident.GameID]*cached, strict bool) *txEngines {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.txs == nil {
		c.txs = map[*store.Tx]*txEngines{}
	}
	t := &txEngines{ready: ready, asked: map[ident.GameID]bool{}, strict: strict}
	c.txs[tx] = t
	return t
}

func (c *engines) end(tx *store.Tx) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.txs, tx)
}

// rebuild restores a game's engine from its snapshot, or replays its log when the snapshot
// cannot serve (play.Restore), in a read transaction: the engine and the log's length and
// head it is the state of.
func (h *Host) rebuild(id ident.GameID) (*cached, error) {
	e := &cached{}
	restored := false
	err := h.s.View(func(tx *store.Tx) error {
		var err error
		if e.size, e.head, err = logHead(tx, id); err != nil {
			return err
		}
		if e.eng = h.restoreRead(tx, id); e.eng != nil {
			restored, e.traceless = true, true
		} else if e.eng, err = play.Load(tx, id, h.rulesets); err != nil {
			return err
		} else {
			e.replayed = true
		}
		e.state = adjudicator.StateHash(e.eng)
		return nil
	})
	if err != nil {
		return nil, err
	}
	h.engines.mu.Lock()
	if restored {
		h.engines.restores++
	} else {
		h.engines.rebuilds++
	}
	after := h.engines.afterRebuild
	h.engines.mu.Unlock()
	if after != nil {
		after()
	}
	return e, nil
}

// warm rebuilds, outside the lock, the engine of the game an order mail names when none is
// kept at its log as it stands, so that Handle's transaction need not roll back to have it
// rebuilt (updateGames). Only the mails that use the engine are warmed: orders, CHECK, NONE,
// HELP and STATUS.
func (h *Host) warm(in *mail.Incoming, perr error) map[ident.GameID]*cached {
	if in == nil || perr != nil {
		return nil
	}
	req, err := mail.ReadRequest(in.Subject, in.Text)
	if err != nil || req.Game == "" || !slices.Contains([]string{mail.CmdOrders, mail.CmdCheck, mail.CmdNone, mail.CmdHelp, mail.CmdStatus}, req.Command) {
		return nil
	}
	var id ident.GameID
	need := false
	h.s.View(func(tx *store.Tx) error {
		gid, g, err := findGame(tx, req.Game)
		if err != nil || g == nil || g.Status != store.StatusPlaying {
			return nil
		}
		size, head, err := logHead(tx, gid)
		id, need = gid, err == nil && !h.engines.has(gid, size, head)
		return nil
	})
	if !need {
		return nil
	}
	e, err := h.rebuild(id)
	if err != nil { // the transaction meets the same failure and answers it
		return nil
	}
	return map[ident.GameID]*cached{id: e}
}

// has reports whether the game's engine is kept for the log as it stands.
func (c *engines) has(id ident.GameID, size uint64, head ident.Hash) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.games[id]
	return e != nil && e.size == size && e.head == head
}

// engine rebuilds a game's state, from memory when the log is as it was last kept (or as it
// was rebuilt for the transaction), and offers it to be kept once the transaction commits.
func (h *Host) engine(tx *store.Tx, id ident.GameID) (adjudicator.Game, error) {
	size, head, err := logHead(tx, id)
	if err != nil {
		return nil, err
	}
	var eng adjudicator.Game
	traceless, replayed := false, false
	if e := h.get(tx, id, size, head); e != nil {
		eng, traceless, replayed = e.eng, e.traceless, e.replayed
	} else if eng = h.restore(tx, id, true); eng != nil {
		traceless = true
	}
	if eng == nil {
		if err := h.engines.replay(tx, id); err != nil {
			return nil, err
		}
		if eng = h.restore(tx, id, false); eng != nil { // a few steps re-run: better than the log
			traceless = true
		} else if eng, err = play.Load(tx, id, h.rulesets); err != nil {
			return nil, err
		} else {
			replayed = true
		}
	}
	var at uint64 // the last state record when the engine was had: a step resolved moves it
	if traceless {
		at, _, _ = store.LastState(tx, id)
	}
	tx.BeforeCommit(func() {
		now, _, _ := store.LastState(tx, id)
		h.keep(tx, id, eng, traceless && now == at, replayed)
	})
	return eng, nil
}

// restore is the game's engine restored from its snapshot in tx, if that is the state of
// the log as it stands, or nil. current: only a snapshot of the last state record
// (play.RestoreCurrent), which reads the records of the current step, not the log, so that a
// write transaction may restore where it must not replay; else one re-running the few steps
// since its state record (play.Restore), where the transaction may replay anyway.
func (h *Host) restore(tx *store.Tx, id ident.GameID, current bool) adjudicator.Game {
	if h.engines.noSnapshots {
		return nil
	}
	restore := play.Restore
	if current {
		restore = play.RestoreCurrent
	}
	eng := restore(tx, id, h.rulesets)
	if eng != nil {
		h.engines.use(tx, id)
		h.engines.mu.Lock()
		h.engines.restores++
		h.engines.mu.Unlock()
	}
	return eng
}

// restoreRead is play.Restore unless the tests turned snapshots off.
func (h *Host) restoreRead(tx *store.Tx, id ident.GameID) adjudicator.Game {
	if h.engines.noSnapshots {
		return nil
	}
	return play.Restore(tx, id, h.rulesets)
}

// keep registers the engine to be kept after the commit if it is the committed log's state,
// and saves it as the game's snapshot when the log has moved play.SnapshotEvery records past
// the one kept (play.SaveSnapshot), or at once when the engine was replayed (replayed: the
// snapshot could not serve; play.ReplaceSnapshot): at most one snapshot a mail, however many
// steps it resolved. traceless: the engine was restored from a snapshot and has resolved no
// step since (cached.traceless).
func (h *Host) keep(tx *store.Tx, id ident.GameID, eng adjudicator.Game, traceless, replayed bool) {
	size, head, err := logHead(tx, id)
	if err != nil {
		return
	}
	want := ledger.LastStateHash(tx, id, size)
	if want == nil { // no step resolved yet: replaying is cheap
		return
	}
	got := adjudicator.StateHash(eng)
	if !bytes.Equal(got[:], want) {
		return
	}
	save := play.SaveSnapshot
	if replayed {
		save = play.ReplaceSnapshot
	}
	if err := save(tx, id, eng); err != nil { // a cache: the log is replayed without it
		h.log.Warn("snapshot not saved", "game", fmt.Sprintf("%x", id[:]), "err", err)
	}
	if h.engines.max > 0 {
		tx.AfterCommit(func() { h.engines.put(id, &cached{eng: eng, size: size, head: head, state: got, traceless: traceless}) })
	}
}

func logHead(tx *store.Tx, id ident.GameID) (uint64, ident.Hash, error) {
	size, err := store.Len(tx, id)
	if err != nil {
		return 0, ident.Hash{}, err
	}
	head, err := store.HeadAt(tx, id, size)
	return size, head, err
}
