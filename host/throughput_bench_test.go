package host

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ident"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
)

// throughputGames is how many games the throughput benchmark plays at once (the goal
// is ≥ 20 order mails with two maps a second across 100 games).
const throughputGames = 100

// warmRounds is how many steps each game has resolved before the mails measured.
const warmRounds = 30

// BenchmarkOrderMailThroughput is the daemon's throughput of order mails that each resolve an
// activation of the full battle (13.1) and queue two reports with maps, spread over 100
// games some 30 steps into their first turn: b.N rounds of one mail a game, handled one after
// another as the intake hands them over, while the outbox draws the maps and sends every mail
// through SMTP to a go-smtp server on loopback (the daemon's own send loop). The store syncs
// to disk. One round goes before the timer starts, so that each game's engine is kept from
// its last mail, as in a running daemon (the first mail to a game after a restart replays its
// log, outside the write lock).
//
// It reports mails/s handled (committed) and mails/s fully sent (every mail they caused taken
// by the SMTP server, maps drawn), each beside its floor measured in the same run:
// bare-commit-mails/s, one bare bbolt commit of the same bytes a mail queued, one after
// another; png-floor-mails/s, image/png's encoding of the same maps (the PNGs the server
// received, decoded to RGBA) on every core. On a shared machine the rates swing with what the
// process gets of the cores: cpu-ms/mail, the process's CPU time from the first mail handled
// to the last sent a mail, beside png-floor-cpu-ms/mail, the CPU the floor's encoding took a
// mail, are steadier.
//
// The games are played out beforehand on a copy of the store (not timed): the same mails,
// with the bots' orders, replayed into the measured store give the same logs, since order
// mails draw nothing from Config.Rand and the clock is fixed; the benchmark checks that every
// game's log ends with the same head as in the rehearsal.
func BenchmarkOrderMailThroughput(b *testing.B) {
	dir := b.TempDir()
	setup := filepath.Join(dir, "rehearsal.db")
	quiet := slog.New(slog.DiscardHandler)
	cfg := func(cache int) Config {
		return Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example", RateLimit: 1 << 30,
			Now: func() time.Time { return ledgertest.Clock }, Rand: ledgertest.Rand("throughput"), EngineCache: cache}
	}
	s, err := store.Open(setup, quiet, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	games, rounds := throughputGames, warmRounds
	if testing.Short() { // make bench-smoke: that it runs, not what it measures
		games, rounds = 4, 2
	}
	rh := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, cfg(2*games), quiet)
	r := &rehearsal{b: b, s: s, h: rh, keys: map[string]string{}}
	r.start(games)
	r.play(rounds) // the games well into their first turn: logs of a few hundred records
	r.drain()
	s.Close()
	run := filepath.Join(dir, "run.db")
	copyFile(b, setup, run)
	if s, err = store.Open(setup, quiet, store.Options{NoSync: true}); err != nil {
		b.Fatal(err)
	}
	r.s, r.h.s = s, s
	first := r.play(1) // handled before the timer: each game's engine kept, as in a running daemon
	mails := r.play(b.N)
	heads := logHeads(s)
	s.Close()

	rs, err := store.Open(run, quiet, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer rs.Close()
	h := New(rs, []adjudicator.Ruleset{lepanto.Ruleset}, cfg(0), quiet)
	_, out, _, smtpOut := loopback(b)
	ctx, cancel := context.WithCancel(context.Background())
	wake := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	sender, err := h.newOutbox(smtpOut, wake)
	if err != nil {
		b.Fatal(err)
	}
	go func() { defer wg.Done(); sender.Run(ctx) }()
	feed := func(mails []rehearsed) (want int) {
		for _, m := range mails {
			if err := h.Handle(m.raw); err != nil {
				b.Fatal(err)
			}
			want += m.queued
			select {
			case wake <- struct{}{}:
			default:
			}
		}
		return want
	}
	await := func(want int) {
		for deadline := time.Now().Add(10 * time.Minute); out.count() < want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d mails sent after ten minutes", out.count(), want)
			}
		}
	}
	warm := feed(first)
	await(warm)
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime()
	want := warm + feed(mails)
	handled := time.Since(start)
	await(want)
	sent := time.Since(start)
	used := cpuTime() - cpu
	b.StopTimer()
	cancel()
	wg.Wait()

	if got := logHeads(rs); !equalHeads(got, heads) {
		b.Fatal("the measured games' logs differ from the rehearsal's")
	}
	orders, maps := 0, 0
	for _, m := range mails {
		if m.maps > 0 {
			orders++
			maps += m.maps
		}
	}
	pngs := receivedMaps(b, out, want)
	warmMaps := 0
	for _, m := range first {
		warmMaps += m.maps
	}
	pngs = pngs[warmMaps:] // the server took the mails in the order they were queued
	if len(pngs) != maps {
		b.Fatalf("%d maps received, %d drawing orders queued", len(pngs), maps)
	}
	n := float64(orders)
	b.ReportMetric(n/handled.Seconds(), "handled-mails/s")
	b.ReportMetric(n/bareCommits(b, rs, mails).Seconds(), "bare-commit-mails/s")
	b.ReportMetric(n/sent.Seconds(), "sent-mails/s")
	floorCPU := cpuTime()
	b.ReportMetric(n/encodeFloor(b, pngs).Seconds(), "png-floor-mails/s")
	floorCPU = cpuTime() - floorCPU
	b.ReportMetric(float64(used.Milliseconds())/n, "cpu-ms/mail")
	b.ReportMetric(float64(floorCPU.Milliseconds())/n, "png-floor-cpu-ms/mail")
	b.ReportMetric(float64(maps)/n, "maps/mail")
	b.ReportMetric(used.Seconds()/sent.Seconds(), "cores-used")
	b.ReportMetric(float64(rounds+2)+float64(b.N-1)/2, "steps-played")
	b.ReportMetric(float64(len(mails)-orders), "mails-without-maps")
	size := 0
	for _, p := range pngs {
		size += len(p)
	}
	b.ReportMetric(float64(size)/float64(len(pngs))/1024, "KiB/map")
}

