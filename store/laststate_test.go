package store

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ident"
)

func stateRec(t uint64) *gamelog.Builder {
	return gamelog.New(gamelog.TypeState).AddUint("turn", t).AddUint("activation", 1).AddHex("state-hash", make([]byte, 32))
}

func sealedStateRec() *gamelog.Builder {
	return gamelog.New(gamelog.TypeSealed).AddUint("turn", 1).AddUint("activation", 2).Add("what", gamelog.TypeState).
		AddHex("commitment", make([]byte, 32))
}

// TestLastStateIndex: Append indexes each state record and sealed state record as it is
// written, and only those.
func TestLastStateIndex(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	want := func(tx *Tx, i uint64, ok bool) {
		t.Helper()
		got, has, err := LastState(tx, testGame)
		if err != nil || got != i || has != ok {
			t.Errorf("LastState = %d, %t, %v; want %d, %t", got, has, err, i, ok)
		}
	}
	tcheck(t, s.Update(func(tx *Tx) error {
		tcheck(t, CreateGame(tx, testGame), "create")
		want(tx, 0, false)
		for _, b := range []*gamelog.Builder{note("a"), stateRec(1), note("b")} {
			if _, _, err := Append(tx, testGame, b); err != nil {
				return err
			}
		}
		want(tx, 1, true)
		if _, _, err := Append(tx, testGame, sealedStateRec()); err != nil {
			return err
		}
		want(tx, 3, true)
		_, _, err := Append(tx, testGame, gamelog.New(gamelog.TypeSealed).AddUint("turn", 1).AddUint("activation", 2).
			Add("what", gamelog.TypeEvent).AddHex("commitment", make([]byte, 32)))
		want(tx, 3, true)
		if p := Check(tx); len(p) != 0 {
			t.Errorf("sound store: %v", p)
		}
		tcheck(t, tx.tx.Bucket(bucketGState).Put(testGame[:], u64(1)), "damage the index")
		if p := Check(tx); len(p) != 1 || !strings.Contains(p[0], "last state record") {
			t.Errorf("a wrong index of the last state record: %v", p)
		}
		return err
	}), "append")
	if _, _, err := s.viewLastState(ident.GameID{9}); err == nil {
		t.Error("LastState of a game never created: no error")
	}
}

func (s *Store) viewLastState(id ident.GameID) (i uint64, ok bool, err error) {
	s.View(func(tx *Tx) error { i, ok, err = LastState(tx, id); return nil })
	return
}

// TestUpgradeToSchema8: a schema 7 file (no index of state records) opened for writing has
// every game's last state record indexed, plain or sealed, and none for a game without one.
func TestUpgradeToSchema8(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	games := map[ident.GameID][]*gamelog.Builder{
		{1}: {note("x"), stateRec(1), note("y"), note("z")},
		{2}: {note("x"), stateRec(1), sealedStateRec(), note("z")},
		{3}: {note("x"), note("y")},
		{4}: nil,
	}
	tcheck(t, s.Update(func(tx *Tx) error {
		for id, recs := range games {
			tcheck(t, CreateGame(tx, id), "create")
			for _, b := range recs {
				if _, _, err := Append(tx, id, b); err != nil {
					return err
				}
			}
		}
		if err := tx.tx.DeleteBucket(bucketGState); err != nil {
			return err
		}
		if err := tx.tx.DeleteBucket(bucketGSnap); err != nil {
			return err
		}
		return tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(7))
	}), "write a schema 7 file")
	s.Close()
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{})
	tcheck(t, err, "open the schema 7 file")
	defer s.Close()
	for id, want := range map[ident.GameID]string{{1}: "1 true", {2}: "2 true", {3}: "0 false", {4}: "0 false"} {
		i, ok, err := s.viewLastState(id)
		if got := fmt.Sprint(i, " ", ok); err != nil || got != want {
			t.Errorf("game %x: LastState = %s, %v; want %s", id[:1], got, err, want)
		}
	}
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion {
			t.Errorf("schema %d after the upgrade", v)
		}
		if _, _, ok, err := Snapshot(tx, ident.GameID{1}); ok || err != nil {
			t.Errorf("a snapshot after the upgrade: %t, %v", ok, err)
		}
		return nil
	})
}

