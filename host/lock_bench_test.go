package host

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/mail"
	"navarch/store"
)

// BenchmarkOrderMailWriteLock is the store's write lock held by an order mail that resolves a
// step and queues two reports with maps (maps are drawn after commit, by the
// outbox), on a store that syncs to disk, beside the floor measured in the same run: a bare
// bbolt commit of the same bytes (ns/bare-commit). Each iteration is a new game whose
// set-up the second player's NONE resolves; making the game is not timed. ns/lock is the time
// inside Handle's write transactions, commit included; ns/handle is all of Handle, which also
// replays the game's log outside the lock when its engine is not kept (here always: a game's
// engine is kept only once a step has been resolved).
func BenchmarkOrderMailWriteLock(b *testing.B) {
	s, err := store.Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example", RateLimit: 1 << 30},
		slog.New(slog.DiscardHandler))
	var locked, handled, bare time.Duration
	var written int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tag, keys := benchGame(b, h, s, i)
		mailTo := func(from, body string, n int) []byte {
			return []byte(fmt.Sprintf("From: %s\r\nSubject: [navarch %s]\r\nMessage-ID: <w%d-%d@example.org>\r\n\r\nKEY %s\r\n%s\r\n", from, tag, i, n, keys[from], body))
		}
		if err := h.Handle(mailTo("alice@example.org", "NONE", 3)); err != nil {
			b.Fatal(err)
		}
		before := outboxBytes(s)
		b.StartTimer()
		start, held := time.Now(), lockHeld(h)
		if err := h.Handle(mailTo("bob@example.com", "NONE", 4)); err != nil {
			b.Fatal(err)
		}
		handled += time.Since(start)
		locked += lockHeld(h) - held
		b.StopTimer()
		n := outboxBytes(s) - before
		if n <= 0 {
			b.Fatal("the order mail queued nothing")
		}
		written += n
		start = time.Now()
		if err := s.Update(func(tx *store.Tx) error {
			id, _ := store.GameByTag(tx, tag)
			return store.PutMeta(tx, id, "bench-bare", make([]byte, n))
		}); err != nil {
			b.Fatal(err)
		}
		bare += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(locked.Nanoseconds())/float64(b.N), "ns/lock")
	b.ReportMetric(float64(handled.Nanoseconds())/float64(b.N), "ns/handle")
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "ns/bare-commit")
	b.ReportMetric(float64(written)/float64(b.N), "outbox-B/op")
}

// benchGame makes a two-player game without referee and has both join; not timed.
func benchGame(b *testing.B, h *Host, s *store.Store, i int) (string, map[string]string) {
	b.Helper()
	tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		b.Fatal(err)
	}
	keys := map[string]string{}
	s.View(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			o, _ := mail.UnmarshalOutgoing(e.Mail)
			if k := keyRE.FindStringSubmatch(o.Text); k != nil && mail.GameTag(o.Subject) == tag {
				keys[o.To[0]] = k[1]
			}
		}
		return nil
	})
	for j, who := range []string{"alice@example.org", "bob@example.com"} {
		raw := fmt.Sprintf("From: %s\r\nSubject: [navarch %s]\r\nMessage-ID: <j%d-%d@example.org>\r\n\r\nJOIN\r\nKEY %s\r\n", who, tag, i, j, keys[who])
		if err := h.Handle([]byte(raw)); err != nil {
			b.Fatal(err)
		}
	}
	return tag, keys
}

// outboxBytes is the size of everything queued.
func outboxBytes(s *store.Store) int {
	n := 0
	s.View(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			n += len(e.Mail)
		}
		return nil
	})
	return n
}

// lockHeld is the time the host's write transactions of Handle have held the lock so far.
func lockHeld(h *Host) time.Duration {
	h.engines.mu.Lock()
	defer h.engines.mu.Unlock()
	return h.engines.held
}
