package gamelog

import (
	"time"

	"navarch/beacon"
)

// BeaconOf is the beacon a genesis record names (format v3: beacon-chain, beacon-key,
// beacon-period in seconds, beacon-genesis in Unix seconds), or nil for a game without one.
func BeaconOf(g *Record) *beacon.Chain {
	if !g.Has("beacon-key") {
		return nil
	}
	return &beacon.Chain{Hash: g.Bytes("beacon-chain"), Key: g.Bytes("beacon-key"),
		Period: time.Duration(g.Uint("beacon-period")) * time.Second, Genesis: time.Unix(int64(g.Uint("beacon-genesis")), 0).UTC()}
}

// AddBeacon names chain c in a genesis record being built.
func (b *Builder) AddBeacon(c *beacon.Chain) *Builder {
	return b.AddHex("beacon-chain", c.Hash).AddHex("beacon-key", c.Key).
		AddUint("beacon-period", uint64(c.Period/time.Second)).AddUint("beacon-genesis", uint64(c.Genesis.Unix()))
}
