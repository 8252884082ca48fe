package gamelog_test

import (
	"bytes"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// TestRawHasNoSpareCapacity: a record's Raw is a slice of the caller's bytes ending where the
// record does, so an append to it cannot overwrite the record after it (found by review).
func TestRawHasNoSpareCapacity(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Full: true})
	for _, data := range [][]byte{g.Data, append(g.Data[:len(g.Data):len(g.Data)], "spare"...)[:len(g.Data)]} {
		f, err := gamelog.ParseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range f.Entries {
			if r := e.Record; cap(r.Raw) != len(r.Raw) {
				t.Fatalf("record %d: Raw has %d bytes of spare capacity", e.Index, cap(r.Raw)-len(r.Raw))
			}
			if r := e.Inner; r != nil && cap(r.Raw) != len(r.Raw) {
				t.Fatalf("unsealed record %d: Raw has %d bytes of spare capacity", e.Index, cap(r.Raw)-len(r.Raw))
			}
		}
	}
	buf := []byte("type note\nindex 3\nby referee\ntext hello\n\ntype note\n")
	r, err := gamelog.Parse(buf[:bytes.Index(buf, []byte("\n\n"))+1])
	if err != nil {
		t.Fatal(err)
	}
	if cap(r.Raw) != len(r.Raw) {
		t.Errorf("Parse: Raw has %d bytes of spare capacity", cap(r.Raw)-len(r.Raw))
	}
}
