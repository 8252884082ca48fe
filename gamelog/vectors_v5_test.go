package gamelog

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"navarch/dice"
)

// vectorsV5 are the golden vectors of log format v5's inputs of E (docs/LOG-FORMAT.md
// section 8): a team side's orders records enter E under the side's id, sorted over whole
// entries with the others. DO NOT CHANGE once games exist.
func vectorsV5() string {
	var b strings.Builder
	line := func(k string, v []byte) { fmt.Fprintf(&b, "%-28s %x\n", k, v) }
	oa, ob := OrdersHash([]byte("MOVE A1-A2\n")), OrdersHash([]byte("HOLD\n"))
	e := dice.InputsHash(1, 5, []dice.Input{{Player: "christian", OrdersHash: ob}, {Player: "bob", OrdersHash: ob},
		{Player: "christian", OrdersHash: oa, Entropy: []byte("correct horse")}})
	line("E_1,5 team christian", e[:])
	return b.String()
}

func TestGoldenVectorsV5(t *testing.T) { goldenVectors(t, "v5", vectorsV5()) }

// TestVectorsV5MatchReference runs the independent Python implementation (docs/reference).
func TestVectorsV5MatchReference(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "../docs/reference/dice_vectors.py", "v5").Output()
	if err != nil {
		t.Fatalf("reference implementation: %v", err)
	}
	if want := vectorsV5(); string(out) != want {
		t.Errorf("reference implementation disagrees:\npython:\n%s\ngo:\n%s", out, want)
	}
}