// rehearsal plays the games on the set-up store with the bots' orders, keeping the mails.
type rehearsal struct {
	b    *testing.B
	s    *store.Store
	h    *Host
	tags []string
	keys map[string]string // tag and address → key
	seq  int
	last uint64 // the outbox's last mail seen
}

// rehearsed is one order mail: its bytes, the mails it queued and how many of them carry a
// map to draw, and the bytes it queued.
type rehearsed struct {
	raw          []byte
	queued, maps int
	outboxBytes  int
}

// start makes the games, has both players join and answer the secret set-up, and empties the
// outbox; not timed.
func (r *rehearsal) start(games int) {
	for i := range games {
		tag, err := r.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "battle-of-lepanto",
			Players: []PlayerSpec{{"p1", "christian", fmt.Sprintf("c%d@example.org", i), "UTC"}, {"p2", "ottoman", fmt.Sprintf("o%d@example.org", i), "UTC"}}})
		if err != nil {
			r.b.Fatal(err)
		}
		r.tags = append(r.tags, tag)
	}
	r.s.View(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			o, _ := mail.UnmarshalOutgoing(e.Mail)
			if k := keyRE.FindStringSubmatch(o.Text); k != nil {
				r.keys[mail.GameTag(o.Subject)+" "+o.To[0]] = k[1]
			}
		}
		return nil
	})
	for i, tag := range r.tags {
		for _, who := range []string{fmt.Sprintf("c%d@example.org", i), fmt.Sprintf("o%d@example.org", i)} {
			r.send(tag, who, "JOIN")
		}
	}
	for _, tag := range r.tags { // the set-up asks both sides
		r.step(tag)
	}
	r.drain()
}

// play has each game resolve rounds more steps, one step a game in turn.
func (r *rehearsal) play(rounds int) []rehearsed {
	var out []rehearsed
	for range rounds {
		for _, tag := range r.tags {
			out = append(out, r.step(tag)...)
		}
		r.drain()
	}
	return out
}

