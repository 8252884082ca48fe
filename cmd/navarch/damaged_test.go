package main

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navarch/host"
	"navarch/ledger/ledgertest"
	"navarch/store"
	"navarch/test/racesplit"
)

// damagedSource writes a database of several games (a scripted log, games created by the
// host with their settings and queued welcomes), and returns its bytes, the size of its
// pages in use and the host's game tags.
func damagedSource(t *testing.T) ([]byte, int64, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "navarch.db")
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledgertest.Game(s, ledgertest.Small); err != nil {
		t.Fatal(err)
	}
	h := host.New(s, rulesets, host.Config{Address: "navarch@host.example", Domain: "navarch.host.example"}, slog.New(slog.DiscardHandler))
	var tags []string
	for i := range 24 {
		tag, err := h.CreateGame(host.GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@example.net"},
			Players: []host.PlayerSpec{{ID: "alice", Side: "christian", Address: fmt.Sprintf("a%d@example.org", i), Zone: "UTC"},
				{ID: "bob", Side: "ottoman", Address: fmt.Sprintf("b%d@example.com", i), Zone: "UTC"}}})
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag)
	}
	var used int64
	s.View(func(tx *store.Tx) error { used = tx.Size(); return nil })
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, used, tags
}

// Every read-only command on a damaged database (truncated to half its pages, 64 KB of
// random bytes in the middle, and random blocks elsewhere) reports what it can and never
// panics; check fails it (its problems, or a file too damaged to open). The same commands
// pass on the sound file.
func TestReadOnlyCommandsOnADamagedFile(t *testing.T) {
	racesplit.Long(t) // the commands run on one goroutine: the detector finds nothing
	sound, used, tags := damagedSource(t)
	rng := rand.New(rand.NewPCG(23, 7))
	random := func(data []byte, at int64) []byte {
		d := append([]byte(nil), data...)
		for i := at; i < min(at+64<<10, int64(len(d))); i++ {
			d[i] = byte(rng.Uint32())
		}
		return d
	}
	type damage struct {
		name string
		data []byte
	}
	damages := []damage{
		{"sound", sound},
		{"truncated to half", sound[:len(sound)/2]},
		{"truncated to half its pages", sound[:used/2]},
		{"64 KB random in the middle", random(sound, used/2-32<<10)},
	}
	for i := range 4 {
		at := rng.Int64N(used)
		damages = append(damages, damage{fmt.Sprintf("64 KB random at %d (%d)", at, i), random(sound, at)})
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "navarch.db")
			if err := os.WriteFile(db, d.data, 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(dir, "navarch.json")
			os.WriteFile(cfg, []byte(fmt.Sprintf(`{"database": %q, "address": "navarch@host.example", "domain": "navarch.host.example",
 "imap": {"host": "127.0.0.1", "port": 1, "tls": "none", "username": "n", "password": "p"},
 "smtp": {"host": "127.0.0.1", "port": 2, "tls": "none"}}`, db)), 0o600)
			tag := tags[len(tags)/2]
			commands := [][]string{
				{"check", "-db", db},
				{"game", "list", "-config", cfg},
				{"game", "show", "-config", cfg, tag},
				{"game", "export", "-config", cfg, tag},
				{"game", "mail", "-config", cfg, tag},
				{"parked", "list", "-config", cfg},
				{"render", "-db", db, "-o", filepath.Join(dir, "map.png"), tag},
				{"backup", "-db", db, filepath.Join(dir, "copy.db")},
			}
			for _, args := range commands {
				code, out, errs := navarch(args...)
				said := out + errs
				if strings.Contains(said, "panic") || strings.Contains(said, "goroutine ") || code > 1 {
					t.Errorf("navarch %s: exit %d\n%s", strings.Join(args[:2], " "), code, said)
				}
				if d.name == "sound" && code != 0 {
					t.Errorf("navarch %s on the sound file: exit %d\n%s", strings.Join(args[:2], " "), code, said)
				}
				// Random bytes may fall on free pages only, which no reader reads: check is
				// held to failing a truncated file, and to never panicking on any.
				if args[0] == "check" && strings.HasPrefix(d.name, "truncated") && (code != 1 || !strings.Contains(out, "FAIL") && !strings.Contains(errs, "damaged")) {
					t.Errorf("check passed a damaged file: exit %d\n%s", code, said)
				}
				if testing.Verbose() {
					t.Logf("navarch %s: exit %d: %.300s", strings.Join(args[:2], " "), code, said)
				}
			}
		})
	}
}
