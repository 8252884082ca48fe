package host

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/adjudicator/lepanto"
	"navarch/beacon"
	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// beaconFixture is newFixture's game on an installation configured with a local beacon
// (a relay on loopback with its own key, on the fixture's clock).
func beaconFixture(t *testing.T) (*fixture, *beacontest.Beacon) {
	t.Helper()
	f, b := beaconHost(t, lepanto.Ruleset)
	var err error
	f.tag, err = f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@example.net"},
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		t.Fatal(err)
	}
	return f, b
}

// TestBeaconGameWaitsForItsRound: in a beacon game the step whose inputs the set-up orders
// complete names its round, mails its players the checkpoint that proves it, and waits: no
// report before the round is published, none while the relay is down (the step is counted
// waiting), and the step goes on once the round is fetched; the log verifies with the
// beacon's key, every step keyed by its round, and the notice mail proves its step.
func TestBeaconGameWaitsForItsRound(t *testing.T) {
	f, b := beaconFixture(t)
	f.each()
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNONE")
	mails := f.outbox()
	notice := find(mails, "bob@example.com", "accepted") // his orders completed the step: his receipt names the round
	if notice == nil || !strings.Contains(notice.Text, "wait for round") || !strings.Contains(notice.Text, "BEGIN NAVARCH CHECKPOINT") {
		t.Fatalf("no receipt naming the round with a checkpoint: %v", subjects(mails))
	}
	if n := find(mails, "alice@example.org", "notice"); n == nil || !strings.Contains(n.Text, "wait for round") {
		t.Fatalf("no notice of the round to alice, whose orders came first: %v", subjects(mails))
	}
	if find(mails, "bob@example.com", "notice") != nil {
		t.Errorf("bob gets a notice besides his receipt: %v", subjects(mails))
	}
	if find(mails, "bob@example.com", "report") != nil {
		t.Fatalf("a report before the round: %v", subjects(mails))
	}
	ctx := context.Background()
	if err := f.h.BeaconPass(ctx); err != nil || len(f.outbox()) != 0 || f.h.BeaconWaiting() != 0 {
		t.Fatalf("a pass before the round: %v, %d waiting for a round due", err, f.h.BeaconWaiting())
	}
	f.now = f.now.Add(time.Hour)
	// The relay down: the step keeps waiting, and says so.
	b.SetDown(true)
	if err := f.h.BeaconPass(ctx); err != nil || len(f.outbox()) != 0 || f.h.BeaconWaiting() != 1 {
		t.Fatalf("a pass with the relay down: %v, %d waiting", err, f.h.BeaconWaiting())
	}
	if fig, err := f.h.Figures(); err != nil || fig.BeaconWaiting != 1 {
		t.Errorf("figures with the relay down: %+v %v", fig, err)
	}
	b.SetDown(false)
	var reported bool
	for i := 0; i < 20 && !reported; i++ { // each automatic step waits for its own round
		if err := f.h.BeaconPass(ctx); err != nil {
			t.Fatal(err)
		}
		reported = find(f.outbox(), "bob@example.com", "report") != nil
		f.now = f.now.Add(10 * time.Minute)
	}
	if !reported || f.h.BeaconWaiting() != 0 {
		t.Fatalf("no report after the rounds came (%d waiting)", f.h.BeaconWaiting())
	}
	var data []byte
	f.s.View(func(tx *store.Tx) error {
		var err error
		data, err = exportData(tx, store.Games(tx)[0])
		return err
	})
	file, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	cks, err := gamelog.ParseBlocks([]byte(notice.Text))
	if err != nil || len(cks) != 1 {
		t.Fatalf("the notice's checkpoints: %v %v", cks, err)
	}
	for i := range cks { // the notice reached bob as soon as it was sent
		cks[i].Mailed = time.Date(2026, 12, 1, 9, 0, 30, 0, time.UTC)
	}
	rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true, BeaconKey: b.Chain.Key, Checkpoints: cks})
	if !rep.OK() || rep.BeaconSteps < 1 || rep.BeaconProven != 1 {
		t.Fatalf("verify: %v; %d beacon steps, %d proven", rep.Failure, rep.BeaconSteps, rep.BeaconProven)
	}
	if file.Format != gamelog.FormatV5 || gamelog.BeaconOf(file.Entries[0].Record) == nil {
		t.Errorf("format %s, beacon %v", file.Format, gamelog.BeaconOf(file.Entries[0].Record))
	}
}

