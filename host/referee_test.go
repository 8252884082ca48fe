package host

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"navarch/mail"
	"navarch/store"
)

func started(t *testing.T) (*fixture, map[string]string) {
	t.Helper()
	return startedAs(t, true)
}

// startedAs is started with the players mailed every step's report (each, REPORTS EACH:
// the tests of what a step's mail says) or at the moments that need them (the default).
func startedAs(t *testing.T, each bool) (*fixture, map[string]string) {
	t.Helper()
	f := newFixture(t)
	if each {
		f.each()
	}
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	return f, keys
}

// playerKeys are the players' keys from their welcome mails, by address (the referee's left
// out).
func playerKeys(mails []mail.Outgoing) map[string]string {
	keys := map[string]string{}
	for _, m := range mails {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] != "ref@example.net" {
			keys[m.To[0]] = k[1]
		}
	}
	return keys
}

func (f *fixture) deadline() time.Time {
	f.t.Helper()
	var d time.Time
	f.s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, store.Games(tx)[0])
		d = g.Step.Deadline
		return nil
	})
	return d
}

// TestRefereeCommands: extend, pause and resume move the deadline and are announced to
// everyone; a player cannot use them.
func TestRefereeCommands(t *testing.T) {
	f, keys := started(t)
	d0 := f.deadline()
	f.send("alice@example.org", "EXTEND 24\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "referee's command") {
		t.Error("a player extended the deadline")
	}
	f.ref("EXTEND 24")
	mails := f.outbox()
	if len(mails) != 3 || find(mails, "bob@example.com", "announcement") == nil || !f.deadline().Equal(d0.Add(24*time.Hour)) {
		t.Errorf("extend: %v, deadline %v", subjects(mails), f.deadline())
	}
	f.ref("EXTEND 1000")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "from 1 to 168") {
		t.Error("an extension over the cap was not refused")
	}
	// Each announcement of a moved deadline states it in the recipient's zone.
	inZone := func(mails []mail.Outgoing, what string) {
		t.Helper()
		utc := f.deadline().UTC().Format("Mon 2 Jan 2006 15:04 UTC")
		rome := f.deadline().In(must(time.LoadLocation("Europe/Rome"))).Format("15:04")
		ny := f.deadline().In(must(time.LoadLocation("America/New_York"))).Format("15:04")
		a, b := find(mails, "alice@example.org", "announcement"), find(mails, "bob@example.com", "announcement")
		if a == nil || b == nil || !strings.Contains(flat(a.Text), utc) || !strings.Contains(a.Text, rome+" ") || !strings.Contains(a.Text, "Europe/Rome") ||
			!strings.Contains(flat(b.Text), utc) || !strings.Contains(b.Text, ny+" ") || !strings.Contains(b.Text, "America/New_York") {
			t.Errorf("%s: the new deadline %s is not announced in each player's zone:\n%+v\n%+v", what, utc, a, b)
		}
	}
	inZone(mails, "EXTEND")
	f.ref("PAUSE 48")
	f.now = f.now.Add(10 * time.Hour)
	f.outbox()
	f.ref("RESUME")
	if got, want := f.deadline(), d0.Add(34*time.Hour); !got.Equal(want) {
		t.Errorf("after a 10-hour pause the deadline is %v, want %v", got, want)
	}
	inZone(f.outbox(), "RESUME")
	f.ref("ENDGAME the players agreed a draw")
	mails = f.outbox()
	if m := find(mails, "alice@example.org", "game over"); m == nil || len(m.Attachments) != 3 || m.Attachments[0].ContentType != "image/png" || m.Attachments[2].Name != "navarch-verify.html" || !strings.Contains(m.Text, "agreed a draw") {
		t.Errorf("end by the referee: %v", subjects(mails))
	}
	f.checkLog()
}

