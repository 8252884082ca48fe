package store

import (
	"log/slog"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"navarch/ident"
)

// TestGameFigures: a game's figure replaces its previous one and the counts move with it;
// the deadlines before now are overdue; an unchanged figure writes nothing; clearing empties
// the index.
func TestGameFigures(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	a, b, c := ident.GameID{1}, ident.GameID{2}, ident.GameID{3}
	playing := func(at time.Time) GameFigure { return GameFigure{State: "playing", Clock: true, Deadline: at} }
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, p := range []struct {
			id ident.GameID
			f  GameFigure
		}{{a, GameFigure{State: "joining"}}, {b, GameFigure{State: "joining"}}, {c, GameFigure{State: "joining"}},
			{a, playing(t0.Add(time.Hour))}, {b, playing(t0.Add(-time.Hour))},
			{a, playing(t0.Add(-2 * time.Hour))}, // a deadline moved: the old entry goes
			{b, playing(t0.Add(-time.Hour))},     // unchanged
			{c, GameFigure{State: "over"}}} {
			if err := PutGameFigure(tx, p.id, p.f); err != nil {
				return err
			}
		}
		return nil
	}), "put")
	check := func(now time.Time, want GameCounts, label string) {
		t.Helper()
		s.View(func(tx *Tx) error {
			got := CountGames(tx, now)
			if !maps.Equal(got.States, want.States) || got.Clocks != want.Clocks || got.Overdue != want.Overdue {
				t.Errorf("%s: CountGames = %+v, want %+v", label, got, want)
			}
			return nil
		})
	}
	check(t0, GameCounts{States: map[string]int{"playing": 2, "over": 1}, Clocks: 2, Overdue: 2}, "both past")
	check(t0.Add(-90*time.Minute), GameCounts{States: map[string]int{"playing": 2, "over": 1}, Clocks: 2, Overdue: 1}, "one past")
	check(t0.Add(-2*time.Hour), GameCounts{States: map[string]int{"playing": 2, "over": 1}, Clocks: 2, Overdue: 0}, "at a's deadline")
	tcheck(t, s.Update(func(tx *Tx) error { return PutGameFigure(tx, a, GameFigure{State: "paused"}) }), "pause")
	check(t0, GameCounts{States: map[string]int{"playing": 1, "paused": 1, "over": 1}, Clocks: 1, Overdue: 1}, "a paused")
	s.View(func(tx *Tx) error {
		want := map[ident.GameID]GameFigure{a: {State: "paused"}, b: playing(t0.Add(-time.Hour)), c: {State: "over"}}
		got := GameFigures(tx)
		if len(got) != len(want) || got[a] != want[a] || got[c] != want[c] || got[b].State != "playing" || !got[b].Deadline.Equal(want[b].Deadline) {
			t.Errorf("GameFigures = %v, want %v", got, want)
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := PutFiguresStamp(tx, "v1"); err != nil {
			return err
		}
		return ClearGameFigures(tx)
	}), "clear")
	check(t0, GameCounts{States: map[string]int{}}, "cleared")
	s.View(func(tx *Tx) error {
		if len(GameFigures(tx)) != 0 || FiguresStamp(tx) != "v1" {
			t.Errorf("after clearing: %v, stamp %q", GameFigures(tx), FiguresStamp(tx))
		}
		return nil
	})
}

// TestSchema5WithoutFigures: a file of schema 5 written before the figures index (the
// buckets were added to the unshipped schema in place) opens read-only with empty counts and
// no stamp, and opened for writing gets the buckets, still unstamped, for the host to
// rebuild.
func TestSchema5WithoutFigures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := PutGameFigure(tx, ident.GameID{1}, GameFigure{State: "joining"}); err != nil {
			return err
		}
		if err := PutFiguresStamp(tx, "v1"); err != nil {
			return err
		}
		for _, b := range [][]byte{bucketGState, bucketGCount, bucketGClock} {
			if err := tx.tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return tx.tx.Bucket(bucketMeta).Delete([]byte(stateFiguresStamp))
	}), "write a file without the index")
	s.Close()
	for _, ro := range []bool{true, false} {
		s, err := Open(path, slog.New(slog.DiscardHandler), Options{ReadOnly: ro})
		tcheck(t, err, "open")
		s.View(func(tx *Tx) error {
			if c := CountGames(tx, t0); len(c.States) != 0 || FiguresStamp(tx) != "" || len(GameFigures(tx)) != 0 {
				t.Errorf("read-only %t: counts %+v, stamp %q", ro, c, FiguresStamp(tx))
			}
			if has := tx.tx.Bucket(bucketGState) != nil; has == ro {
				t.Errorf("read-only %t: the bucket is there: %t", ro, has)
			}
			return nil
		})
		if !ro {
			tcheck(t, s.Update(func(tx *Tx) error { return PutGameFigure(tx, ident.GameID{1}, GameFigure{State: "joining"}) }), "put")
		}
		s.Close()
	}
}