// TestRecordsFrom reads from an index on, and nothing of another game.
func TestRecordsFrom(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	other := ident.GameID{1, 2, 4}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, id := range []ident.GameID{testGame, other} {
			tcheck(t, CreateGame(tx, id), "create")
			for i := range 5 {
				if _, _, err := Append(tx, id, note(fmt.Sprint(i))); err != nil {
					return err
				}
			}
		}
		return nil
	}), "append")
	for from, want := range map[uint64]string{0: "01234", 3: "34", 5: "", 99: ""} {
		got := ""
		s.View(func(tx *Tx) error {
			return RecordsFrom(tx, testGame, from, func(i uint64, raw []byte, leaf ident.Hash) error {
				r, err := gamelog.Parse(raw)
				if err != nil || r.Index != i || leaf != gamelog.Leaf(raw) {
					t.Errorf("record %d: %+v, %v", i, r, err)
				}
				got += r.Get("text")
				return nil
			})
		})
		if got != want {
			t.Errorf("RecordsFrom(%d) read %q, want %q", from, got, want)
		}
	}
}

// TestSnapshotKept: the last snapshot put is the one kept, with its state record's index.
func TestSnapshotKept(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	tcheck(t, s.Update(func(tx *Tx) error {
		tcheck(t, CreateGame(tx, testGame), "create")
		if _, _, ok, err := Snapshot(tx, testGame); ok || err != nil {
			t.Errorf("a new game has a snapshot: %t, %v", ok, err)
		}
		tcheck(t, PutSnapshot(tx, testGame, 7, []byte("seven")), "put")
		return PutSnapshot(tx, testGame, 9, []byte("nine"))
	}), "snapshots")
	s.View(func(tx *Tx) error {
		if i, data, ok, err := Snapshot(tx, testGame); i != 9 || string(data) != "nine" || !ok || err != nil {
			t.Errorf("Snapshot = %d %q %t %v", i, data, ok, err)
		}
		if _, _, _, err := Snapshot(tx, ident.GameID{9}); err == nil {
			t.Error("the snapshot of a game never created: no error")
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error {
		return tx.tx.Bucket(bucketGSnap).Put(testGame[:], append(u64(9), "not deflated"...))
	}), "damage")
	s.View(func(tx *Tx) error {
		if _, data, ok, err := Snapshot(tx, testGame); ok || data != nil || err != nil {
			t.Errorf("a snapshot that does not inflate: %q %t %v", data, ok, err)
		}
		return nil
	})
}

// TestRecordsBack reads backwards from an index, stopping where told.
func TestRecordsBack(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	other := ident.GameID{1, 2, 4}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, id := range []ident.GameID{testGame, other} {
			tcheck(t, CreateGame(tx, id), "create")
			for i := range 5 {
				if _, _, err := Append(tx, id, note(fmt.Sprint(i))); err != nil {
					return err
				}
			}
		}
		return nil
	}), "append")
	for _, c := range []struct {
		before uint64
		stop   string
		want   string
	}{{99, "", "43210"}, {5, "", "43210"}, {3, "", "210"}, {0, "", ""}, {99, "3", "43"}} {
		got := ""
		s.View(func(tx *Tx) error {
			return RecordsBack(tx, testGame, c.before, func(i uint64, raw []byte) (bool, error) {
				r, err := gamelog.Parse(raw)
				if err != nil || r.Index != i {
					t.Errorf("record %d: %+v, %v", i, r, err)
				}
				got += r.Get("text")
				return r.Get("text") != c.stop, nil
			})
		})
		if got != c.want {
			t.Errorf("RecordsBack(%d, stop at %q) read %q, want %q", c.before, c.stop, got, c.want)
		}
	}
}