// TestBeaconRoundKept: a round fetched once is kept in the store and served from there (the
// relay down), verified again; a kept round that does not verify is fetched anew.
func TestBeaconRoundKept(t *testing.T) {
	f, b := beaconFixture(t)
	f.now = f.now.Add(time.Hour)
	ctx := context.Background()
	c := b.Chain
	r, err := f.h.round(ctx, &c, 42)
	if err != nil || c.Verify(r) != nil {
		t.Fatalf("round 42: %v", err)
	}
	b.SetDown(true)
	if again, err := f.h.round(ctx, &c, 42); err != nil || string(again.Signature) != string(r.Signature) {
		t.Errorf("round 42 from the store, the relay down: %v", err)
	}
	f.s.Update(func(tx *store.Tx) error { return store.PutRound(tx, c.Hash, 43, []byte("not a signature")) })
	if _, err := f.h.round(ctx, &c, 43); err == nil {
		t.Error("a kept round that does not verify is used")
	}
	b.SetDown(false)
	if r, err := f.h.round(ctx, &c, 43); err != nil || c.Verify(r) != nil {
		t.Errorf("round 43 fetched anew: %v", err)
	}
}

// TestBeaconDeadlineWaitsOnce: at the deadline the side that sent nothing gets the default
// and one late notice; the step then waits for its round, and the deadline passes that follow
// before the round comes tell nobody again.
func TestBeaconDeadlineWaitsOnce(t *testing.T) {
	f, _ := beaconFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.outbox()
	f.now = f.now.Add(4 * 24 * time.Hour) // past the deadline: bob sent nothing
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	first := f.outbox()
	if find(first, "bob@example.com", "notice") == nil {
		t.Fatalf("no notice of the round to bob at the deadline: %v", subjects(first))
	}
	for i := 0; i < 3; i++ {
		f.now = f.now.Add(time.Second)
		if err := f.h.Tick(); err != nil {
			t.Fatal(err)
		}
		if again := f.outbox(); len(again) != 0 {
			t.Fatalf("pass %d after the deadline, the round not yet out: %v", i, subjects(again))
		}
	}
}

// TestBeaconPausedWaits: a round that comes while the game is paused is written, and the
// step waits for RESUME to be resolved, automatic steps after it included; the log verifies.
func TestBeaconPausedWaits(t *testing.T) {
	f, b := beaconFixture(t)
	f.each()
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNONE")
	f.ref("PAUSE")
	f.outbox()
	f.now = f.now.Add(time.Hour)
	ctx := context.Background()
	if err := f.h.BeaconPass(ctx); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "bob@example.com", "report"); m != nil {
		t.Fatal("a step resolved while the game is paused")
	}
	f.ref("RESUME")
	reported := find(f.outbox(), "bob@example.com", "report") != nil
	for i := 0; i < 20 && !reported; i++ {
		f.now = f.now.Add(10 * time.Minute)
		if err := f.h.BeaconPass(ctx); err != nil {
			t.Fatal(err)
		}
		reported = find(f.outbox(), "bob@example.com", "report") != nil
	}
	if !reported {
		t.Fatal("no report after RESUME")
	}
	f.s.View(func(tx *store.Tx) error {
		data, err := exportData(tx, store.Games(tx)[0])
		if err != nil {
			t.Fatal(err)
		}
		file, err := gamelog.ParseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true, BeaconKey: b.Chain.Key}); !rep.OK() || rep.BeaconSteps < 1 {
			t.Errorf("verify: %v, %d beacon steps", rep.Failure, rep.BeaconSteps)
		}
		return nil
	})
}

// TestBeaconEndgameWhileWaiting: a referee's ENDGAME while a step waits for its round ends the
// game; the round that comes after is not written, and the log verifies (found by the demo
// under the race detector: a beacon record after the end).
func TestBeaconEndgameWhileWaiting(t *testing.T) {
	f, b := beaconFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNONE")
	f.ref("ENDGAME the players agreed a draw")
	f.now = f.now.Add(time.Hour)
	if err := f.h.BeaconPass(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.s.View(func(tx *store.Tx) error {
		data, err := exportData(tx, store.Games(tx)[0])
		if err != nil {
			t.Fatal(err)
		}
		file, err := gamelog.ParseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true, BeaconKey: b.Chain.Key}); !rep.OK() {
			t.Errorf("verify: %v", rep.Failure)
		}
		return nil
	})
}

