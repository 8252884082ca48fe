package host

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
	"navarch/ident"
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
