package ledger

import (
	"bytes"
	"fmt"
	"math"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// lastSeen is Last: the log read backwards (store.RecordsBack), so that a record written a
// step ago costs a step's records, not the log's.
func lastSeen(tx *store.Tx, id ident.GameID, v View, typ string) (*gamelog.Record, error) {
	over, err := isOver(tx, id)
	if err != nil {
		return nil, err
	}
	var last *gamelog.Record
	err = store.RecordsBack(tx, id, math.MaxUint64, func(i uint64, raw []byte) (bool, error) {
		plain := bytes.HasPrefix(raw, []byte("type "+typ+"\n"))
		if !plain && !bytes.HasPrefix(raw, []byte("type "+gamelog.TypeSealed+"\n")) {
			return true, nil
		}
		rec, err := gamelog.Parse(raw)
		if err != nil {
			return false, fmt.Errorf("read record %d: %w", i, err)
		}
		switch {
		case !v.sees(&rec, over):
		case plain:
			last = &rec
		case rec.Get("what") == typ:
			if last, _, err = unseal(tx, id, i); err != nil {
				return false, err
			}
		}
		return last == nil, nil
	})
	return last, err
}
