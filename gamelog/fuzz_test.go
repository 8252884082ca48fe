package gamelog

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzParse: no input panics, a record the good path (scanOne) accepts is the one the careful
// parse gives, and any record Parse accepts is exactly what the builder writes for its
// fields (the canonical form is unique).
func FuzzParse(f *testing.F) {
	f.Add([]byte("type state\nindex 7\nturn 1\nactivation 2\nstate-hash 0000000000000000000000000000000000000000000000000000000000000000\n"))
	f.Add([]byte("type note\nindex 3\nby referee\ntext paused until 2026-12-01\ntext second line\n"))
	f.Add([]byte("type roll\nindex 9\nturn 1\nactivation 0\nseq 0\nlabel draw\ndice 1d3\nvalues 2\nas draw\nitems A B C\nshown B\n"))
	f.Add([]byte("type join\nindex 2\nplayer bob\nentropy\nreceived none\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		careful, cerr := parseCareful(bytes.Clone(raw))
		if fast, ok := scanOne(bytes.Clone(raw)); ok && (cerr != nil || !reflect.DeepEqual(fast, careful)) {
			t.Fatalf("the good path reads %q as %+v; the careful one gives %+v, %v", raw, fast, careful, cerr)
		}
		rec, err := Parse(raw)
		if err != nil {
			return
		}
		b := New(rec.Type)
		for _, fl := range rec.Fields() {
			b.Add(fl.Key, fl.Value)
		}
		again, err := b.Build(rec.Index)
		if err != nil {
			t.Fatalf("rebuild of an accepted record fails: %v", err)
		}
		if !bytes.Equal(again.Raw, raw) {
			t.Fatalf("two forms of one record:\n%q\n%q", raw, again.Raw)
		}
	})
}

// FuzzParseBlocks: checkpoint blocks from arbitrary mail never panic.
func FuzzParseBlocks(f *testing.F) {
	f.Add([]byte(Checkpoint{Size: 1}.Block()))
	f.Add([]byte("> " + BlockBegin + "\n> game 00\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		cs, err := ParseBlocks(text)
		if err == nil {
			for _, c := range cs {
				c.Valid(nil)
			}
		}
	})
}
