package beacon

import (
	"errors"
	"strings"
	"testing"
)

const goldenJSON = `{"round":657413,"randomness":"fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587","signature":"b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"}`

// TestParseRoundBadInput: a relay's answer is used only as the round asked for, with a
// signature that verifies and the randomness H(signature); anything else is an error.
func TestParseRoundBadInput(t *testing.T) {
	if r, err := parseRound([]byte(goldenJSON), 657413, Quicknet); err != nil || r.Number != 657413 {
		t.Fatalf("the golden answer: %v", err)
	}
	for name, body := range map[string]string{
		"another round":      strings.Replace(goldenJSON, "657413", "657414", 1),
		"not json":           "<html>502 Bad Gateway</html>",
		"empty":              "",
		"bad hex":            strings.Replace(goldenJSON, `"signature":"b7`, `"signature":"zz`, 1),
		"short signature":    strings.Replace(goldenJSON, `cd97b"}`, `"}`, 1),
		"changed signature":  strings.Replace(goldenJSON, `"signature":"b7`, `"signature":"b6`, 1),
		"wrong randomness":   strings.Replace(goldenJSON, `"randomness":"fc`, `"randomness":"fd`, 1),
		"round as a string":  strings.Replace(goldenJSON, `657413`, `"657413"`, 1),
		"no signature field": `{"round":657413}`,
	} {
		if _, err := parseRound([]byte(body), 657413, Quicknet); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := parseRound([]byte(strings.Replace(goldenJSON, `"signature":"b7`, `"signature":"b6`, 1)), 657413, Quicknet); !errors.Is(err, ErrBadSignature) && err == nil {
		t.Error("a changed signature is not a bad signature")
	}
}

func FuzzParseRound(f *testing.F) {
	f.Add([]byte(goldenJSON), uint64(657413))
	f.Add([]byte(`{"round":1,"signature":""}`), uint64(1))
	f.Fuzz(func(t *testing.T, body []byte, r uint64) {
		round, err := parseRound(body, r, Quicknet)
		if err == nil && (round.Number != r || Quicknet.Verify(round) != nil) {
			t.Fatalf("accepted round %d that does not verify", round.Number)
		}
	})
}
