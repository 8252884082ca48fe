package beacon

import (
	"encoding/hex"
	"errors"
	"testing"
	"time"
)

// The real quicknet round 657413, the golden vector of docs/LOG-FORMAT.md 8 (also checked by
// the browser page and docs/reference/dice_vectors.py).
const (
	goldenRound      = 657413
	goldenSignature  = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
	goldenRandomness = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"
)

func TestQuicknetGoldenRound(t *testing.T) {
	sig, _ := hex.DecodeString(goldenSignature)
	r := Round{Number: goldenRound, Signature: sig}
	if err := Quicknet.Verify(r); err != nil {
		t.Fatal(err)
	}
	if got := r.Randomness(); hex.EncodeToString(got[:]) != goldenRandomness {
		t.Errorf("randomness %x, want %s", got, goldenRandomness)
	}
	for _, bad := range []Round{{Number: goldenRound + 1, Signature: sig}, {Number: goldenRound, Signature: sig[:47]}, {Number: 0, Signature: sig}} {
		if err := Quicknet.Verify(bad); err == nil {
			t.Errorf("round %d with %d bytes of signature verifies", bad.Number, len(bad.Signature))
		}
	}
	flipped := append([]byte(nil), sig...)
	flipped[20] ^= 1
	if err := Quicknet.Verify(Round{Number: goldenRound, Signature: flipped}); err == nil {
		t.Error("a changed signature verifies")
	} else if !errors.Is(err, ErrBadSignature) && err == nil {
		t.Error(err)
	}
}

func TestRoundTimes(t *testing.T) {
	c := Quicknet
	if got := c.Time(1); !got.Equal(c.Genesis) {
		t.Errorf("round 1 at %v", got)
	}
	if got := c.Time(goldenRound); !got.Equal(time.Unix(1692803367+3*(goldenRound-1), 0)) {
		t.Errorf("round %d at %v", goldenRound, got)
	}
	for _, tc := range []struct {
		at   time.Time
		want uint64
	}{
		{c.Genesis.Add(-time.Hour), 1}, {c.Genesis, 1}, {c.Genesis.Add(time.Second), 2},
		{c.Genesis.Add(3 * time.Second), 2}, {c.Genesis.Add(3*time.Second + 1), 3},
	} {
		if got := c.RoundAfter(tc.at); got != tc.want {
			t.Errorf("RoundAfter(%v) = %d, want %d", tc.at, got, tc.want)
		}
		if got := c.RoundAfter(tc.at); c.Time(got).Before(tc.at) {
			t.Errorf("round %d at %v is before %v", got, c.Time(got), tc.at)
		}
	}
}
