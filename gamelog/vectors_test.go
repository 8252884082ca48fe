package gamelog

import (
	"crypto/ed25519"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"navarch/dice"
	"navarch/ident"
)

var update = flag.Bool("update", false, "rewrite golden files")

// vectorsV2 are the golden vectors of the commitments log format v2 adds (docs/LOG-FORMAT.md
// section 8), over the inputs of the v1 vectors. DO NOT CHANGE once games exist.
func vectorsV2() string {
	var b strings.Builder
	line := func(k string, v []byte) { fmt.Fprintf(&b, "%-28s %x\n", k, v) }
	var game ident.GameID
	for i := range game {
		game[i] = byte(i)
	}
	nonce := ident.Hash(sha256.Sum256([]byte("example nonce - never use")))
	line("nonce", nonce[:])
	ca, cn := OrdersCommitment(nonce, []byte("MOVE A1-A2\n")), OrdersCommitment(nonce, []byte("NONE\n"))
	line("orders-commit alice", ca[:])
	line("orders-commit NONE", cn[:])
	sealed := SealedHash(nonce, []byte("type event\nindex 7\nturn 1\nactivation 5\nside venice\ntext Barbarigo sets up hidden aboard VEN-A\n"))
	line("sealed event", sealed[:])
	e := dice.InputsHash(1, 5, []dice.Input{{Player: "bob"}, {Player: "alice", OrdersHash: OrdersHash([]byte("MOVE A1-A2\n")), Entropy: []byte("correct horse")}})
	line("E_1,5 bob secret", e[:])
	c := Checkpoint{Game: game, Size: 42, Head: sha256.Sum256([]byte("example head"))}
	line("export message", c.exportMessage())
	return b.String()
}

func TestGoldenVectorsV2(t *testing.T) {
	goldenVectors(t, "v2", vectorsV2())
	// The trailer's signature is plain Ed25519 over the export message, under its own tag.
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	c := Checkpoint{Game: ident.GameID{1}, Size: 42}
	c.SignExport(key)
	pub := key.Public().(ed25519.PublicKey)
	if !c.ValidExport(pub) || c.Valid(pub) || !ed25519.Verify(pub, c.exportMessage(), c.Signature) {
		t.Error("an export signature must verify as one, and only as one")
	}
}

// TestVectorsV2MatchReference runs the independent Python implementation (docs/reference).
func TestVectorsV2MatchReference(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "../docs/reference/dice_vectors.py", "v2").Output()
	if err != nil {
		t.Fatalf("reference implementation: %v", err)
	}
	if want := vectorsV2(); string(out) != want {
		t.Errorf("reference implementation disagrees:\npython:\n%s\ngo:\n%s", out, want)
	}
}

// goldenVectors compares a format's vectors with testdata/vectors_FORMAT.golden (-update writes
// it, never once games exist) and requires docs/LOG-FORMAT.md section 8 to quote the file.
func goldenVectors(t *testing.T, format, got string) {
	t.Helper()
	file := "testdata/vectors_" + format + ".golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update once to create it)", err)
	}
	if got != string(want) {
		t.Errorf("a %s derivation changed; DO NOT update the golden file once games exist.\ngot:\n%s\nwant:\n%s", format, got, want)
	}
	doc, err := os.ReadFile("../docs/LOG-FORMAT.md")
	if err != nil || !strings.Contains(string(doc), "```\n"+string(want)+"```\n") {
		t.Errorf("docs/LOG-FORMAT.md section 8 does not quote %s (%v)", file, err)
	}
}
