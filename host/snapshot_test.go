package host

import (
	"bytes"
	"testing"

	"navarch/ident"
	"navarch/store"
)

// A game whose engine is not in memory (as after a restart) has it restored from its
// snapshot: its next order mail is answered with no replay of the log, inside the write lock
// or out of it. A snapshot that does not hash to its state record is discarded and the log
// replayed (outside the lock), with the same answer, and the mail's commit replaces it.
func TestRestartRestoresFromSnapshot(t *testing.T) {
	f, keys, asked, other, _, _ := afterSetUp(t)
	f.outbox()
	e := f.h.engines
	restart := func() (rebuilds, locked, restores int) {
		e.mu.Lock()
		defer e.mu.Unlock()
		clear(e.games)
		return e.rebuilds, e.lockedReplays, e.restores
	}
	rebuilt, replayed, restored := restart()
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	mails := f.outbox()
	if find(mails, other, "report") == nil {
		t.Fatalf("the order mail was not applied: no report: %v", subjects(mails))
	}
	if r, l, s := restart(); r != rebuilt || l != replayed || s == restored {
		t.Errorf("after a restart: %d replays before the write transaction, %d inside it, %d engines restored; want 0, 0, some",
			r-rebuilt, l-replayed, s-restored)
	}
	next := find(mails, other, "your move")
	if next == nil {
		next = find(mails, asked, "your move")
	}
	if next == nil {
		t.Fatal("no side asked after the step")
	}
	err := f.s.Update(func(tx *store.Tx) error {
		id, _, err := findGame(tx, f.tag)
		if err != nil {
			return err
		}
		at, data, _, err := store.Snapshot(tx, id)
		if err != nil {
			return err
		}
		i := bytes.Index(data, []byte(`"Turn":`)) + len(`"Turn":`)
		if i < len(`"Turn":`) {
			t.Fatalf("no turn in the snapshot %.80q", data)
		}
		data[i]++ // a snapshot the operator changed: another turn
		return store.PutSnapshot(tx, id, at, data)
	})
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, replayed, restored = restart()
	f.send(next.To[0], "KEY "+keys[next.To[0]]+"\nNONE")
	if got := f.outbox(); find(got, next.To[0], "orders accepted") == nil && find(got, next.To[0], "report") == nil {
		t.Fatalf("the order mail after a bad snapshot was not applied: %v", subjects(got))
	}
	if r, l, s := restart(); r != rebuilt+1 || l != replayed || s != restored {
		t.Errorf("with a bad snapshot: %d replays before the write transaction, %d inside it, %d engines restored; want 1, 0, 0",
			r-rebuilt, l-replayed, s-restored)
	}
	f.s.View(func(tx *store.Tx) error { // the replayed engine's commit replaced it, however recent
		id, _, _ := findGame(tx, f.tag)
		at, _, _ := store.SnapshotAt(tx, id)
		if last, _, _ := store.LastState(tx, id); at != last {
			t.Errorf("after a bad snapshot's replay the snapshot is of record %d, the last state record is %d", at, last)
		}
		return nil
	})
	f.checkLog()
}

// An engine restored from a snapshot holds the log's state but not the moves of the last
// step, which a report's map crops to: kept after a mail that resolves nothing, the drawer
// never borrows it (it replays instead); once the engine has resolved a step, it may.
func TestRestoredEngineNotLentForMaps(t *testing.T) {
	f, keys, asked, _, _, _ := afterSetUp(t)
	f.outbox()
	e := f.h.engines
	var id ident.GameID
	f.s.View(func(tx *store.Tx) error { id, _, _ = findGame(tx, f.tag); return nil })
	kept := func() (has, lent bool) {
		var size uint64
		var head ident.Hash
		f.s.View(func(tx *store.Tx) error { size, head, _ = logHead(tx, id); return nil })
		has = e.has(id, size, head)
		if c := e.lend(id); c != nil {
			lent = true
			e.giveBack(id, c)
		}
		return has, lent
	}
	e.mu.Lock()
	clear(e.games) // as after a restart
	e.mu.Unlock()
	f.send(asked, "KEY "+keys[asked]+"\nSTATUS")
	if has, lent := kept(); !has || lent {
		t.Errorf("after STATUS on a restored engine: kept %t, lent to the drawer %t; want true, false", has, lent)
	}
	mails := f.outbox()
	if find(mails, asked, "status") == nil {
		t.Fatalf("STATUS was not answered: %v", subjects(mails))
	}
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	if has, lent := kept(); !has || !lent {
		t.Errorf("after a step resolved by the restored engine: kept %t, lent %t; want true, true", has, lent)
	}
}
