package gamelog_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// longGame is 10 turns of 100 activations with 100 rolls each: 100,000 rolls of the
// activations plus one draw per turn, every seed revealed.
var longGame = sync.OnceValues(func() ([]byte, error) {
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	s, err := store.Open(filepath.Join(dir, "bench.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "bench", Turns: 10, Activations: 100, Rolls: 100, Reveal: -1, End: true})
	if err != nil {
		return nil, err
	}
	return ledgertest.Export(s, id, ledger.View{Full: true})
})

func loadLong(b *testing.B) ([]byte, *gamelog.Report) {
	b.Helper()
	data, err := longGame()
	if err != nil {
		b.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		b.Fatal(err)
	}
	rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true})
	if !rep.OK() || rep.RollsChecked < 100_000 {
		b.Fatalf("long game: %v, %d rolls checked", rep.Failure, rep.RollsChecked)
	}
	return data, rep
}

// BenchmarkVerify100kRolls parses and verifies the whole long game's export: chain, every
// record, every roll recomputed.
func BenchmarkVerify100kRolls(b *testing.B) {
	data, rep := loadLong(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := gamelog.ParseFile(data)
		if err != nil {
			b.Fatal(err)
		}
		if r := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !r.OK() {
			b.Fatal(r.Failure)
		}
	}
	b.ReportMetric(float64(rep.RollsChecked), "rolls/op")
}

// BenchmarkHMACFloor100kRolls computes one HMAC-SHA256 block per roll of the long game, with
// the key set once per activation: the floor under any verifier of these rolls.
func BenchmarkHMACFloor100kRolls(b *testing.B) {
	_, rep := loadLong(b)
	msg := []byte("\x00\x00\x00\x0fnavarch/v1/roll\x00\x00\x00\x14fire/VEN-17>OTT-1/42\x00\x00\x00\x06\x00\x00\x00\x02\x00\x00\x00\x00")
	var out []byte
	for b.Loop() {
		var m = hmac.New(sha256.New, msg[:32])
		for i := 0; i < rep.RollsChecked; i++ {
			if i%100 == 0 {
				m = hmac.New(sha256.New, msg[i%8:i%8+32])
			}
			m.Reset()
			m.Write(msg)
			out = m.Sum(out[:0])
		}
	}
	b.ReportMetric(float64(rep.RollsChecked), "rolls/op")
}