func TestAbsenceAndRate(t *testing.T) {
	f, keys := started(t)
	d0 := f.deadline()
	away := d0.Add(-24 * time.Hour).Format("2006-01-02")
	back := d0.Add(48 * time.Hour).Format("2006-01-02")
	f.send("bob@example.com", fmt.Sprintf("ABSENT %s %s\nKEY %s", away, back, keys["bob@example.com"]))
	if find(f.outbox(), "ref@example.net", "announcement") == nil {
		t.Fatal("the absence was not announced")
	}
	f.now = d0.Add(time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	mails := f.outbox()
	if find(mails, "bob@example.com", "deadline passed") != nil || !f.deadline().After(d0.Add(47*time.Hour)) {
		t.Errorf("a deadline passed while bob was away: %v", f.deadline())
	}
	// Everyone is told the new deadline, each in his own zone (alice in Europe/Rome).
	want := f.deadline().UTC().Format("Mon 2 Jan 2006 15:04 UTC")
	if m := find(mails, "alice@example.org", "announcement"); m == nil || !strings.Contains(flat(m.Text), "waits for the return of bob (ottoman)") ||
		!strings.Contains(flat(m.Text), want) || !strings.Contains(m.Text, "Europe/Rome") {
		t.Errorf("the moved deadline (%s) is not announced to alice in her zone: %+v", want, m)
	}
	if m := find(mails, "bob@example.com", "announcement"); m == nil || !strings.Contains(flat(m.Text), want) {
		t.Errorf("the moved deadline is not announced to bob: %+v", m)
	}
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if got := f.outbox(); len(got) != 0 {
		t.Errorf("the next pass announces again: %v", subjects(got))
	}
	for i := 0; i < RateLimit+5; i++ {
		f.send("alice@example.org", "HELP\nKEY "+keys["alice@example.org"])
	}
	mails = f.outbox()
	if n := len(mails); n != RateLimit+1 || !strings.Contains(flat(mails[n-1].Text), "more than 30 mails to game") {
		t.Errorf("%d answers to one sender in an hour, want %d and a last one telling her once: %v", n, RateLimit+1, subjects(mails))
	}
}

// TestForgedFloodLeavesOrders: thirty and more mails forged "from" bob
// (without his key) are answered at most RateLimit times, and then bob's real orders are
// accepted and answered, and the game goes on.
func TestForgedFloodLeavesOrders(t *testing.T) {
	f, keys := started(t)
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nNONE")
	f.outbox()
	for i := 0; i < RateLimit+10; i++ {
		f.send("bob@example.com", "NONE")
	}
	if n := len(f.outbox()); n != RateLimit {
		t.Errorf("%d answers to a forged flood, want %d", n, RateLimit)
	}
	var kept strings.Builder
	if err := f.h.Mails(&kept, f.tag, 0); err != nil {
		t.Fatal(err)
	}
	body, drops, _ := strings.Cut(kept.String(), "\ndropped ")
	if n := strings.Count(body, "bob@example.com"); n != 1+RateLimit {
		t.Errorf("the game keeps %d of bob's mails, want his JOIN and %d of the flood", n, RateLimit)
	}
	if n := strings.Count(drops, "bob@example.com") + strings.Count(drops, "rate: more than"); n != 2*10 {
		t.Errorf("the 10 mails of the flood over the limit are not listed as dropped for the rate:\n%s", drops)
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	mails := f.outbox()
	if find(mails, "bob@example.com", "orders accepted") == nil || find(mails, "alice@example.org", "report") == nil {
		t.Errorf("bob's real orders after a forged flood: %v", subjects(mails))
	}
	// Past the limit of his own (his JOIN counted, his orders not: the game asked for them),
	// bob's HELP mails are told once.
	for i := 0; i < RateLimit+3; i++ {
		f.send("bob@example.com", "HELP\nKEY "+keys["bob@example.com"])
	}
	mails = f.outbox()
	if n := len(mails); n != RateLimit || !strings.Contains(flat(mails[n-1].Text), "not applied and not answered") {
		t.Errorf("bob over his own limit: %d answers", n)
	}
}

// TestPauseExpires: a pause ends by itself at its expiry, moving the deadline on.
func TestPauseExpires(t *testing.T) {
	f, _ := started(t)
	d0 := f.deadline()
	f.ref("PAUSE 10")
	f.outbox()
	f.now = f.now.Add(11 * time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if got := f.deadline(); !got.Equal(d0.Add(10 * time.Hour)) {
		t.Errorf("after a 10-hour pause expired the deadline is %v, want %v", got, d0.Add(10*time.Hour))
	}
}

// TestOperate: the operator's pause moves nothing until resumed, is announced to every
// player and referee, and a refused command queues no mail.
func TestOperate(t *testing.T) {
	f, _ := started(t)
	before := f.deadline()
	text, err := f.h.Operate(f.tag, "PAUSE", []string{"10"})
	if err != nil || !strings.Contains(text, "by itself after 10 hours") {
		t.Fatalf("pause: %q %v", text, err)
	}
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com", "ref@example.net"} {
		if m := find(mails, who, "announcement"); m == nil || !strings.Contains(m.Text, "the operator") {
			t.Errorf("%s: no announcement naming the operator in %v", who, subjects(mails))
		}
	}
	f.now = f.now.Add(4 * time.Hour)
	if _, err := f.h.Operate(f.tag, "RESUME", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.deadline(); !got.Equal(before.Add(4 * time.Hour)) {
		t.Errorf("after a 4-hour pause the deadline is %v, want %v", got, before.Add(4*time.Hour))
	}
	f.outbox()
	if _, err := f.h.Operate(f.tag, "EXTEND", []string{"1000"}); err == nil || len(f.outbox()) != 0 {
		t.Errorf("an extension beyond the cap: %v, or mail was queued", err)
	}
	if _, err := f.h.Operate("xyz-0000", "PAUSE", nil); err == nil {
		t.Error("an unknown game was paused")
	}
}

// TestReplace: the referee hands bob's side to carol; carol gets a welcome with a new key and
// the game's commitment, everyone is told, bob's address no longer counts and carol's orders
// do; mistakes in the command change nothing.
func TestReplace(t *testing.T) {
	f, keys := started(t)
	for _, bad := range []string{"REPLACE bob", "REPLACE zed carol@example.net", "REPLACE bob not-an-address", "REPLACE bob alice@example.org",
		"REPLACE bob carol@example.net Mars/Olympus"} {
		f.ref(bad)
		if mails := f.outbox(); len(mails) != 1 || find(mails, "ref@example.net", "notice") == nil {
			t.Errorf("%s: %v", bad, subjects(mails))
		}
	}
	f.ref("REPLACE bob Carol@Example.net Asia/Tokyo")
	mails := f.outbox()
	w := find(mails, "carol@example.net", "you take over ottoman")
	if w == nil || !strings.Contains(w.Text, "commitment C") || !strings.Contains(w.Text, "BEGIN NAVARCH CHECKPOINT") {
		t.Fatalf("no welcome for carol with the commitment and checkpoint: %v", subjects(mails))
	}
	for _, who := range []string{"alice@example.org", "carol@example.net", "ref@example.net"} {
		if m := find(mails, who, "announcement"); m == nil || !strings.Contains(flat(m.Text), "bob (ottoman) is now played from carol@example.net instead of bob@example.com") {
			t.Errorf("%s was not told of the replacement", who)
		}
	}
	if m := find(mails, "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, "You no longer play bob (ottoman)") ||
		!strings.HasPrefix(strings.TrimSpace(m.Text), "Hello,") {
		t.Errorf("the old address was not told, or not greeted as a former player: %+v", m)
	}
	carol := keyRE.FindStringSubmatch(w.Text)[1]
	if carol == keys["bob@example.com"] {
		t.Error("the new player got the old key")
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", ""); m == nil || !strings.Contains(m.Text, "not a player") || strings.Contains(m.Text, "Dear referee") {
		t.Errorf("the replaced address still counts: %+v", m)
	}
	f.send("carol@example.net", "NONE\nKEY "+carol)
	if m := find(f.outbox(), "carol@example.net", "orders accepted"); m == nil || !strings.Contains(m.Text, "Dear Carol (ottoman)") || !strings.Contains(m.HTML, "Asia/Tokyo") {
		t.Errorf("carol's orders for bob's side: %+v", m)
	}
	f.checkLog()
}

// TestForgedReferee: a mail with the referee's From but without the
// referee's key changes nothing and is not answered with anything secret; the referee is
// told. A forged REPLACE does not hand bob's side to mallory.
func TestForgedReferee(t *testing.T) {
	f, keys := started(t)
	for _, body := range []string{"REPLACE bob mallory@evil.example", "REPLACE bob mallory@evil.example\nKEY " + keys["bob@example.com"],
		"LOG", "ENDGAME mallory wins"} {
		f.send("ref@example.net", body)
		mails := f.outbox()
		if len(mails) != 1 || mails[0].To[0] != "ref@example.net" || !strings.Contains(flat(mails[0].Text), "needs your referee key") ||
			len(mails[0].Attachments) != 0 {
			t.Errorf("forged %q: %v", body, subjects(mails))
		}
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "orders accepted"); m == nil {
		t.Error("bob lost his side to a forged REPLACE")
	}
	// A stranger with the referee's key: the referee is told, nothing changes.
	f.send("mallory@evil.example", "PAUSE\nKEY "+f.refKey("ref@example.net"))
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(flat(m.Text), "used your key") {
		t.Errorf("the referee was not told of a stranger using the key: %+v", m)
	}
	f.ref("EXTEND 12")
	if find(f.outbox(), "alice@example.org", "announcement") == nil {
		t.Error("the referee's mail with the key was not applied")
	}
}

// TestPauseRunsOutBeforePlay: when everyone joins while a timed pause runs, play begins as
// the pause runs out (the deadline pass resumes it), not only on the referee's RESUME.
func TestPauseRunsOutBeforePlay(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	f.ref("PAUSE 10")
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	if m := find(f.outbox(), "alice@example.org", "your move"); m != nil {
		t.Fatal("play began during the pause")
	}
	f.now = f.now.Add(11 * time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	mails := f.outbox()
	if find(mails, "alice@example.org", "your move") == nil || find(mails, "bob@example.com", "your move") == nil {
		t.Fatalf("the pause ran out and play did not begin: %v", subjects(mails))
	}
	f.checkLog()
}

// failingRand is a source of randomness that has run dry.
type failingRand struct{}

func (failingRand) Read([]byte) (int, error) { return 0, errors.New("entropy source failed") }

// TestRefereeCommandOurFailure: a referee's command that fails by our fault (here the new
// key's randomness) is not answered as a refusal; the mail is not marked handled, so that it
// is tried again (parked if it keeps failing), and nothing is changed. A bad command is
// still answered as a refusal.
func TestRefereeCommandOurFailure(t *testing.T) {
	f, _ := started(t)
	f.ref("REKEY nobody")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, `there is no player "nobody"`) {
		t.Fatalf("a bad REKEY was not refused: %v", m)
	}
	f.s.View(func(tx *store.Tx) error {
		if _, done := store.Processed(tx, "ref@example.net", fmt.Sprintf("m%d@example.org", f.n)); !done {
			t.Error("the refused mail is not marked handled (or the test looks under the wrong id)")
		}
		return nil
	})
	f.h.cfg.Rand = failingRand{}
	f.n++
	raw := fmt.Sprintf("From: ref@example.net\r\nSubject: [navarch %s]\r\nMessage-ID: <r%d@example.net>\r\n\r\nREKEY bob\r\nKEY %s\r\n", f.tag, f.n, f.refKey("ref@example.net"))
	if err := f.h.Handle([]byte(raw)); err == nil || !strings.Contains(err.Error(), "entropy source failed") {
		t.Fatalf("Handle = %v, want our failure", err)
	}
	if mails := f.outbox(); len(mails) != 0 {
		t.Errorf("our failure was answered: %v", subjects(mails))
	}
	f.s.View(func(tx *store.Tx) error {
		if _, done := store.Processed(tx, "ref@example.net", fmt.Sprintf("r%d@example.net", f.n)); done {
			t.Error("the failed mail is marked handled: it would never be tried again")
		}
		return nil
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
