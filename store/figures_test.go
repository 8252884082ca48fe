package store

import (
	"errors"
	"log/slog"
	"maps"
	"path/filepath"
	"testing"

	"navarch/ident"
)

// TestGameCounts: a game counted under a figure leaves the counts of the figure it was
// counted under; the same figure again changes nothing; a count at zero is gone; clearing
// sets every count to zero and every game to not counted; an unknown game is refused.
func TestGameCounts(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	a, b, c := ident.GameID{1}, ident.GameID{2}, ident.GameID{3}
	joining, playing, paused := GameFigure{State: "joining"}, GameFigure{State: "playing", Clock: true}, GameFigure{State: "paused"}
	check := func(want GameCounts, label string) {
		t.Helper()
		s.View(func(tx *Tx) error {
			if got := CountGames(tx); !maps.Equal(got.States, want.States) || got.Clocks != want.Clocks {
				t.Errorf("%s: CountGames = %+v, want %+v", label, got, want)
			}
			return nil
		})
	}
	put := func(id ident.GameID, f GameFigure) {
		t.Helper()
		tcheck(t, s.Update(func(tx *Tx) error { return PutGameFigure(tx, id, f) }), "put")
	}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, id := range []ident.GameID{a, b, c} {
			if err := CreateGame(tx, id); err != nil {
				return err
			}
		}
		return nil
	}), "create")
	check(GameCounts{States: map[string]int{}}, "games not counted yet")
	put(a, joining)
	put(b, joining)
	put(c, joining)
	check(GameCounts{States: map[string]int{"joining": 3}}, "three new games")
	put(a, playing)
	put(b, playing)
	put(b, playing)
	check(GameCounts{States: map[string]int{"joining": 1, "playing": 2}, Clocks: 2}, "two in play")
	put(a, paused)
	put(c, GameFigure{State: "over"})
	check(GameCounts{States: map[string]int{"playing": 1, "paused": 1, "over": 1}, Clocks: 1}, "one paused, one over")
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := PutFiguresStamp(tx, "v1"); err != nil {
			return err
		}
		return ClearGameCounts(tx)
	}), "clear")
	check(GameCounts{States: map[string]int{}}, "cleared")
	put(b, playing) // counted afresh: nothing to take out of the cleared counts
	check(GameCounts{States: map[string]int{"playing": 1}, Clocks: 1}, "after clearing")
	s.View(func(tx *Tx) error {
		if FiguresStamp(tx) != "v1" {
			t.Errorf("stamp after clearing: %q", FiguresStamp(tx))
		}
		return nil
	})
	if err := s.Update(func(tx *Tx) error { return PutGameFigure(tx, ident.GameID{9}, joining) }); !errors.Is(err, ErrNoGame) {
		t.Errorf("an unknown game counted: %v", err)
	}
}

// TestSchema5WithoutCounts: a file of schema 5 written before the game counts (their bucket
// was added to the unshipped schema in place) opens read-only with no counts and no stamp,
// and opened for writing gets the bucket, still unstamped, for the host to count the games.
func TestSchema5WithoutCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		if err := tx.tx.DeleteBucket(bucketGCount); err != nil {
			return err
		}
		return tx.tx.Bucket(bucketMeta).Delete([]byte(stateFiguresStamp))
	}), "write a file without the counts")
	s.Close()
	for _, ro := range []bool{true, false} {
		s, err := Open(path, slog.New(slog.DiscardHandler), Options{ReadOnly: ro})
		tcheck(t, err, "open")
		s.View(func(tx *Tx) error {
			if c := CountGames(tx); len(c.States) != 0 || FiguresStamp(tx) != "" {
				t.Errorf("read-only %t: counts %+v, stamp %q", ro, c, FiguresStamp(tx))
			}
			if has := tx.tx.Bucket(bucketGCount) != nil; has == ro {
				t.Errorf("read-only %t: the bucket is there: %t", ro, has)
			}
			return nil
		})
		if !ro {
			tcheck(t, s.Update(func(tx *Tx) error { return PutGameFigure(tx, testGame, GameFigure{State: "joining"}) }), "count")
		}
		s.Close()
	}
}
