package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"strconv"
	"testing"
)

// BenchmarkRollD6 derives one d6 per request (one HMAC block each), as most rules rolls are.
func BenchmarkRollD6(b *testing.B) {
	d := NewDeriver(testKey("bench"))
	labels := make([]string, 1024)
	for i := range labels {
		labels[i] = "fire/VEN-" + strconv.Itoa(i) + ">OTT-1/hit"
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := d.Derive(labels[i%len(labels)], 6, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHMACFloor is the bare HMAC-SHA256 of one roll message: the cost no derivation of
// a one-block roll can beat.
func BenchmarkHMACFloor(b *testing.B) {
	key := testKey("bench")
	msg := []byte("\x00\x00\x00\x0fnavarch/v1/roll\x00\x00\x00\x16fire/VEN-17>OTT-1/hit\x00\x00\x00\x06\x00\x00\x00\x01\x00\x00\x00\x00")
	m := hmac.New(sha256.New, key[:])
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		m.Reset()
		m.Write(msg)
		out = m.Sum(out[:0])
	}
}