// step sends the bots' orders of every side the game's open step asks.
func (r *rehearsal) step(tag string) []rehearsed {
	var id ident.GameID
	var g *game
	r.s.View(func(tx *store.Tx) error { id, g, _ = findGame(tx, tag); return nil })
	if g == nil || g.Step == nil {
		r.b.Fatalf("game %s waits for no orders", tag)
	}
	var out []rehearsed
	for _, side := range g.Step.Sides {
		text := r.bot(id).BotOrders(side)
		if text == "" {
			text = "NONE"
		}
		for _, p := range g.sidePlayers(side) {
			m := r.send(tag, p.Address, text)
			for _, o := range r.queued() {
				m.queued++
				m.outboxBytes += len(o.Mail)
				if q, err := mail.UnmarshalOutgoing(o.Mail); err == nil {
					for _, a := range q.Attachments {
						if a.Draw != "" {
							m.maps++
						}
					}
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// bot is the game's engine as the rehearsal's host keeps it (the rehearsal runs alone).
func (r *rehearsal) bot(id ident.GameID) adjudicator.Bot {
	e := r.h.engines
	e.mu.Lock()
	c := e.games[id]
	e.mu.Unlock()
	if c != nil {
		return c.eng.(adjudicator.Bot)
	}
	var eng adjudicator.Game
	if err := r.s.View(func(tx *store.Tx) error {
		var err error
		eng, err = play.Load(tx, id, r.h.rulesets)
		return err
	}); err != nil {
		r.b.Fatal(err)
	}
	return eng.(adjudicator.Bot)
}

func (r *rehearsal) send(tag, from, body string) rehearsed {
	r.seq++
	raw := fmt.Appendf(nil, "From: %s\r\nSubject: [navarch %s]\r\nMessage-ID: <t%d@example.org>\r\n\r\nKEY %s\r\n%s\r\n",
		from, tag, r.seq, r.keys[tag+" "+from], body)
	if err := r.h.Handle(raw); err != nil {
		r.b.Fatal(err)
	}
	return rehearsed{raw: raw}
}

// queued is the mails queued since the last call.
func (r *rehearsal) queued() []store.OutboxEntry {
	var out []store.OutboxEntry
	r.s.View(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, r.last); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			out = append(out, e)
			r.last = e.Seq
		}
		return nil
	})
	return out
}

// drain takes every queued mail out unsent.
func (r *rehearsal) drain() {
	if err := r.s.Update(func(tx *store.Tx) error {
		for e, ok := store.OutboxNext(tx, 0); ok; e, ok = store.OutboxNext(tx, e.Seq) {
			if err := store.OutboxDone(tx, e.Seq); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		r.b.Fatal(err)
	}
}

func copyFile(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		b.Fatal(err)
	}
}

// logHeads is every game's log head.
func logHeads(s *store.Store) map[ident.GameID]ident.Hash {
	out := map[ident.GameID]ident.Hash{}
	s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			_, out[id], _ = logHead(tx, id)
		}
		return nil
	})
	return out
}

func equalHeads(a, b map[ident.GameID]ident.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for id, h := range a {
		if b[id] != h {
			return false
		}
	}
	return true
}

// bareCommits is the time of one bare commit a mail of the bytes it queued, on the measured
// store, one after another.
func bareCommits(b *testing.B, s *store.Store, mails []rehearsed) time.Duration {
	var id ident.GameID
	s.View(func(tx *store.Tx) error { id = store.Games(tx)[0]; return nil })
	var total time.Duration
	for _, m := range mails {
		if m.maps == 0 {
			continue
		}
		start := time.Now()
		if err := s.Update(func(tx *store.Tx) error { return store.PutMeta(tx, id, "bench-bare", make([]byte, m.outboxBytes)) }); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	return total
}

// receivedMaps is the PNG attachments of the mails the SMTP server took; it fails unless
// there are want mails with distinct Message-IDs (none lost, none sent twice).
func receivedMaps(b *testing.B, out *sink, want int) [][]byte {
	out.mu.Lock()
	defer out.mu.Unlock()
	ids := map[string]bool{}
	var pngs [][]byte
	for _, raw := range out.msgs {
		r, err := gomail.CreateReader(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		ids[r.Header.Get("Message-Id")] = true
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if ct, _, _ := p.Header.(interface {
				ContentType() (string, map[string]string, error)
			}).ContentType(); ct == "image/png" {
				data, err := io.ReadAll(p.Body)
				if err != nil {
					b.Fatal(err)
				}
				pngs = append(pngs, data)
			}
		}
	}
	if len(out.msgs) != want || len(ids) != want {
		b.Fatalf("%d mails sent, %d distinct, want %d", len(out.msgs), len(ids), want)
	}
	return pngs
}

// encodeFloor is the wall time image/png takes to encode the maps (decoded to RGBA, not
// timed) at default compression, on one goroutine a core.
func encodeFloor(b *testing.B, pngs [][]byte) time.Duration {
	imgs := make([]*image.RGBA, len(pngs))
	for i, p := range pngs {
		m, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			b.Fatal(err)
		}
		imgs[i] = image.NewRGBA(m.Bounds())
		draw.Draw(imgs[i], m.Bounds(), m, m.Bounds().Min, draw.Src)
	}
	work := make(chan *image.RGBA, len(imgs))
	for _, m := range imgs {
		work <- m
	}
	close(work)
	start := time.Now()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range work {
				if err := png.Encode(io.Discard, m); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
