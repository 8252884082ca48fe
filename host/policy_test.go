package host

import (
	"strings"
	"testing"
	"time"

	"navarch/mail"
	"navarch/store"
)

// A game whose deadline policy is the referee's (docs/DESIGN.md 3.6): its own hours, a reminder, and
// at the deadline the late players told and the referee asked, the step kept open; orders
// still taken; PROCEED resolves without the missing ones, EXTEND gives time from now.
func TestNoOrdersWaitsForReferee(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	spec := GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@example.net"},
		Players:       []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}},
		DeadlineHours: 24, ReminderHours: 6, NoOrders: NoOrdersReferee}
	var err error
	if f.tag, err = f.h.CreateGame(spec); err != nil {
		t.Fatal(err)
	}
	welcome := f.outbox()
	keys := map[string]string{}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		w := find(welcome, who, "welcome")
		if w == nil || !strings.Contains(flat(w.Text), "You have 24 hours") || !strings.Contains(flat(w.Text), "waits for the referee") {
			t.Fatalf("the welcome does not state the policy: %+v", w)
		}
		keys[who] = keyRE.FindStringSubmatch(w.Text)[1]
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	tick := func(hours int) []mail.Outgoing {
		t.Helper()
		f.now = f.now.Add(time.Duration(hours) * time.Hour)
		if err := f.h.Tick(); err != nil {
			t.Fatal(err)
		}
		return f.outbox()
	}
	if got := tick(17); len(got) != 0 {
		t.Errorf("7 hours before the deadline: %v", subjects(got))
	}
	if got := strings.Join(subjects(tick(2)), " | "); strings.Count(strings.ToLower(got), "reminder") != 2 {
		t.Errorf("5 hours before the deadline, want a reminder each: %v", got)
	}
	mails := tick(6)
	if find(mails, "alice@example.org", "deadline passed") == nil || find(mails, "bob@example.com", "deadline passed") == nil {
		t.Errorf("at the deadline the late players are not told: %v", subjects(mails))
	}
	if m := find(mails, "bob@example.com", "deadline passed"); m == nil || !strings.Contains(flat(m.Text), "The game now waits for the referee") || strings.Contains(m.Text, "applies to your side at once") {
		t.Errorf("the late notice under the referee's policy: %+v", m)
	}
	if m := find(mails, "ref@example.net", "notice"); m == nil || !strings.Contains(flat(m.Text), "waits for you") || !strings.Contains(m.Text, "PROCEED") {
		t.Errorf("the referee is not asked: %v", subjects(mails))
	}
	if find(mails, "ref@example.net", "no orders") != nil || find(mails, "alice@example.org", "your move") != nil {
		t.Errorf("the step was resolved without the referee: %v", subjects(mails))
	}
	if got := tick(23); len(got) != 0 {
		t.Errorf("while waiting, 23 hours later: %v", subjects(got))
	}
	if got := tick(1); len(got) != 1 || !strings.Contains(flat(got[0].Text), "The game still waits for you") || got[0].To[0] != "ref@example.net" {
		t.Errorf("a day later, want the referee asked again: %v", subjects(got))
	}
	f.send("alice@example.org", "NONE\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "accepted"); m == nil {
		t.Error("orders after the deadline are not taken while the game waits")
	}
	f.ref("PROCEED")
	mails = f.outbox()
	if m := find(mails, "bob@example.com", "announcement"); m == nil || !strings.Contains(flat(m.Text), "without orders from bob (ottoman)") {
		t.Errorf("PROCEED is not announced: %v", subjects(mails))
	}
	if find(mails, "ref@example.net", "your move") == nil && find(mails, "alice@example.org", "your move") == nil && find(mails, "bob@example.com", "your move") == nil {
		t.Errorf("PROCEED did not resolve the step: %v", subjects(mails))
	}
	// The next step's deadline passes; EXTEND gives 12 hours from now, not from the deadline.
	tick(25)
	f.ref("EXTEND 12")
	want := f.now.UTC().Truncate(time.Second).Add(12 * time.Hour).Format("Mon 2 Jan 2006 15:04 UTC")
	if m := find(f.outbox(), "alice@example.org", "announcement"); m == nil || !strings.Contains(flat(m.Text), want) {
		t.Errorf("EXTEND while waiting, want the deadline %s: %+v", want, m)
	}
	if got := tick(1); len(got) != 0 {
		t.Errorf("an hour into the extension: %v", subjects(got))
	}
	var show strings.Builder
	if err := f.h.Show(&show, f.tag); err != nil || !strings.Contains(show.String(), "deadlines 24h, reminder 6h before, without orders: referee") {
		t.Errorf("game show: %v\n%s", err, show.String())
	}
}

