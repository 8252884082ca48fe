package store

import (
	"encoding/binary"
	"fmt"
)

// bucketRounds keeps the beacon rounds the daemon fetched and verified, by chain hash and
// round number (32 bytes ‖ u64), each the round's signature: every game waiting for a round
// reads it from here once one pass fetched it, and a round is fetched once.
var bucketRounds = []byte("rounds")

func roundKey(chain []byte, round uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), chain...), round)
}

// PutRound keeps round's signature for the beacon of chain hash chain (32 bytes). The caller
// has verified it.
func PutRound(tx *Tx, chain []byte, round uint64, signature []byte) error {
	if len(chain) != 32 || len(signature) == 0 {
		return fmt.Errorf("store: round %d of chain %x: bad key or signature", round, chain)
	}
	return tx.tx.Bucket(bucketRounds).Put(roundKey(chain, round), signature)
}

// Round returns the kept signature of a round, or nil.
func Round(tx *Tx, chain []byte, round uint64) []byte {
	b := tx.tx.Bucket(bucketRounds)
	if b == nil || len(chain) != 32 {
		return nil
	}
	if v := b.Get(roundKey(chain, round)); v != nil {
		return append([]byte(nil), v...)
	}
	return nil
}
