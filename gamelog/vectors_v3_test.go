package gamelog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"navarch/beacon"
	"navarch/dice"
	"navarch/ident"
)

// vectorsV3 are the golden vectors of the beacon key log format v3 adds (docs/LOG-FORMAT.md
// section 8): drand quicknet's real round 657413 (its message, its signature verified under
// quicknet's key, its randomness) and K_{1,5} of the v1 vectors' inputs keyed by it, with
// three rolls. DO NOT CHANGE once games exist.
func vectorsV3() string {
	var b strings.Builder
	line := func(k string, v []byte) { fmt.Fprintf(&b, "%-28s %x\n", k, v) }
	var game ident.GameID
	for i := range game {
		game[i] = byte(i)
	}
	sig, _ := hex.DecodeString("b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b")
	r := beacon.Round{Number: 657413, Signature: sig}
	if beacon.Quicknet.Verify(r) != nil {
		return "quicknet round 657413 does not verify\n"
	}
	line("round 657413 message", beacon.Message(r.Number))
	rnd := r.Randomness()
	line("round 657413 randomness", rnd[:])
	x3 := ident.Hash(sha256.Sum256([]byte("example seed - never use")))
	x1, _ := dice.ChainSeed(game, 3, x3, 1)
	c, _ := dice.ChainSeed(game, 3, x3, 0)
	s, _ := dice.StartHash(game, c, []dice.Join{{Player: "alice", Entropy: []byte("alice-join")}, {Player: "bob", Entropy: []byte("bob-join")}})
	e := dice.InputsHash(1, 5, []dice.Input{{Player: "bob", OrdersHash: OrdersHash([]byte("HOLD\n"))}, {Player: "alice", OrdersHash: OrdersHash([]byte("MOVE A1-A2\n")), Entropy: []byte("correct horse")}})
	k := dice.BeaconKey(x1, game, s, 1, 5, e, r.Number, rnd)
	line("K_1,5 beacon 657413", k[:])
	d := dice.NewDeriver(k)
	for _, q := range []struct {
		label        string
		sides, count int
	}{{"draw", 7, 1}, {"fire/VEN1>SIR2/hit1/hv", 6, 2}, {"many", 6, 20}} {
		vals, _ := d.Derive(q.label, q.sides, q.count)
		fmt.Fprintf(&b, "roll %q %dd%d = %v\n", q.label, q.count, q.sides, vals)
	}
	return b.String()
}

func TestGoldenVectorsV3(t *testing.T) {
	goldenVectors(t, "v3", vectorsV3())
}

// TestVectorsV3MatchReference runs the independent Python implementation of the spec
// (docs/reference/dice_vectors.py v3) and compares its output with the golden file.
func TestVectorsV3MatchReference(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "../docs/reference/dice_vectors.py", "v3").Output()
	if err != nil {
		t.Fatalf("reference implementation: %v", err)
	}
	want, _ := os.ReadFile("testdata/vectors_v3.golden")
	if string(out) != string(want) {
		t.Errorf("the Python reference differs:\n%s\nwant:\n%s", out, want)
	}
}
