package host

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// BenchmarkHandleCheck is one order mail through the host without the transport: read the
// mail, authenticate, rebuild the game from its log, parse and validate the orders, queue the
// receipt, commit (a CHECK, so that the game stays where it is for the next iteration).
func BenchmarkHandleCheck(b *testing.B) {
	f := newBenchFixture(b)
	f.checkMails(b, "b")
}

// checkMails sends alice's CHECK mails for the benchmark's loop, with the rate limit lifted,
// and fails unless every one was answered.
func (f benchFixture) checkMails(b *testing.B, prefix string) {
	f.mailsFrom(b, "alice@example.org", f.keys["alice@example.org"], prefix, "CHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN")
}

// mailsFrom is checkMails with another sender, key and body (%s: the key).
func (f benchFixture) mailsFrom(b *testing.B, from, key, prefix, body string) {
	f.h.cfg.RateLimit = 1 << 30
	f.outbox()
	i := 0
	for b.Loop() {
		i++
		raw := fmt.Sprintf("From: %s\r\nSubject: [navarch %s]\r\nMessage-ID: <%s%d@example.org>\r\n\r\n", from, f.tag, prefix, i) + fmt.Sprintf(body, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := len(f.outbox()); n != i {
		b.Fatalf("%d mails answered of %d", n, i)
	}
}

type benchFixture struct {
	*fixture
	keys map[string]string
}

func newBenchFixture(b *testing.B) benchFixture {
	f := newFixtureTB(b)
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] != "ref@example.net" {
			keys[m.To[0]] = k[1]
		}
	}
	for who, k := range keys {
		f.send(who, "JOIN\nKEY "+k)
	}
	if len(keys) != 2 || !strings.HasPrefix(f.tag, "lep-") {
		b.Fatalf("fixture: %v", keys)
	}
	return benchFixture{f, keys}
}

// BenchmarkServeLoopback is the daemon's throughput on loopback: b.N order mails (CHECK) put
// in navarch's mailbox on go-imap's memory server, read by the IMAP intake, handled and
// answered through SMTP to a go-smtp sink; it ends when every receipt has arrived.
func BenchmarkServeLoopback(b *testing.B) {
	f := newBenchFixture(b)
	f.h.cfg.RateLimit = 1 << 30
	f.outbox()
	user, out, in, smtpOut := loopback(b)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.h.Serve(ctx, in, smtpOut) }()
	defer func() { cancel(); <-done }()
	key := f.keys["alice@example.org"]
	b.ResetTimer()
	for i := range b.N {
		raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <s%d@example.org>\r\n\r\nCHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN\r\n", f.tag, i, key)
		if _, err := user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Minute); out.count() < b.N; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d receipts after five minutes", out.count(), b.N)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkManyGames is one order mail (CHECK) to the newest of many games in one store file:
// what finding the game costs as the games grow, with the size of the file (each game's welcome
// mails still queued) and the heap.
func BenchmarkManyGames(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 5000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			f := newBenchFixture(b)
			for i := 1; i < n; i++ {
				if _, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
					Players: []PlayerSpec{{"p1", "christian", fmt.Sprintf("c%d@example.org", i), "UTC"}, {"p2", "ottoman", fmt.Sprintf("o%d@example.org", i), "UTC"}}}); err != nil {
					b.Fatal(err)
				}
			}
			f.checkMails(b, "many")
			if st, err := os.Stat(f.s.Path()); err == nil {
				b.ReportMetric(float64(st.Size())/float64(n)/1024, "KiB-file/game")
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap")
		})
	}
}

// BenchmarkLateGame is one mail that needs the game's engine (HELP, which lists the
// sender's own units) later in the full battle (13.1), its sides having answered NONE to 30
// requests: with the engine kept in memory between mails, and without it (every mail
// replays the whole log). Most of the set-up's time is the maps of
// the reports.
func BenchmarkLateGame(b *testing.B) {
	s, err := store.Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return ledgertest.Clock }, Rand: ledgertest.Rand("late"), RateLimit: 1 << 30}, slog.New(slog.DiscardHandler))
	tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "battle-of-lepanto",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		b.Fatal(err)
	}
	f := &fixture{t: b, s: s, h: h, tag: tag}
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil {
			keys[m.To[0]] = k[1]
		}
	}
	for who, k := range keys {
		f.send(who, "JOIN\nKEY "+k)
	}
	asked := ""
	for n := 0; n < 30; {
		var due []string
		for _, m := range f.outbox() {
			if strings.Contains(m.Subject, "orders due") {
				due = append(due, m.To[0])
			}
		}
		if len(due) == 0 {
			break
		}
		for _, who := range due {
			f.send(who, "NONE\nKEY "+keys[who])
			asked, n = who, n+1
		}
	}
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "orders due") {
			asked = m.To[0]
		}
	}
	var size uint64
	s.View(func(tx *store.Tx) error { size, _, err = logHead(tx, store.Games(tx)[0]); return err })
	f.send(asked, "HELP\nKEY "+keys[asked])
	if m := f.outbox(); len(m) != 1 || !strings.Contains(m[0].Text, "Mail commands") {
		b.Fatalf("HELP is not answered: %v", subjects(m))
	}
	for _, cache := range []int{EngineCache, 0} {
		b.Run(fmt.Sprintf("engines=%d", cache), func(b *testing.B) {
			h.engines.max = cache
			f.t = b
			benchFixture{fixture: f}.mailsFrom(b, asked, keys[asked], fmt.Sprintf("late%d-", cache), "HELP\r\nKEY %s\r\n")
			b.ReportMetric(float64(size), "records")
		})
	}
}
