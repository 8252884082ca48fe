package play_test

import (
	"bytes"
	"compress/flate"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ident"
	"navarch/internal/cputime"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// BenchmarkStepCommit is Lions at Sea (13.2) played by the bots and committed on a store
// without fsync, beside the floor measured in the same loop: a bare bbolt commit of as many
// bytes as the transaction wrote (the records it added, and the snapshot when it saved one),
// ns/bare-commit, on the same store and options; pages/tx and pages/bare-commit count the
// pages each commit wrote (store.PageWrites).
// Two ways:
//
//   - step: one step (play.Step: the activation, orders, close, rolls, events and state)
//     and the snapshot in each transaction;
//   - mail: what the transaction of the mail that completes a step's orders resolves, as the
//     host's advanceFrom does: that step and every automatic step after it up to the next
//     step that needs orders, in one transaction, and the snapshot once (SaveSnapshot, as the
//     host saves it once a mail). Its figures are per transaction (steps/tx says how many
//     steps one holds).
//
// The game restarts when it ends; setting a game up is not timed. Beside the wall times it
// reports the CPU time of the benchmark's thread (bbolt commits on it; the steadier figure
// on a shared machine): the transaction's, the snapshot's within it, the bare commit's, and
// their ratios with and without the snapshot.
func BenchmarkStepCommit(b *testing.B) {
	b.Run("step", func(b *testing.B) { benchStepCommit(b, false) })
	b.Run("mail", func(b *testing.B) { benchStepCommit(b, true) })
}

func benchStepCommit(b *testing.B, mail bool) {
	s, err := store.Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	cfg := adjudicator.Config{Scenario: "lions-at-sea"}
	var id ident.GameID
	var g adjudicator.Game
	games := 0
	newGame := func() {
		games++
		if err := s.Update(func(tx *store.Tx) error {
			c, err := play.Create(tx, lepanto.Ruleset, cfg, players, ledgertest.Clock, ledgertest.Rand(fmt.Sprint("step ", games)))
			if err != nil {
				return err
			}
			id = c.Game
			for _, p := range players {
				if err := ledger.Join(tx, id, p.ID, nil, ledgertest.Clock, ""); err != nil {
					return err
				}
			}
			_, err = ledger.Start(tx, id, false)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		g, _ = lepanto.Ruleset.New(cfg)
	}
	newGame()
	var stepped, bare, stepCPU, snapCPU, bareCPU time.Duration
	written, steps := 0, 0
	var pages, barePages int64
	runtime.LockOSThread() // the thread's CPU time is this goroutine's (cputime.Thread)
	defer runtime.UnlockOSThread()
	_, cpuOK := cputime.Thread()
	for i := 0; i < b.N; i++ {
		if g.Next().Kind == adjudicator.Over {
			newGame()
		}
		orders := botOrders(b, g, g.Next())
		before, snapAt := logLen(b, s, id)
		start, cpu0, w0 := time.Now(), cpuNow(), s.PageWrites()
		if err := s.Update(func(tx *store.Tx) error {
			for first := true; first || mail && g.Next().Kind == adjudicator.Auto; first = false {
				if _, err := play.Step(tx, id, g, orders, ledgertest.Clock); err != nil {
					return err
				}
				orders, steps = nil, steps+1
			}
			snap0 := cpuNow()
			defer func() { snapCPU += cpuNow() - snap0 }()
			return play.SaveSnapshot(tx, id, g) // as the host saves it once a mail
		}); err != nil {
			b.Fatal(err)
		}
		stepped, stepCPU, pages = stepped+time.Since(start), stepCPU+cpuNow()-cpu0, pages+s.PageWrites()-w0
		n := logBytesFrom(b, s, id, before, snapAt)
		written += n
		start, cpu0, w0 = time.Now(), cpuNow(), s.PageWrites()
		if err := s.Update(func(tx *store.Tx) error { return store.PutMeta(tx, id, "bench-bare", make([]byte, n)) }); err != nil {
			b.Fatal(err)
		}
		bare, bareCPU, barePages = bare+time.Since(start), bareCPU+cpuNow()-cpu0, barePages+s.PageWrites()-w0
	}
	if cpuOK && bareCPU > 0 {
		b.ReportMetric(float64(stepCPU.Nanoseconds())/float64(b.N), "cpu-ns/tx")
		b.ReportMetric(float64(snapCPU.Nanoseconds())/float64(b.N), "cpu-ns/snapshot")
		b.ReportMetric(float64(bareCPU.Nanoseconds())/float64(b.N), "cpu-ns/bare-commit")
		b.ReportMetric(float64(stepCPU)/float64(bareCPU), "cpu-x-bare")
		b.ReportMetric(float64(stepCPU-snapCPU)/float64(bareCPU), "cpu-x-bare-without-snapshot")
	}
	b.ReportMetric(float64(stepped.Nanoseconds())/float64(b.N), "ns/tx")
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "ns/bare-commit")
	b.ReportMetric(float64(written)/float64(b.N), "B/tx")
	b.ReportMetric(float64(pages)/float64(b.N), "pages/tx")
	b.ReportMetric(float64(barePages)/float64(b.N), "pages/bare-commit")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/tx")
}

// logLen is the length of a game's log and the state record its snapshot is of (0: none).
func logLen(b *testing.B, s *store.Store, id ident.GameID) (n, snapAt uint64) {
	b.Helper()
	if err := s.View(func(tx *store.Tx) (err error) {
		snapAt, _, _ = store.SnapshotAt(tx, id)
		n, err = store.Len(tx, id)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return n, snapAt
}

// logBytesFrom is the size of a game's records from index from on, and of its snapshot as
// stored (deflated) if it is no longer of the state record at snapAt (it was written since).
func logBytesFrom(b *testing.B, s *store.Store, id ident.GameID, from, snapAt uint64) (n int) {
	b.Helper()
	err := s.View(func(tx *store.Tx) error {
		at, snap, ok, err := store.Snapshot(tx, id)
		if err != nil {
			return err
		}
		if ok && at != snapAt {
			var z bytes.Buffer // the snapshot as the store keeps it
			w, _ := flate.NewWriter(&z, flate.BestSpeed)
			w.Write(snap)
			w.Close()
			n = z.Len()
		}
		return store.RecordsFrom(tx, id, from, func(_ uint64, raw []byte, _ ident.Hash) error { n += len(raw); return nil })
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// cpuNow is cputime.Thread's time, or 0 where it is not measured.
func cpuNow() time.Duration {
	d, _ := cputime.Thread()
	return d
}