func TestPolicyRefusals(t *testing.T) {
	f := newFixture(t)
	base := GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}}
	for want, change := range map[string]func(*GameSpec){
		"needs a referee": func(s *GameSpec) { s.NoOrders = NoOrdersReferee },
		"reminder: 10h before the deadline (as given) must be less than the deadline, 10h (as given)": func(s *GameSpec) { s.DeadlineHours, s.ReminderHours = 10, 10 },
		"deadline hours: want 1 to 720, not 721":                                                      func(s *GameSpec) { s.DeadlineHours = MaxDeadlineHours + 1 },
		"no-orders policy":                                                                            func(s *GameSpec) { s.NoOrders = "coinflip" },
		// The refusal names what was given and where the rest comes from.
		"reminder: 12h before the deadline (the installation's reminder_hours) must be less than the deadline, 6h (as given)": func(s *GameSpec) { s.DeadlineHours = 6 },
		"reminder: 12h before the deadline (the installation's reminder_hours) must be less than the deadline, 1h (as given)": func(s *GameSpec) { s.DeadlineHours = 1 },
		"reminder: 45m before the deadline (as given) must be less than the deadline, 30m (as given)":                         func(s *GameSpec) { s.Deadline, s.Reminder = 30*time.Minute, 45*time.Minute },
		"want 1m to 720h in whole minutes, not 1m30s and 0s":                                                                  func(s *GameSpec) { s.Deadline = 90 * time.Second },
	} {
		spec := base
		change(&spec)
		if _, err := f.h.CreateGame(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}

// flat is a mail's text with its lines joined, as wrapped text is read.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// A quick game: deadlines in minutes, and no reminder (REMINDER OFF; -reminder off), stated
// in the welcome and game show; the request is due 30 minutes on, no reminder comes, and the
// deadline passes on time. A game made with hours keeps its meaning.
func TestQuickGameWithoutReminder(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	d, _, err := ParseSpan("30m", false)
	if err != nil {
		t.Fatal(err)
	}
	_, off, err := ParseSpan("OFF", true)
	if err != nil || !off {
		t.Fatalf("OFF: %v %v", off, err)
	}
	spec := GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Deadline: d, NoReminder: true,
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}}
	if f.tag, err = f.h.CreateGame(spec); err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		w := find(welcome, who, "welcome")
		if w == nil || !strings.Contains(flat(w.Text), "You have 30 minutes to answer each request for orders, without a reminder.") {
			t.Fatalf("the welcome does not state the quick policy: %+v", w)
		}
		keys[who] = keyRE.FindStringSubmatch(w.Text)[1]
	}
	start := f.now
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	var show strings.Builder
	if err := f.h.Show(&show, f.tag); err != nil || !strings.Contains(show.String(), "deadlines 30m, no reminder, without orders: default") {
		t.Errorf("game show: %v\n%s", err, show.String())
	}
	var deadline time.Time
	f.s.View(func(tx *store.Tx) error {
		_, g, _ := findGame(tx, f.tag)
		deadline = g.Step.Deadline
		return nil
	})
	if !deadline.Equal(start.Add(30 * time.Minute)) {
		t.Errorf("the deadline is %v, want 30 minutes after %v", deadline, start)
	}
	for _, minutes := range []int{10, 19} {
		f.now = start.Add(time.Duration(minutes) * time.Minute)
		if err := f.h.Tick(); err != nil {
			t.Fatal(err)
		}
		if got := f.outbox(); len(got) != 0 {
			t.Errorf("%d minutes in, without a reminder: %v", minutes, subjects(got))
		}
	}
	f.now = start.Add(31 * time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if mails := f.outbox(); find(mails, "alice@example.org", "deadline passed") == nil {
		t.Errorf("the quick deadline did not pass: %v", subjects(mails))
	}
	// A game's own deadline, and the installation's reminder (0); a game stored with hours
	// has them as minutes since settings version 1 (store.TestUpgradeSettingsV1).
	own := &game{Game: store.Game{DeadlineMinutes: 24 * 60}}
	if f.h.deadline(own) != 24*time.Hour || f.h.reminder(own) != 12*time.Hour {
		t.Errorf("a game's own deadline: %v, reminder %v", f.h.deadline(own), f.h.reminder(own))
	}
}
