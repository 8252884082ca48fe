package ledger

import (
	"fmt"
	"io"
	"strings"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// View says whose copy of the log to export or read.
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

// sees says whether the view may see a record withheld from others: one marked for a side
// (events, orders and their texts of hidden set-up), or a sealed state (the referee's
// only). After the game's end nothing is withheld any more.
func (v View) sees(r *gamelog.Record, over bool) bool {
	if v.Full || over {
		return true
	}
	if r.Type == gamelog.TypeState && r.Has("sealed") || r.Type == gamelog.TypeSealed && !r.Has("side") {
		return false
	}
	// An orders record is scoped only in v1 (its bare orders hash); v5's team side's record
	// names its side in every view (docs/LOG-FORMAT.md 3).
	scoped := r.Type == gamelog.TypeEvent || r.Type == gamelog.TypeOrdersText || r.Type == gamelog.TypeOrders && r.Has("orders-hash") || r.Type == gamelog.TypeSealed
	side := r.Get("side")
	return !scoped || side == "" || side == v.Side
}

// Read calls fn with every record from index from on as v sees it: a sealed record the view
// may see as the record it withholds, a record it may not see not at all. It is the one
// reading of a log by visibility; the host's reports and lookups use it.
func Read(tx *store.Tx, id ident.GameID, v View, from uint64, fn func(r *gamelog.Record) error) error {
	over, err := isOver(tx, id)
	if err != nil {
		return err
	}
	return store.RecordsFrom(tx, id, from, func(i uint64, raw []byte, _ ident.Hash) error {
		rec, err := gamelog.Parse(raw)
		if err != nil {
			return fmt.Errorf("read record %d: %w", i, err)
		}
		used, err := standingUsed(tx, id, &rec, i)
		if err != nil {
			return err
		}
		if !v.sees(&rec, over) && !used {
			return nil
		}
		if rec.Type == gamelog.TypeSealed {
			inner, _, err := unseal(tx, id, i)
			if err != nil {
				return err
			}
			return fn(inner)
		}
		return fn(&rec)
	})
}

// Last returns the last record of type typ that v sees, or nil. It reads the log backwards
// from its end to that record; only records of that type, or sealed ones, are parsed.
func Last(tx *store.Tx, id ident.GameID, v View, typ string) (*gamelog.Record, error) {
	return lastSeen(tx, id, v, typ)
}

func isOver(tx *store.Tx, id ident.GameID) (bool, error) {
	n, err := store.Len(tx, id)
	if err != nil || n == 0 {
		return false, err
	}
	for i := n; i > 0; i-- { // the end record is followed only by a few reveals, checkpoints, notes
		r, err := store.Record(tx, id, i-1)
		if err != nil {
			return false, err
		}
		switch r.Type {
		case gamelog.TypeEnd:
			return true, nil
		case gamelog.TypeReveal, gamelog.TypeCheckpoint, gamelog.TypeNote, gamelog.TypeDisclose:
			continue
		}
		return false, nil
	}
	return false, nil
}

// Export writes the game's log as v may see it. In a v2 game every record is exported; a
// sealed record the view may see is followed by its content and nonce (an unseal block), and
// the trailer is signed. In a v1 game a record the view may not see is replaced by its leaf
// hash. A side's copy carries its own undisclosed hidden set-up so that it can check the
// commitment.
func Export(tx *store.Tx, id ident.GameID, v View, w io.Writer) error {
	if strings.HasPrefix(v.Name(), "side:") && gamelog.CheckToken(v.Name()) != nil {
		return fmt.Errorf("export: bad side %q", v.Side)
	}
	in, err := readInfo(tx, id)
	if err != nil {
		return err
	}
	over, err := isOver(tx, id)
	if err != nil {
		return err
	}
	f := &gamelog.File{Format: in.format, View: v.Name()}
	err = store.Records(tx, id, func(i uint64, raw []byte, leaf ident.Hash) error {
		rec, err := gamelog.Parse(raw)
		if err != nil {
			return fmt.Errorf("export record %d: %w", i, err)
		}
		e, err := exportEntry(tx, id, in, v, over, i, leaf, &rec)
		if err != nil {
			return err
		}
		f.Entries = append(f.Entries, e)
		if rec.Type == gamelog.TypeCommit && !v.Full && v.Side != "" && rec.Get("side") == v.Side {
			p, ok, err := ownHidden(tx, id, i)
			if err != nil {
				return err
			}
			if ok {
				f.Private = append(f.Private, p)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if in.v2() {
		key, err := store.InstallationKey(tx)
		if err != nil {
			return err
		}
		f.Sign(id, key)
	}
	return gamelog.WriteFile(w, f)
}

func exportEntry(tx *store.Tx, id ident.GameID, in info, v View, over bool, i uint64, leaf ident.Hash, rec *gamelog.Record) (gamelog.Entry, error) {
	e := gamelog.Entry{Index: i, Leaf: leaf, Record: rec}
	switch {
	case !in.v2():
		if !v.sees(rec, false) {
			e.Record = nil
		}
	case rec.Type == gamelog.TypeSealed:
		used, err := standingUsed(tx, id, rec, i)
		if err != nil || !used && !v.sees(rec, over) {
			return e, err
		}
		inner, n, err := unseal(tx, id, i)
		if err != nil {
			return e, err
		}
		e.Inner, e.Nonce = inner, n
	}
	return e, nil
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

// Entries calls fn with every record from index from on as the referee's (full) export holds
// it: the record, and a sealed record's content and nonce. It stops at fn's first error.
func Entries(tx *store.Tx, id ident.GameID, from uint64, fn func(e gamelog.Entry) error) error {
	in, err := readInfo(tx, id)
	if err != nil {
		return err
	}
	return store.RecordsFrom(tx, id, from, func(i uint64, raw []byte, leaf ident.Hash) error {
		rec, err := gamelog.Parse(raw)
		if err != nil {
			return fmt.Errorf("read record %d: %w", i, err)
		}
		e, err := exportEntry(tx, id, in, View{Full: true}, false, i, leaf, &rec)
		if err != nil {
			return err
		}
		return fn(e)
	})
}

// StateHashAt is the state hash record i holds, sealed or not, or nil if it is no state
// record (or cannot be read).
func StateHashAt(tx *store.Tx, id ident.GameID, i uint64) []byte {
	r, err := store.Record(tx, id, i)
	if err != nil {
		return nil
	}
	return stateHashOf(tx, id, &r)
}
