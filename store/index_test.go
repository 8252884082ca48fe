package store

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/test/racesplit"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// TestDue: a game's moment replaces its previous one; Due lists the games at or before now,
// earliest first; a game taken out is gone.
func TestDue(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	a, b, c := ident.GameID{1}, ident.GameID{2}, ident.GameID{3}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, p := range []struct {
			id ident.GameID
			at time.Time
			ok bool
		}{{a, t0.Add(time.Hour), true}, {b, t0, true}, {c, t0.Add(-time.Hour), true},
			{a, t0.Add(-2 * time.Hour), true}, // moved earlier: the old entry goes
			{c, time.Time{}, false},           // out
			{b, t0.Add(time.Minute), true}, {b, t0.Add(time.Minute), true}} {
			if err := PutDue(tx, p.id, p.at, p.ok); err != nil {
				return err
			}
		}
		return nil
	}), "put")
	s.View(func(tx *Tx) error {
		if got := Due(tx, t0); !slices.Equal(got, []ident.GameID{a}) {
			t.Errorf("Due(t0) = %x, want only a", got)
		}
		if got := Due(tx, t0.Add(time.Minute)); !slices.Equal(got, []ident.GameID{a, b}) {
			t.Errorf("Due(t0+1m) = %x, want a, b", got)
		}
		want := map[ident.GameID]time.Time{a: t0.Add(-2 * time.Hour), b: t0.Add(time.Minute)}
		if got := DueIndex(tx); len(got) != len(want) || !got[a].Equal(want[a]) || !got[b].Equal(want[b]) {
			t.Errorf("DueIndex = %v, want %v", got, want)
		}
		return nil
	})
	// The zero time sorts first and is due at once.
	tcheck(t, s.Update(func(tx *Tx) error { return PutDue(tx, c, time.Time{}, true) }), "zero")
	s.View(func(tx *Tx) error {
		if got := Due(tx, t0.Add(-24*time.Hour)); !slices.Equal(got, []ident.GameID{c}) {
			t.Errorf("Due = %x, want c (the zero time)", got)
		}
		return nil
	})
}

// TestPlayerGames: each address finds its own games and no other's, a prefix of an address
// included.
func TestPlayerGames(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	a, b := ident.GameID{1}, ident.GameID{2}
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, p := range []struct {
			addr string
			id   ident.GameID
		}{{"al@x.org", a}, {"al@x.org", b}, {"al@x.org", a}, {"al@x.or", b}, {"bo@x.org", b}} {
			if err := AddPlayerGame(tx, p.addr, p.id); err != nil {
				return err
			}
		}
		return nil
	}), "add")
	s.View(func(tx *Tx) error {
		for addr, want := range map[string][]ident.GameID{"al@x.org": {a, b}, "al@x.or": {b}, "bo@x.org": {b}, "al": nil} {
			if got := PlayerGames(tx, addr); !slices.Equal(got, want) {
				t.Errorf("PlayerGames(%s) = %x, want %x", addr, got, want)
			}
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error { return AddPlayerGame(tx, "a\x00b", a) }), "an address with NUL")
	s.View(func(tx *Tx) error {
		if got := PlayerGames(tx, "a"); got != nil {
			t.Errorf("an address with NUL was indexed: %x", got)
		}
		return nil
	})
}

