package beacon

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrNotYet is returned for a round no relay serves yet (not published, or a relay behind).
var ErrNotYet = errors.New("beacon: the round is not published yet")

// Client fetches rounds from a chain's relays over HTTP(S), the relays' API
// (GET <relay>/<chain hash hex>/public/<round>, a JSON object with round, randomness and
// signature), and verifies each before returning it.
type Client struct {
	Chain  Chain
	Relays []string // base URLs, e.g. https://api.drand.sh; tried in order
	HTTP   *http.Client
	// Timeout bounds one relay's answer (DefaultTimeout if 0), so that a relay that takes the
	// connection and never answers cannot hold the steps that wait for a round: the next
	// relay is tried, and the round looked for again at the next pass.
	Timeout time.Duration
}

// DefaultTimeout is how long a relay may take to answer unless Client.Timeout says otherwise.
const DefaultTimeout = 15 * time.Second

// relayRound is a relay's answer.
type relayRound struct {
	Round      uint64 `json:"round"`
	Randomness string `json:"randomness"`
	Signature  string `json:"signature"`
}

// Fetch returns round r, verified under the chain's key. It tries each relay in turn; the
// error is ErrNotYet when none serves the round yet, else the last relay's.
func (c *Client) Fetch(ctx context.Context, r uint64) (Round, error) {
	if len(c.Relays) == 0 {
		return Round{}, errors.New("beacon: no relay configured")
	}
	var last error
	notYet := 0
	for _, relay := range c.Relays {
		round, err := c.fetchFrom(ctx, relay, r)
		if err == nil {
			return round, nil
		}
		if errors.Is(err, ErrNotYet) {
			notYet++
		}
		last = err
	}
	if notYet > 0 && !errors.Is(last, ErrBadSignature) {
		return Round{}, fmt.Errorf("round %d: %w", r, ErrNotYet)
	}
	return Round{}, last
}

func (c *Client) fetchFrom(ctx context.Context, relay string, r uint64) (Round, error) {
	url := strings.TrimSuffix(relay, "/") + "/" + hex.EncodeToString(c.Chain.Hash) + "/public/" + strconv.FormatUint(r, 10)
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Round{}, fmt.Errorf("beacon: %w", err)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Round{}, fmt.Errorf("beacon: %s: %w", relay, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return Round{}, fmt.Errorf("beacon: %s: %w", relay, err)
	}
	switch {
	case resp.StatusCode == http.StatusTooEarly || resp.StatusCode == http.StatusNotFound:
		return Round{}, fmt.Errorf("%s: %w", relay, ErrNotYet)
	case resp.StatusCode != http.StatusOK:
		return Round{}, fmt.Errorf("beacon: %s: round %d: HTTP %d", relay, r, resp.StatusCode)
	}
	return parseRound(body, r, c.Chain)
}

// parseRound reads a relay's answer for round r and verifies it.
func parseRound(body []byte, r uint64, chain Chain) (Round, error) {
	var rr relayRound
	if err := json.Unmarshal(body, &rr); err != nil {
		return Round{}, fmt.Errorf("beacon: round %d: %w", r, err)
	}
	sig, err := hex.DecodeString(rr.Signature)
	if err != nil || rr.Round != r {
		return Round{}, fmt.Errorf("beacon: round %d: the relay answered round %d, signature %.16q", r, rr.Round, rr.Signature)
	}
	round := Round{Number: r, Signature: sig}
	if err := chain.Verify(round); err != nil {
		return Round{}, err
	}
	if want := round.Randomness(); rr.Randomness != "" && rr.Randomness != hex.EncodeToString(want[:]) {
		return Round{}, fmt.Errorf("beacon: round %d: the relay's randomness is not H(signature)", r)
	}
	return round, nil
}
