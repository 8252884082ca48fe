package host

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/store"
)

// growthSizes are the log lengths BenchmarkLogGrowth measures mails at.
var growthSizes = []uint64{1000, 5000, 10000, 20000}

// growthMails is how many order mails it times at each size.
const growthMails = 6

// BenchmarkLogGrowth is what an order mail costs as its game's log grows, in each ruleset: a
// game's log is grown to each of growthSizes records (referee's notes written straight to the
// ledger, not timed: records that change no state, as a long game's checkpoints and notes
// are), then the sides asked answer NONE growthMails times, half of them moving on to the
// next side asked and the others re-sent (each mail records orders, or resolves a step and
// queues the reports), on a store that syncs to disk. At each size it
// reports, per mail, ms/mail (all of Handle) and lock-ms/mail (inside its write
// transactions, commit included), beside bare-ms: a bare bbolt commit of the same bytes the
// mail queued, in the same run; cpu-ms/mail, the process's CPU time a mail took (steadier
// than the wall-clock figures on a shared machine); and cold-ms, one more mail after the engines kept in memory
// were dropped, as after a restart. The log's cost is flat when every figure stays the same
// from the first size to the last.
func BenchmarkLogGrowth(b *testing.B) {
	for _, rs := range []adjudicator.Ruleset{lepanto.Ruleset, medieval.Ruleset, oinavarcoi.Ruleset} {
		b.Run(rs.ID(), func(b *testing.B) {
			g := newGrowth(b, rs)
			for range b.N {
				for _, size := range growthSizes {
					g.growTo(size)
					g.mail(false) // the first mail after the notes: not timed
					var took, locked, bare time.Duration
					cpu := cpuTime()
					for i := range growthMails {
						t, l, n := g.mail(i%2 == 1)
						took, locked = took+t, locked+l
						cpu -= cpuTime()
						bare += g.bare(n)
						cpu += cpuTime()
					}
					cpu = cpuTime() - cpu
					g.h.engines.mu.Lock()
					clear(g.h.engines.games) // as after a restart
					g.h.engines.mu.Unlock()
					cold, _, _ := g.mail(false)
					per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / growthMails }
					b.ReportMetric(float64(cold.Microseconds())/1000, fmt.Sprintf("cold-ms@%d", size))
					b.ReportMetric(per(took), fmt.Sprintf("ms/mail@%d", size))
					b.ReportMetric(per(locked), fmt.Sprintf("lock-ms/mail@%d", size))
					b.ReportMetric(per(cpu), fmt.Sprintf("cpu-ms/mail@%d", size))
					b.ReportMetric(per(bare), fmt.Sprintf("bare-ms@%d", size))
				}
			}
		})
	}
}

// growth is one game of BenchmarkLogGrowth.
type growth struct {
	b    *testing.B
	s    *store.Store
	h    *Host
	tag  string
	keys map[string]string
	due  []string // who the last requests asked
	seq  uint64   // the outbox entries read so far
	n    int
	last []string // the subjects of the mails read last
}

func newGrowth(b *testing.B, rs adjudicator.Ruleset) *growth {
	b.Helper()
	s, err := store.Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	g := &growth{b: b, s: s, keys: map[string]string{}}
	g.h = New(s, []adjudicator.Ruleset{rs}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return ledgertest.Clock }, Rand: ledgertest.Rand("growth"), RateLimit: 1 << 30}, slog.New(slog.DiscardHandler))
	sc := rs.Scenarios()[0]
	if g.tag, err = g.h.CreateGame(GameSpec{Ruleset: rs.ID(), Scenario: sc.ID, Players: []PlayerSpec{
		{"alice", sc.Sides[0], "alice@example.org", "UTC"}, {"bob", sc.Sides[1], "bob@example.com", "UTC"}}}); err != nil {
		b.Fatal(err)
	}
	g.read()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		g.send(who, "JOIN")
	}
	g.read()
	return g
}

// read takes the mails queued since the last read out of the outbox (as the sender would),
// noting the players' keys and who is asked for orders; it returns their bytes.
func (g *growth) read() int {
	g.b.Helper()
	n := 0
	var due []string
	g.last = nil
	err := g.s.Update(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, g.seq); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			g.seq = e.Seq
			n += len(e.Mail)
			o, err := mail.UnmarshalOutgoing(e.Mail)
			if err != nil {
				return err
			}
			if k := keyRE.FindStringSubmatch(o.Text); k != nil && g.keys[o.To[0]] == "" {
				g.keys[o.To[0]] = k[1]
			}
			g.last = append(g.last, o.Subject)
			if strings.Contains(o.Subject, "Your move") {
				due = append(due, o.To[0])
			}
			if err := store.OutboxDone(tx, e.Seq); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		g.b.Fatal(err)
	}
	if len(due) > 0 {
		g.due = due
	}
	return n
}

func (g *growth) send(from, body string) {
	g.b.Helper()
	g.n++
	raw := fmt.Sprintf("From: %s\r\nTo: navarch@host.example\r\nSubject: Re: [navarch %s]\r\nMessage-ID: <g%d@example.org>\r\n\r\n%s\r\nKEY %s\r\n",
		from, g.tag, g.n, body, g.keys[from])
	if err := g.h.Handle([]byte(raw)); err != nil {
		g.b.Fatalf("Handle: %v", err)
	}
}

// mail has the first side asked answer NONE: the time Handle took, the write lock it held and
// the bytes it queued. Unless advance, the side is asked again (it re-sends its orders, as a
// player who changes his mind does; the step resolves only when it was the last side asked).
func (g *growth) mail(advance bool) (took, locked time.Duration, queued int) {
	g.b.Helper()
	if len(g.due) == 0 {
		g.b.Fatalf("nobody is asked for orders; the last mails: %q", g.last)
	}
	who := g.due[0]
	if advance {
		g.due = g.due[1:]
	}
	start, held := time.Now(), lockHeld(g.h)
	g.send(who, "NONE")
	took, locked = time.Since(start), lockHeld(g.h)-held
	return took, locked, g.read()
}

// bare is a bare bbolt commit of n bytes.
func (g *growth) bare(n int) time.Duration {
	g.b.Helper()
	start := time.Now()
	if err := g.s.Update(func(tx *store.Tx) error {
		id, _ := store.GameByTag(tx, g.tag)
		return store.PutMeta(tx, id, "bench-bare", make([]byte, n))
	}); err != nil {
		g.b.Fatal(err)
	}
	return time.Since(start)
}

// growTo writes referee's notes to the game's log until it holds size records.
func (g *growth) growTo(size uint64) {
	g.b.Helper()
	for done := false; !done; {
		err := g.s.Update(func(tx *store.Tx) error {
			id, _ := store.GameByTag(tx, g.tag)
			n, err := store.Len(tx, id)
			for i := 0; err == nil && n < size && i < 2000; i++ {
				err = ledger.Note(tx, id, "referee", fmt.Sprintf("note %d of a long game", n))
				n++
			}
			done = n >= size
			return err
		})
		if err != nil {
			g.b.Fatal(err)
		}
	}
}