// TestUpgradeToSchema5: a schema 4 file (each game a nested bucket) is brought to schema 5
// by Open: every game's log, chain, secrets, settings and received mail move to the shared
// buckets and read back as before (Check finds the file sound), the nested buckets go,
// every game is due at once (the host sets its true moment at the first deadline pass) and
// the players' addresses are indexed from the settings; a game without players is still due.
func TestUpgradeToSchema5(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	other := ident.GameID{9}
	var heads []ident.Hash
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := deleteSchema5(tx.tx); err != nil {
			return err
		}
		if err := nestedGame(tx.tx, testGame, `{"tag":"lep-1","players":[{"id":"alice","address":"alice@x.org"},{"id":"bob","address":"bob@x.org"}]}`); err != nil {
			return err
		}
		if err := nestedGame(tx.tx, other, `{"tag":"lep-2"}`); err != nil {
			return err
		}
		g := tx.tx.Bucket(bucketGames).Bucket(testGame[:])
		var head ident.Hash
		for i, text := range []string{"one", "two", "three"} {
			rec, err := note(text).Build(uint64(i))
			if err != nil {
				return err
			}
			leaf := gamelog.Leaf(rec.Raw)
			head = gamelog.NextHead(uint64(i), head, leaf)
			heads = append(heads, head)
			if err := g.Bucket(bucketLog).Put(u64(uint64(i)), rec.Raw); err != nil {
				return err
			}
			if err := g.Bucket(bucketChain).Put(u64(uint64(i)), append(leaf[:], head[:]...)); err != nil {
				return err
			}
		}
		if err := g.Bucket(bucketSecret).Put([]byte("key/alice"), []byte("alicekey")); err != nil {
			return err
		}
		recv, err := g.CreateBucket(bucketReceived)
		if err != nil {
			return err
		}
		for seq := uint64(1); seq <= 2; seq++ {
			if err := recv.Put(u64(seq), []byte(fmt.Sprintf(`{"from":"alice@x.org","subject":"mail %d"}`, seq))); err != nil {
				return err
			}
		}
		if err := tx.tx.Bucket(bucketOutbox).Put(u64(1), []byte("queued before")); err != nil {
			return err
		}
		return tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(4))
	}), "write a schema 4 database")
	s.Close()
	s = open(t, path)
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion || v < 5 {
			t.Errorf("schema %d after the upgrade, want %d", v, SchemaVersion)
		}
		if got := Games(tx); !slices.Equal(got, []ident.GameID{testGame, other}) {
			t.Errorf("games after the upgrade: %x", got)
		}
		if n := tx.tx.Bucket(bucketGames).Stats().KeyN; n != 0 {
			t.Errorf("%d keys left in the nested games bucket", n)
		}
		if n, err := Len(tx, testGame); n != 3 || err != nil {
			t.Errorf("Len = %d, %v", n, err)
		}
		if h, _ := HeadAt(tx, testGame, 3); h != heads[2] {
			t.Error("the head after 3 records moved")
		}
		if r, err := Record(tx, testGame, 1); err != nil || r.Get("text") != "two" {
			t.Errorf("Record(1) = %+v, %v", r, err)
		}
		if k, err := PlayerKey(tx, testGame, "alice"); k != "alicekey" || err != nil {
			t.Errorf("alice's key %q, %v", k, err)
		}
		if v, _ := Settings(tx, testGame); !bytes.Contains(v, []byte("lep-1")) {
			t.Errorf("settings %q", v)
		}
		var subjects []string
		Received(tx, testGame, false, func(m ReceivedMail) error { subjects = append(subjects, fmt.Sprint(m.Seq, m.Subject)); return nil })
		if !slices.Equal(subjects, []string{"1mail 1", "2mail 2"}) {
			t.Errorf("received mail after the upgrade: %q", subjects)
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("the upgraded file is not sound: %v", p)
		}
		if got := Due(tx, time.Unix(0, 0)); len(got) != 2 {
			t.Errorf("games due after the upgrade: %x, want both", got)
		}
		if e, ok := OutboxFirstNow(tx, func(uint64) bool { return false }); !ok || string(e.Mail) != "queued before" {
			t.Errorf("a mail queued before the upgrade is not sent in order: %q, %t", e.Mail, ok)
		}
		if DueStamp(tx) != "" {
			t.Errorf("the upgrade stamped the index %q", DueStamp(tx))
		}
		for _, addr := range []string{"alice@x.org", "bob@x.org"} {
			if got := PlayerGames(tx, addr); !slices.Equal(got, []ident.GameID{testGame}) {
				t.Errorf("PlayerGames(%s) = %x after the upgrade", addr, got)
			}
		}
		return nil
	})
	// The games go on in the new layout: the next mail's number, the next record.
	tcheck(t, s.Update(func(tx *Tx) error {
		if seq, err := AddReceived(tx, testGame, ReceivedMail{Subject: "mail 3"}); seq != 3 || err != nil {
			t.Errorf("the next received mail is number %d, %v", seq, err)
		}
		if _, _, err := Append(tx, testGame, note("four")); err != nil {
			return err
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("after a record more: %v", p)
		}
		return PutDue(tx, testGame, t0, true)
	}), "go on")
	s.View(func(tx *Tx) error {
		if got := Due(tx, t0.Add(-time.Hour)); !slices.Equal(got, []ident.GameID{other}) {
			t.Errorf("Due = %x, want only the other game", got)
		}
		return nil
	})
}