// TestBeaconRelayBehind: a relay that does not serve a round yet just after its time (drand's
// lag a second or so) is no failure: the step is not counted waiting, and a pass later
// fetches it; past the grace it is counted.
func TestBeaconRelayBehind(t *testing.T) {
	f, b := beaconFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNONE")
	f.outbox()
	var round uint64
	f.s.View(func(tx *store.Tx) error { round, _, _, _ = ledger.Named(tx, store.Games(tx)[0]); return nil })
	var mu sync.Mutex // the relay's clock, a little behind; its server reads it
	relayNow := b.Chain.Time(round).Add(-time.Second)
	lag := beacontest.New("host", b.Chain.Genesis, b.Chain.Period, func() time.Time { mu.Lock(); defer mu.Unlock(); return relayNow })
	url, stop := lag.Server()
	defer stop()
	f.h.cfg.Beacon.Client.Relays = []string{url}
	ctx := context.Background()
	f.now = b.Chain.Time(round).Add(time.Second)
	if err := f.h.BeaconPass(ctx); err != nil || f.h.BeaconWaiting() != 0 || find(f.outbox(), "bob@example.com", "report") != nil {
		t.Fatalf("a relay a moment behind: %v, %d waiting", err, f.h.BeaconWaiting())
	}
	f.now = b.Chain.Time(round).Add(time.Minute)
	if err := f.h.BeaconPass(ctx); err != nil || f.h.BeaconWaiting() != 1 {
		t.Fatalf("a relay a minute behind: %v, %d waiting", err, f.h.BeaconWaiting())
	}
	mu.Lock()
	relayNow = f.now
	mu.Unlock()
	if err := f.h.BeaconPass(ctx); err != nil || f.h.BeaconWaiting() != 0 {
		t.Fatalf("the relay caught up: %v, %d waiting", err, f.h.BeaconWaiting())
	}
}

// TestBeaconTeamGame: a v5 team game keyed by a beacon: each team side's orders record is
// followed by its sender record, then the step's round; every copy verifies with the
// beacon's key (the other side's counting its records only) and replays.
func TestBeaconTeamGame(t *testing.T) {
	f, b := beaconHost(t, duel.Ruleset)
	spec := GameSpec{Ruleset: "duel", Scenario: "short", Players: []PlayerSpec{
		{"alice", "red", "alice@example.org", "UTC"}, {"bob", "red", "bob@example.org", "UTC"},
		{"carol", "blue", "carol@example.org", "UTC"}, {"dave", "blue", "dave@example.org", "UTC"}},
		Commands: map[string][]string{"alice": {"SHIP"}, "dave": {"SHIP"}}}
	var err error
	if f.tag, err = f.h.CreateGame(spec); err != nil {
		t.Fatal(err)
	}
	keys := playerKeys(f.outbox())
	for _, p := range spec.Players {
		f.send(p.Address, "JOIN\nKEY "+keys[p.Address])
	}
	f.send("alice@example.org", "FIRE\nKEY "+keys["alice@example.org"])
	f.send("dave@example.org", "FIRE\nKEY "+keys["dave@example.org"])
	f.outbox()
	reported := false
	for i := 0; i < 20 && !reported; i++ {
		f.now = f.now.Add(10 * time.Minute)
		if err := f.h.BeaconPass(context.Background()); err != nil {
			t.Fatal(err)
		}
		reported = find(f.outbox(), "alice@example.org", "your move") != nil // the next step
	}
	if !reported {
		t.Fatal("the step did not resolve after its round came")
	}
	for _, side := range []string{"", "red", "blue"} {
		var buf bytes.Buffer
		if err := f.h.Export(&buf, f.tag, side); err != nil {
			t.Fatal(err)
		}
		file, err := gamelog.ParseFile(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true, BeaconKey: b.Chain.Key})
		if !rep.OK() || rep.BeaconSteps < 1 {
			t.Fatalf("%q: verify: %v (%d beacon steps)", side, rep.Failure, rep.BeaconSteps)
		}
		if _, err := play.Replay(file, f.h.rulesets); err != nil {
			t.Errorf("%q: replay: %v", side, err)
		}
		teams := 0
		for i, e := range file.Entries {
			if r := e.Record; r.Type == gamelog.TypeOrders && !r.Has("player") {
				teams++
				if n := file.Entries[i+1].Record; n.Type != gamelog.TypeSealed || n.Get("what") != gamelog.TypeSender {
					t.Errorf("%q: orders record %d of side %s not followed by its sender record", side, i, r.Get("side"))
				}
			}
		}
		if teams < 2 {
			t.Errorf("%q: %d orders records of team sides, want both sides'", side, teams)
		}
	}
}

// beaconHost is a fixture without a game: a host of ruleset on an installation configured
// with a local beacon (a relay on loopback with its own key, on the fixture's clock).
func beaconHost(t *testing.T, ruleset adjudicator.Ruleset) (*fixture, *beacontest.Beacon) {
	t.Helper()
	f := bareHostFixture(t)
	s := f.s
	b := beacontest.New("host", f.now.Add(-time.Hour), 3*time.Second, func() time.Time { return f.now })
	url, stop := b.Server()
	t.Cleanup(stop)
	f.h = New(s, []adjudicator.Ruleset{ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name()),
		Beacon: &BeaconConfig{Client: &beacon.Client{Chain: b.Chain, Relays: []string{url}}}}, slog.New(slog.DiscardHandler))
	return f, b
}
