package ledger

import (
	"fmt"
	"io"
	"strings"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// View says whose copy of the log to export.
type View struct {
	// Side is the side whose copy this is; "" with Full false is the public copy.
	Side string
	// Full exports every record (the referee's copy). Secrets are never exported.
	Full bool
}

// Name is the view word of the export header: "full", "public" or "side:<id>".
func (v View) Name() string {
	switch {
	case v.Full:
		return "full"
	case v.Side == "":
		return "public"
	}
	return "side:" + v.Side
}

func (v View) sees(r *gamelog.Record) bool {
	side := r.Get("side")
	if r.Type == gamelog.TypeState && r.Has("sealed") {
		return v.Full
	}
	scoped := r.Type == gamelog.TypeEvent || r.Type == gamelog.TypeOrdersText || r.Type == gamelog.TypeOrders
	return v.Full || !scoped || side == "" || side == v.Side
}

// Export writes the game's log as v may see it: records another side may not see are
// replaced by their leaf hash (the chain still verifies), and a side's copy carries its own
// undisclosed hidden set-up so that it can check the commitment.
func Export(tx *store.Tx, id ident.GameID, v View, w io.Writer) error {
	var entries []gamelog.Entry
	var private []gamelog.Private
	err := store.Records(tx, id, func(i uint64, raw []byte, leaf ident.Hash) error {
		rec, err := gamelog.Parse(raw)
		if err != nil {
			return fmt.Errorf("export record %d: %w", i, err)
		}
		e := gamelog.Entry{Index: i, Leaf: leaf}
		if v.sees(&rec) {
			e.Record = &rec
		}
		entries = append(entries, e)
		if rec.Type == gamelog.TypeCommit && !v.Full && v.Side != "" && rec.Get("side") == v.Side {
			p, ok, err := ownHidden(tx, id, i)
			if err != nil {
				return err
			}
			if ok {
				private = append(private, p)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !strings.HasPrefix(v.Name(), "side:") || gamelog.CheckToken(v.Name()) == nil {
		return gamelog.WriteFile(w, v.Name(), entries, private)
	}
	return fmt.Errorf("export: bad side %q", v.Side)
}

func ownHidden(tx *store.Tx, id ident.GameID, commit uint64) (gamelog.Private, bool, error) {
	done, err := store.Secret(tx, id, hiddenKey(commit)+"/disclosed")
	if err != nil || done != nil {
		return gamelog.Private{}, false, err
	}
	v, err := store.Secret(tx, id, hiddenKey(commit))
	if err != nil || len(v) < 32 {
		return gamelog.Private{}, false, err
	}
	return gamelog.Private{Commit: commit, Nonce: ident.Hash(v[:32]), Data: v[32:]}, true, nil
}