// TestFileFollowsItsPages: past bbolt's first 16 MiB the file grows a MiB at a time, not 16,
// so that it stays within a MiB of the pages in use (64 MiB for 48.6 MiB of pages
// at 10,000 games).
func TestFileFollowsItsPages(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the store's lock is raced by host's Serve tests)
	path := filepath.Join(t.TempDir(), "navarch.db")
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{NoSync: true})
	tcheck(t, err, "open")
	defer s.Close()
	chunk := make([]byte, 256<<10)
	for range 80 { // 20 MiB that do not deflate
		rand.Read(chunk)
		tcheck(t, s.Update(func(tx *Tx) error { _, err := OutboxAdd(tx, chunk); return err }), "add")
	}
	var used int64
	s.View(func(tx *Tx) error { used = Used(tx); return nil })
	st, err := os.Stat(path)
	tcheck(t, err, "stat")
	if used < 20<<20 || st.Size() > used+allocSize+64<<10 { // a few pages of a commit beyond the last growth
		t.Errorf("file of %d bytes for %d bytes of pages", st.Size(), used)
	}
}

// TestFreelistNotSynced: by default bbolt's list of free pages is not written with each
// commit but rebuilt when the file is opened; a file written either way opens the other
// way with its data and its free pages intact (bbolt's own consistency check passes), and
// pages freed are used again rather than the file grown.
func TestFreelistNotSynced(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the store's lock is raced by host's Serve tests)
	path := filepath.Join(t.TempDir(), "navarch.db")
	v := make([]byte, 3000)
	var seqs []uint64
	for round, opts := range []Options{{}, {SyncFreelist: true}, {}, {SyncFreelist: true}} {
		s, err := Open(path, slog.New(slog.DiscardHandler), opts)
		tcheck(t, err, "open")
		if s.db.NoFreelistSync == opts.SyncFreelist {
			t.Errorf("round %d: NoFreelistSync %t with %+v", round, s.db.NoFreelistSync, opts)
		}
		for range 200 {
			rand.Read(v)
			tcheck(t, s.Update(func(tx *Tx) error {
				seq, err := OutboxAdd(tx, v)
				seqs = append(seqs, seq)
				return err
			}), "add")
		}
		tcheck(t, s.Update(func(tx *Tx) error { // half of them sent
			for _, seq := range seqs[len(seqs)-200 : len(seqs)-100] {
				if err := OutboxDone(tx, seq); err != nil {
					return err
				}
			}
			return nil
		}), "done")
		var used int64
		tcheck(t, s.db.View(func(tx *bolt.Tx) error {
			used = tx.Size()
			for err := range tx.Check() {
				return err
			}
			return nil
		}), "bbolt's check")
		s.View(func(tx *Tx) error {
			if n := OutboxLen(tx); n != 100*(round+1) {
				t.Errorf("round %d: %d mails queued, want %d", round, n, 100*(round+1))
			}
			return nil
		})
		if round > 0 && used > 2*int64(100*(round+1))*4096+64<<10 {
			t.Errorf("round %d: %d bytes of pages for %d mails of a page each", round, used, 100*(round+1))
		}
		s.Close()
	}
}
