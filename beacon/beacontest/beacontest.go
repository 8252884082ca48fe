// Package beacontest is a local beacon for tests and the demo: a chain with its own BLS key
// and an HTTP server speaking the relays' API (beacon.Client), publishing each round once an
// injected clock reaches its time.
package beacontest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cloudflare/circl/sign/bls"

	"navarch/beacon"
)

// Beacon is a local chain: its key signs rounds as drand's quicknet does.
type Beacon struct {
	Chain beacon.Chain
	key   *bls.PrivateKey[bls.KeyG2SigG1]

	mu   sync.Mutex
	now  func() time.Time
	down bool // the server answers 503 to everything
	bad  map[uint64]bool
}

// New is a beacon whose key is derived from seed, with a round every period since genesis.
func New(seed string, genesis time.Time, period time.Duration, now func() time.Time) *Beacon {
	ikm := sha256.Sum256([]byte("navarch beacontest key " + seed))
	k, err := bls.KeyGen[bls.KeyG2SigG1](ikm[:], nil, nil)
	if err != nil {
		panic(err)
	}
	pub, err := k.PublicKey().MarshalBinary()
	if err != nil {
		panic(err)
	}
	hash := sha256.Sum256(append([]byte("navarch beacontest chain "), pub...))
	return &Beacon{Chain: beacon.Chain{Hash: hash[:], Key: pub, Period: period, Genesis: genesis.UTC()}, key: k, now: now, bad: map[uint64]bool{}}
}

// Round is round r, signed (whether or not it is published yet).
func (b *Beacon) Round(r uint64) beacon.Round {
	sig := bls.Sign(b.key, beacon.Message(r))
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bad[r] {
		sig[10] ^= 1
	}
	return beacon.Round{Number: r, Signature: sig}
}

// SetDown makes the server fail every request (a relay that cannot be reached), or not.
func (b *Beacon) SetDown(down bool) { b.mu.Lock(); b.down = down; b.mu.Unlock() }

// Corrupt makes the server serve round r with a signature that does not verify.
func (b *Beacon) Corrupt(r uint64) { b.mu.Lock(); b.bad[r] = true; b.mu.Unlock() }

// ServeHTTP answers GET /<chain hash>/public/<round> as drand's relays do: the round as
// JSON once published, 425 Too Early before.
func (b *Beacon) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b.mu.Lock()
	down, now := b.down, b.now()
	b.mu.Unlock()
	if down {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	rest, ok := strings.CutPrefix(req.URL.Path, "/"+hex.EncodeToString(b.Chain.Hash)+"/public/")
	r, err := strconv.ParseUint(rest, 10, 64)
	if !ok || err != nil || r < 1 {
		http.NotFound(w, req)
		return
	}
	if b.Chain.Time(r).After(now) {
		http.Error(w, "too early", http.StatusTooEarly)
		return
	}
	round := b.Round(r)
	rnd := sha256.Sum256(round.Signature)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"round": r, "randomness": hex.EncodeToString(rnd[:]), "signature": hex.EncodeToString(round.Signature)})
}

// Server starts an HTTP server for b (closed with the returned func).
func (b *Beacon) Server() (url string, stop func()) {
	s := httptest.NewServer(b)
	return s.URL, s.Close
}
