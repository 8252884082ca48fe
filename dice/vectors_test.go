package dice

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"navarch/ident"
	"os"
	"os/exec"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// vectorGame is the fixed input set of the golden vectors (docs/LOG-FORMAT.md, "Test
// vectors"). DO NOT CHANGE the inputs or testdata/vectors.golden once games exist: a
// difference means every game's dice would come out differently.
func vectorGame() (game ident.GameID, n uint32, xN ident.Hash) {
	for i := range game {
		game[i] = byte(i)
	}
	return game, 3, sha256.Sum256([]byte("example seed - never use"))
}

func ordersHash(text string) ident.Hash {
	return sum(Tag(TagOrders), []byte(text))
}

func vectors(t *testing.T) string {
	t.Helper()
	game, n, xN := vectorGame()
	var b strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&b, "%-28s %x\n", k, v) }
	c := Commitment(game, n, xN)
	x1, _ := ChainSeed(game, n, xN, 1)
	x2, _ := ChainSeed(game, n, xN, 2)
	line("game_id", game[:])
	line("X_3", xN[:])
	line("X_2", x2[:])
	line("X_1", x1[:])
	line("C = X_0", c[:])
	s, err := StartHash(game, c, []Join{{"bob", []byte("bob-join")}, {"alice", []byte("alice-join")}})
	if err != nil {
		t.Fatal(err)
	}
	line("S", s[:])
	oa, ob := ordersHash("MOVE A1-A2\n"), ordersHash("HOLD\n")
	line("orders_hash alice", oa[:])
	line("orders_hash bob", ob[:])
	e := InputsHash(1, 5, []Input{{"bob", ob, nil}, {"alice", oa, []byte("correct horse")}})
	line("E_1,5", e[:])
	k := ActivationKey(x1, game, s, 1, 5, e)
	line("K_1,5", k[:])
	e0 := InputsHash(1, 0, nil)
	line("E_1,0 (no inputs)", e0[:])
	for _, r := range []struct {
		label        string
		sides, count int
	}{{"draw", 7, 1}, {"fire/VEN1>SIR2/hit1/hv", 6, 2}, {"morale/unit12", 10, 1}, {"big", 3 << 30, 4}, {"many", 6, 20}} {
		v, err := Derive(k, r.label, r.sides, r.count)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "roll %q %dd%d = %v\n", r.label, r.count, r.sides, v)
	}
	return b.String()
}

func TestGoldenVectors(t *testing.T) {
	got := vectors(t)
	const file = "testdata/vectors.golden"
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update once to create it)", err)
	}
	if got != string(want) {
		t.Errorf("dice derivation changed; DO NOT update the golden file once games exist.\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// TestVectorsMatchReference runs the independent Python implementation written from the
// spec (docs/reference/dice_vectors.py) and compares its output with the golden file.
func TestVectorsMatchReference(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "../docs/reference/dice_vectors.py").Output()
	if err != nil {
		t.Fatalf("reference implementation: %v", err)
	}
	want, err := os.ReadFile("testdata/vectors.golden")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Errorf("reference implementation disagrees with the Go derivation:\npython:\n%s\ngo:\n%s", out, want)
	}
}

// TestSpecQuotesVectors keeps the copy of the vectors in docs/LOG-FORMAT.md true.
func TestSpecQuotesVectors(t *testing.T) {
	doc, err := os.ReadFile("../docs/LOG-FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/vectors.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```\n"+string(want)+"```\n") {
		t.Error("docs/LOG-FORMAT.md section 8 does not quote testdata/vectors.golden")
	}
}
