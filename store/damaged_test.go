package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navarch/ident"
	"navarch/test/racesplit"
)

// damagedSeed is a small database of a few games with logs, metadata and queued mail.
func damagedSeed(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seed.db")
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *Tx) error {
		for g := range 6 {
			id := ident.GameID{byte(g + 1)}
			if err := CreateGame(tx, id); err != nil {
				return err
			}
			for i := range 40 {
				if _, _, err := Append(tx, id, note(fmt.Sprintf("record %d of game %d %s", i, g, strings.Repeat("x", 200)))); err != nil {
					return err
				}
			}
			if err := PutMeta(tx, id, "host", bytes.Repeat([]byte{'m'}, 300)); err != nil {
				return err
			}
			if _, err := OutboxAdd(tx, bytes.Repeat([]byte("a queued mail "), 200)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readAll opens a file read-only and reads everything a read-only tool reads: it must
// return errors for damage, never panic or fault.
func readAll(t testing.TB, path string) {
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{ReadOnly: true, Timeout: 1})
	if err != nil {
		return
	}
	defer s.Close()
	s.View(func(tx *Tx) error {
		Check(tx)
		for _, id := range Games(tx) {
			Len(tx, id)
			Meta(tx, id, "host")
			Records(tx, id, func(uint64, []byte, ident.Hash) error { return nil })
		}
		Outbox(tx)
		Parked(tx)
		OutboxSeqs(tx)
		return nil
	})
	s.Backup(discard{})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A damaged file (truncated, or garbage over its pages) opened read-only gives errors
// wrapping ErrDamaged, never a panic or a fault; Check names the truncation.
func TestDamagedFileReadOnly(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the store's lock is raced by host's Serve tests)
	seed := damagedSeed(t)
	dir := t.TempDir()
	for _, n := range []int{len(seed) / 2, len(seed) / 3, 5 * 4096} {
		path := filepath.Join(dir, fmt.Sprint("cut", n))
		os.WriteFile(path, seed[:n], 0o600)
		readAll(t, path)
		s, err := Open(path, slog.New(slog.DiscardHandler), Options{ReadOnly: true, Timeout: 1})
		if err != nil {
			continue
		}
		var problems []string
		err = s.View(func(tx *Tx) error { problems = Check(tx); return nil })
		s.Close()
		if err == nil && !strings.Contains(strings.Join(problems, "\n"), "truncated") {
			t.Errorf("cut to %d bytes: check says %q", n, problems)
		}
	}
	for at := 2 * 4096; at < len(seed); at += 4096 {
		d := bytes.Clone(seed)
		for i := at; i < min(at+4096, len(d)); i++ {
			d[i] = byte(i*7 + at)
		}
		path := filepath.Join(dir, fmt.Sprint("page", at))
		os.WriteFile(path, d, 0o600)
		readAll(t, path)
	}
}

// FuzzOpenDamaged overwrites a real database's bytes at an offset, or cuts it short, and
// reads it as the read-only tools do: no input may panic or fault.
func FuzzOpenDamaged(f *testing.F) {
	seed := damagedSeed(f)
	f.Add(uint32(len(seed)/2), []byte("garbage in the middle"), false)
	f.Add(uint32(len(seed)/2), []byte{}, true)
	f.Add(uint32(8192), bytes.Repeat([]byte{0xff}, 4096), false)
	f.Add(uint32(4096), binary.BigEndian.AppendUint64(nil, 1<<40), false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, at uint32, data []byte, cut bool) {
		d := bytes.Clone(seed)
		at %= uint32(len(d))
		if cut {
			d = d[:at]
		} else {
			copy(d[at:], data)
		}
		path := filepath.Join(dir, "fuzz.db")
		if err := os.WriteFile(path, d, 0o600); err != nil {
			t.Fatal(err)
		}
		readAll(t, path)
	})
}
