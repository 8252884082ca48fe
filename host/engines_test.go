package host

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/oinavarcoi"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/outbox"
	"navarch/store"
)

// The engine cache changes nothing: the crash test's script played with and without it
// gives the same log and the same mails, and with it most mails do not replay the log.
func TestEngineCacheChangesNothing(t *testing.T) {
	dir := t.TempDir()
	var logs, mails [2]string
	for i, cache := range []int{-1, 0} {
		path := filepath.Join(dir, []string{"without.db", "with.db"}[i])
		h, err := playScript(path, cache, nil)
		if err != nil {
			t.Fatal(err)
		}
		if hits := h.engines.hits; cache < 0 && hits != 0 || cache == 0 && hits < 5 {
			t.Errorf("engine cache %d: %d engines used from memory", cache, hits)
		}
		var m []string
		logs[i], m, _ = snapshot(t, path)
		mails[i] = strings.Join(m, "\n")
	}
	if logs[0] != logs[1] {
		t.Error("the log differs with the engine cache")
	}
	if mails[0] != mails[1] {
		t.Error("the mails differ with the engine cache")
	}
}

// An engine is kept only when it is the committed log's state: not after a rollback, and not
// when a transaction changed it without logging the change.
func TestEngineCacheKeepsOnlyTheLogsState(t *testing.T) {
	f := newFixture(t)
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	for _, who := range []string{"alice@example.org", "bob@example.com"} { // the set-up: a state record
		f.send(who, "NONE\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	id := ident.GameID{}
	f.s.View(func(tx *store.Tx) error { id, _, _ = findGame(tx, f.tag); return nil })
	kept := func() bool {
		f.h.engines.mu.Lock()
		defer f.h.engines.mu.Unlock()
		return f.h.engines.games[id] != nil
	}
	if !kept() {
		t.Fatal("no engine kept after the set-up")
	}
	// Changed, then rolled back: gone.
	errRefused := errors.New("refused")
	err := f.s.Update(func(tx *store.Tx) error {
		eng, err := f.h.engine(tx, id)
		if err != nil {
			return err
		}
		if _, err := eng.Resolve(map[string][]adjudicator.Order{}, dice.NewActivation(1, 0, ident.Hash{})); err != nil {
			return err
		}
		return errRefused
	})
	if !errors.Is(err, errRefused) || kept() {
		t.Fatalf("after a rollback: err %v, kept %v", err, kept())
	}
	// Rebuilt, changed without logging, committed: not kept either.
	err = f.s.Update(func(tx *store.Tx) error {
		eng, err := f.h.engine(tx, id)
		if err != nil {
			return err
		}
		_, err = eng.Resolve(map[string][]adjudicator.Order{}, dice.NewActivation(1, 0, ident.Hash{}))
		return err
	})
	if err != nil || kept() {
		t.Fatalf("after an unlogged change: err %v, kept %v", err, kept())
	}
	// Rebuilt and unchanged: kept.
	if err := f.s.Update(func(tx *store.Tx) error { _, err := f.h.engine(tx, id); return err }); err != nil || !kept() {
		t.Fatalf("an unchanged engine: err %v, kept %v", err, kept())
	}
}

// Issue 14: Handle replays no log inside its write transaction. A mail to a game whose engine
// is not in memory (dropped here, as the cache drops the least recently used) has the log
// replayed in a read transaction first, and the write transaction uses that engine.
func TestHandleReplaysOutsideTheWriteLock(t *testing.T) {
	f, keys, asked, other, _, _ := afterSetUp(t)
	f.outbox()
	e := f.h.engines
	e.noSnapshots = true // the replays of a game whose snapshot cannot serve
	forget := func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		clear(e.games)
	}
	counts := func() (int, int) {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.rebuilds, e.lockedReplays
	}
	forget()
	rebuilt, replayed := counts()
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	reports := f.outbox()
	if find(reports, other, "report") == nil {
		t.Fatal("the order mail was not applied: no report")
	}
	if rebuilds, locked := counts(); rebuilds-rebuilt != 1 || locked != replayed {
		t.Errorf("%d replays before the write transaction, %d inside it; want 1 and 0", rebuilds-rebuilt, locked-replayed)
	}

	// The log grows between the replay and the write transaction: the engine rebuilt is not
	// used, and the log is replayed again, still outside.
	var size uint64
	f.s.View(func(tx *store.Tx) error { id, _, _ := findGame(tx, f.tag); size, _ = store.Len(tx, id); return nil })
	now := find(reports, other, "your move")
	if now == nil {
		now = find(reports, asked, "your move")
	}
	if now == nil {
		t.Fatal("no side asked after the step")
	}
	mover := now.To[0]
	waiting := map[string]string{"alice@example.org": "bob@example.com", "bob@example.com": "alice@example.org"}[mover]
	forget()
	grown := false
	e.afterRebuild = func() { // runs with e.mu free
		if grown {
			return
		}
		grown = true
		f.send(mover, "KEY "+keys[mover]+"\nNONE") // handled between the replay and the write transaction
		forget()
	}
	f.send(waiting, "KEY "+keys[waiting]+"\nSTATUS")
	e.afterRebuild = nil
	var after uint64
	f.s.View(func(tx *store.Tx) error { id, _, _ := findGame(tx, f.tag); after, _ = store.Len(tx, id); return nil })
	sent := f.outbox()
	if !grown || after <= size || find(sent, waiting, "] status") == nil {
		t.Fatalf("the log did not grow in between (%d → %d records) or STATUS was not answered: %v", size, after, subjects(sent))
	}
	for _, o := range sent {
		for _, a := range o.Attachments {
			if d, err := outbox.ParseMapOrder(a.Draw); err != nil || d.Size != after {
				t.Errorf("%s: map %q, want the state at %d records", o.Subject, a.Draw, after)
			}
		}
	}
	// Three more replays: STATUS's before its transaction, NONE's, and STATUS's again.
	if rebuilds, locked := counts(); rebuilds-rebuilt != 4 || locked != replayed {
		t.Errorf("%d replays before the write transactions, %d inside them; want 4 and 0", rebuilds-rebuilt, locked-replayed)
	}
}

// A referee's command answers most errors as a refusal (referee.go): one that needs the
// game's engine when none is kept must still not commit a refusal, but roll back, have the
// engine rebuilt outside the lock and run again.
func TestRefereeCommandWithoutKeptEngine(t *testing.T) {
	f, _, _, _, _, _ := afterSetUp(t)
	f.outbox()
	e := f.h.engines
	e.mu.Lock()
	clear(e.games)
	replayed := e.lockedReplays
	e.mu.Unlock()
	f.ref("REPLACE bob carol@example.net")
	mails := f.outbox()
	if find(mails, "carol@example.net", "welcome") == nil || find(mails, "ref@example.net", "notice") != nil {
		t.Fatalf("REPLACE was refused or not applied: %v", subjects(mails))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lockedReplays != replayed {
		t.Errorf("%d replays inside the write transaction", e.lockedReplays-replayed)
	}
}

// The deadline pass and the operator's commands replay no log inside their write
// transactions either: a step resolved at its deadline (the no-orders default) and the
// operator's ENDGAME find no engine kept, and have it rebuilt outside the lock.
func TestDeadlineReplaysOutsideTheWriteLock(t *testing.T) {
	f, _, _, _, _, _ := afterSetUp(t)
	f.outbox()
	e := f.h.engines
	e.noSnapshots = true // the replays of a game whose snapshot cannot serve
	counts := func() (int, int) {
		e.mu.Lock()
		defer e.mu.Unlock()
		clear(e.games) // as after a restart
		return e.rebuilds, e.lockedReplays
	}
	rebuilt, replayed := counts()
	var before uint64
	f.s.View(func(tx *store.Tx) error { id, _, _ := findGame(tx, f.tag); before, _ = store.Len(tx, id); return nil })
	f.now = f.deadline().Add(time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	var after uint64
	f.s.View(func(tx *store.Tx) error { id, _, _ := findGame(tx, f.tag); after, _ = store.Len(tx, id); return nil })
	if after <= before {
		t.Fatalf("the deadline resolved nothing (%d → %d records)", before, after)
	}
	if rebuilds, locked := counts(); rebuilds == rebuilt || locked != replayed {
		t.Errorf("the deadline pass: %d replays before its transaction, %d inside it; want some and 0", rebuilds-rebuilt, locked-replayed)
	}
	rebuilt, replayed = counts()
	if _, err := f.h.Operate(f.tag, "ENDGAME", []string{"agreed"}); err != nil { // the game-over mail needs the engine
		t.Fatal(err)
	}
	if rebuilds, locked := counts(); rebuilds == rebuilt || locked != replayed {
		t.Errorf("the operator's ENDGAME: %d replays before its transaction, %d inside it; want some and 0", rebuilds-rebuilt, locked-replayed)
	}
}

// TestSealedStateKeepsItsEngine: a game whose state is sealed (Oi Navarcoi!'s signals are
// hidden information) keeps its engine like any other: the kept engine is matched against
// the sealed state record's hash, so later mail of the game is answered without a replay.
func TestSealedStateKeepsItsEngine(t *testing.T) {
	f, keys := joinedFixture(t, oinavarcoi.Ruleset, "clash")
	deployWithSignal(t, f, keys)
	var id ident.GameID
	sealedStates := 0
	f.s.View(func(tx *store.Tx) error {
		id, _, _ = findGame(tx, f.tag)
		n, _ := store.Len(tx, id)
		for i := uint64(0); i < n; i++ {
			if r, _ := store.Record(tx, id, i); r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeState {
				sealedStates++
			}
		}
		return nil
	})
	if sealedStates == 0 {
		t.Fatal("no sealed state: the test needs a game whose state is hidden")
	}
	f.h.engines.mu.Lock()
	kept, rebuilds := f.h.engines.games[id] != nil, f.h.engines.rebuilds
	f.h.engines.mu.Unlock()
	if !kept {
		t.Fatal("the engine of a game with a sealed state was not kept")
	}
	for range 3 {
		f.send("bob@example.com", "STATUS\nKEY "+keys["bob@example.com"])
	}
	f.h.engines.mu.Lock()
	defer f.h.engines.mu.Unlock()
	if f.h.engines.rebuilds != rebuilds {
		t.Errorf("3 STATUS mails rebuilt the engine %d times", f.h.engines.rebuilds-rebuilds)
	}
}
