package host

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/mail"
	"navarch/play"
)

// teamFixture is a duel of two players a side, all joined: alice commands red and its ship;
// carol commands blue, whose ship is dave's. It returns the players' keys by address.
func teamFixture(t *testing.T) (*fixture, map[string]string) {
	t.Helper()
	return teamGame(t, duel.Ruleset, GameSpec{Ruleset: "duel", Scenario: "short", Players: []PlayerSpec{
		{"alice", "red", "alice@example.org", "UTC"}, {"bob", "red", "bob@example.org", "UTC"},
		{"carol", "blue", "carol@example.org", "UTC"}, {"dave", "blue", "dave@example.org", "UTC"}},
		Commands: map[string][]string{"alice": {"SHIP"}, "dave": {"SHIP"}}})
}

// teamGame creates the team game spec of rs on a fresh host and joins every player; it
// returns the fixture and the players' keys by address.
func teamGame(t *testing.T, rs adjudicator.Ruleset, spec GameSpec) (*fixture, map[string]string) {
	t.Helper()
	f := bareFixture(t, rs)
	var err error
	if f.tag, err = f.h.CreateGame(spec); err != nil {
		t.Fatal(err)
	}
	keys := playerKeys(f.outbox())
	for _, p := range spec.Players {
		f.send(p.Address, "JOIN\nKEY "+keys[p.Address])
	}
	return f, keys
}

// mailTo returns the mails to address among mails.
func mailTo(mails []mail.Outgoing, address string) []mail.Outgoing {
	var out []mail.Outgoing
	for _, m := range mails {
		if m.To[0] == address {
			out = append(out, m)
		}
	}
	return out
}

// teamLog is the game's export for view side ("" for the full log), verified and replayed.
func (f *fixture) teamLog(side string) string {
	f.t.Helper()
	var buf bytes.Buffer
	if err := f.h.Export(&buf, f.tag, side); err != nil {
		f.t.Fatal(err)
	}
	file, err := gamelog.ParseFile(buf.Bytes())
	if err != nil {
		f.t.Fatal(err)
	}
	if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		f.t.Fatalf("the %q log does not verify: %v", side, rep.Failure)
	}
	if _, err := play.Replay(file, f.h.rulesets); err != nil {
		f.t.Fatalf("the %q log does not replay: %v", side, err)
	}
	return buf.String()
}

// TestTeamGameByMail: a team step asks only the players commanding what acts; a player not
// asked is told so and nothing is recorded; the commander's ASSIGN gives the ship to bob from
// the next step on, and is refused from a player who is not the commander; TEAM mail reaches
// the side's other players only and is logged sealed for the side; a late player's units
// get the default, his reminder goes to his commander too; the log verifies and replays.
func TestTeamGameByMail(t *testing.T) {
	f, keys := teamFixture(t)
	key := func(p string) string { return "\nKEY " + keys[p+"@example.org"] }
	mails := f.outbox()
	for _, p := range []string{"alice", "dave"} {
		if find(mailTo(mails, p+"@example.org"), p+"@example.org", "your move") == nil {
			t.Errorf("%s was not asked for orders: %v", p, subjects(mailTo(mails, p+"@example.org")))
		}
	}
	f.send("bob@example.org", "FIRE"+key("bob"))
	if m := mailTo(f.outbox(), "bob@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "No orders are awaited from you now") {
		t.Fatalf("bob's orders: %v", mailTexts(m))
	}
	f.send("bob@example.org", "ASSIGN SHIP bob"+key("bob"))
	if m := mailTo(f.outbox(), "bob@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "Only your side's commander") {
		t.Fatalf("bob's ASSIGN: %v", mailTexts(m))
	}
	f.send("alice@example.org", "ASSIGN SHIP bob"+key("alice"))
	mails = f.outbox()
	for _, p := range []string{"alice", "bob"} {
		if m := mailTo(mails, p+"@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "alice gives SHIP to bob") {
			t.Errorf("%s of ASSIGN: %v", p, mailTexts(m))
		}
	}
	if len(mailTo(mails, "carol@example.org"))+len(mailTo(mails, "dave@example.org")) > 0 {
		t.Errorf("blue heard of red's ASSIGN")
	}
	f.send("bob@example.org", "TEAM I have the ship; fire at will.\nThe wind is ours."+key("bob"))
	mails = f.outbox()
	if m := mailTo(mails, "alice@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "I have the ship; fire at will.") || !strings.Contains(m[0].Text, "The wind is ours.") {
		t.Errorf("alice of bob's TEAM: %v", mailTexts(m))
	}
	if len(mailTo(mails, "carol@example.org"))+len(mailTo(mails, "dave@example.org")) > 0 {
		t.Errorf("blue got red's TEAM mail")
	}
	if blue := f.teamLog("blue"); strings.Contains(blue, "fire at will") || strings.Contains(blue, "type assign\n") && strings.Contains(blue, "side red\nby alice") {
		t.Errorf("blue's copy of the log shows red's team records")
	}
	if red := f.teamLog("red"); !strings.Contains(red, "fire at will") || !strings.Contains(red, "by alice\nplayer bob\ncommand SHIP") {
		t.Errorf("red's copy lacks its team records")
	}
	// Turn 1 still asks alice, who handed the ship over for the steps to come.
	f.send("alice@example.org", "FIRE"+key("alice"))
	f.send("dave@example.org", "FIRE"+key("dave"))
	mails = f.outbox()
	if find(mailTo(mails, "bob@example.org"), "bob@example.org", "your move") == nil {
		t.Errorf("turn 2 does not ask bob: %v", subjects(mailTo(mails, "bob@example.org")))
	}
	if act, asks := lastAct(t, f.teamLog("")); act != "" || asks != "blue 1,red 1" {
		t.Errorf("turn 2 asks %q and counts %q, want none named and one of each side", act, asks)
	}
	f.send("alice@example.org", "HOLD"+key("alice"))
	if m := mailTo(f.outbox(), "alice@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "No orders are awaited from you now") {
		t.Errorf("alice's orders in turn 2: %v", mailTexts(m))
	}
	f.send("bob@example.org", "FIRE"+key("bob"))
	// v5: his receipt tells him his orders record and the sender record naming him
	if m := mailTo(f.outbox(), "bob@example.org"); len(m) != 1 || !regexp.MustCompile(`They are record (\d+) of the game's log`).MatchString(m[0].Text) ||
		!strings.Contains(m[0].Text, ", sealed for your side, names you and your mail as its sender") {
		t.Errorf("bob's receipt: %v", mailTexts(m))
	}
	// dave is late: his reminder goes to carol, his commander, too.
	f.now = f.deadline().Add(-time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	mails = f.outbox()
	for _, p := range []string{"dave", "carol"} {
		if find(mailTo(mails, p+"@example.org"), p+"@example.org", "reminder") == nil {
			t.Errorf("no reminder to %s: %v", p, subjects(mailTo(mails, p+"@example.org")))
		}
	}
	if find(mailTo(mails, "bob@example.org"), "bob@example.org", "reminder") != nil {
		t.Errorf("bob, who sent his orders, was reminded")
	}
	f.now = f.deadline().Add(time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	full := f.teamLog("")
	if !strings.Contains(full, "side blue\ncommitment") || !strings.Contains(full, "side blue\nplayer dave\nreceived") || !strings.Contains(full, "default yes") {
		t.Errorf("no default for dave in turn 2")
	}
	// In v5 blue's copy names no red player after the start record (which lists who joined):
	// not whom each step asked, not whose orders a record holds, not their mails.
	blue := f.teamLog("blue")
	_, after, _ := strings.Cut(blue, "type start\n")
	if _, after, _ = strings.Cut(after, "\n\n"); strings.Contains(after, "alice") || strings.Contains(after, "bob") {
		t.Errorf("blue's copy names a red player after the start:\n%s", after)
	}
}

// lastAct returns the last activation record's act and its team-asks (joined by commas).
func lastAct(t *testing.T, log string) (act, asks string) {
	t.Helper()
	rec := log[strings.LastIndex(log, "type activation\n"):]
	rec, _, _ = strings.Cut(rec, "\n\n")
	var counts []string
	for _, l := range strings.Split(rec, "\n") {
		if a, ok := strings.CutPrefix(l, "act "); ok {
			act = a
		}
		if c, ok := strings.CutPrefix(l, "team-asks "); ok {
			counts = append(counts, c)
		}
	}
	return act, strings.Join(counts, ",")
}

func mailTexts(ms []mail.Outgoing) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject+": "+m.Text)
	}
	return out
}

// TestTeamStandIn: a side's commander answers for a player of his side (FOR dave); the
// orders record names him and the player he answers for, the player is told, and the
// step closes with it as dave's; FOR from a player who is not the commander is refused.
func TestTeamStandIn(t *testing.T) {
	f, keys := teamFixture(t)
	key := func(p string) string { return "\nKEY " + keys[p+"@example.org"] }
	f.outbox()
	f.send("bob@example.org", "FOR alice\nFIRE"+key("bob"))
	if m := mailTo(f.outbox(), "bob@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "Only your side's commander answers for another player") {
		t.Fatalf("bob's FOR: %v", mailTexts(m))
	}
	f.send("carol@example.org", "FOR alice\nFIRE"+key("carol"))
	if m := mailTo(f.outbox(), "carol@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "not another player of your side") {
		t.Fatalf("carol's FOR alice: %v", mailTexts(m))
	}
	f.send("alice@example.org", "FIRE"+key("alice"))
	f.outbox()
	f.send("carol@example.org", "FOR dave\nHOLD"+key("carol"))
	mails := f.outbox()
	if m := mailTo(mails, "dave@example.org"); len(m) == 0 || !strings.Contains(mailTexts(m)[0], "carol, your side's commander, answered for you") {
		t.Errorf("dave was not told: %v", mailTexts(m))
	}
	full := f.teamLog("")
	if !strings.Contains(full, "side blue\nplayer carol\nfor dave\n") {
		t.Errorf("no orders record of carol for dave")
	}
	if _, asks := lastAct(t, full); asks != "blue 1,red 1" || !strings.Contains(full, "type activation\nindex") || strings.Count(full, "type close\n") != 1 {
		t.Errorf("turn 1 did not close with carol's orders for dave (last counts %q, %d closes)", asks, strings.Count(full, "type close\n"))
	}
}

// TestTeamBadInput: every malformed team command is answered with what was wrong and
// changes nothing: ASSIGN without its words, of a command the side lacks, to a player of the
// other side; an empty TEAM; FOR a player who is no one's; orders for another side's TEAM.
func TestTeamBadInput(t *testing.T) {
	f, keys := teamFixture(t)
	key := func(p string) string { return "\nKEY " + keys[p+"@example.org"] }
	f.outbox()
	for _, c := range []struct{ from, body, want string }{
		{"alice", "ASSIGN SHIP", "Write ASSIGN COMMAND PLAYER"},
		{"alice", "ASSIGN MAST bob", "your side has no command MAST"},
		{"alice", "ASSIGN SHIP dave", "dave is not a player of your side"},
		{"alice", "ASSIGN SHIP alice", "alice commands SHIP already"},
		{"bob", "TEAM", "Write TEAM followed by your message"},
		{"carol", "FOR zed\nFIRE", "FOR zed: not another player of your side"},
		{"carol", "NONE FOR bob", "FOR bob: not another player of your side"},
	} {
		before := f.teamLog("")
		f.send(c.from+"@example.org", c.body+key(c.from))
		if m := mailTo(f.outbox(), c.from+"@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, c.want) {
			t.Errorf("%s: %q: %v; want %q", c.from, c.body, mailTexts(m), c.want)
		}
		if after := f.teamLog(""); len(after) != len(before) {
			t.Errorf("%s: %q changed the log", c.from, c.body)
		}
	}
	if _, err := f.h.CreateGame(GameSpec{Ruleset: "duel", Scenario: "short", Players: []PlayerSpec{
		{"alice", "red", "alice@example.org", "UTC"}, {"bob", "blue", "bob@example.org", "UTC"}},
		Commands: map[string][]string{"zed": {"SHIP"}}}); err == nil || !strings.Contains(err.Error(), "zed, who is not a player") {
		t.Errorf("commands for no player: %v", err)
	}
	if _, err := f.h.CreateGame(GameSpec{Ruleset: "duel", Scenario: "short", Players: []PlayerSpec{
		{"alice", "red", "alice@example.org", "UTC"}, {"bob", "blue", "bob@example.org", "UTC"}},
		Commands: map[string][]string{"alice": {"SHIP"}}, Commanders: map[string]string{"red": "bob"}}); err == nil || !strings.Contains(err.Error(), "commander bob is not a player of side red") {
		t.Errorf("a commander of another side: %v", err)
	}
}

// TestNewGameTeamLines: NEWGAME's COMMAND and COMMANDER lines, and their mistakes.
func TestNewGameTeamLines(t *testing.T) {
	req := func(lines ...string) mail.Request {
		r := mail.Request{Command: mail.CmdNewGame, Args: []string{"short"}}
		for i, l := range lines {
			r.Orders = append(r.Orders, mail.Line{N: i + 2, Text: l})
		}
		return r
	}
	spec, err := readSpec(req("PLAYER alice red a@example.org", "PLAYER bob red b@example.org", "PLAYER carol blue c@example.org",
		"COMMAND alice ship", "COMMANDER bob"))
	if err != nil || strings.Join(spec.Commands["alice"], ",") != "SHIP" || spec.Commanders["red"] != "bob" {
		t.Errorf("spec %+v, %v", spec, err)
	}
	for _, bad := range [][]string{{"COMMAND alice"}, {"COMMANDER"}, {"COMMANDER zed"}, {"COMMAND alice a b"}} {
		if _, err := readSpec(req(append([]string{"PLAYER alice red a@example.org"}, bad...)...)); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// TestTeamAdvanceOrders: in a team game each player's advance orders are his own (docs/DESIGN.md
// 3.4, 3.8): carol, who commands nothing, is refused by line advance orders for alice's unit
// and nothing is held; alice's are held, used when her group's marker is drawn without
// asking her for it, and her side's report says they were hers.
func TestTeamAdvanceOrders(t *testing.T) {
	f, keys := lepantoTeam(t)
	pending := f.outbox() // the first request after the set-up
	f.send("carol@example.org", "KEY "+keys["carol@example.org"]+"\nBAR-VEN1 MOVE 0711")
	if m := mailTo(f.outbox(), "carol@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "not under your command") {
		t.Fatalf("carol's advance orders for alice's unit: %v", mailTexts(m))
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nBAR-VEN1 MOVE 0711")
	held := mailTo(f.outbox(), "alice@example.org")
	if len(held) != 1 || !strings.Contains(held[0].Text, "held as advance orders") && !strings.Contains(held[0].Subject, "accepted") {
		t.Fatalf("alice's advance orders: %v", mailTexts(held))
	}
	moved, told := false, false
	for i := 0; i < 60 && !moved; i++ {
		mails := append(pending, f.outbox()...)
		pending = nil
		for _, m := range mails {
			if mailIs(m, "report") && strings.Contains(m.Text, "BAR-VEN1 moves 0611→0711") {
				moved = true
				told = told || strings.Contains(m.Text, "alice's advance orders were used")
			}
			request := m.Text
			if _, after, ok := strings.Cut(m.Text, "--- your move ---"); ok {
				request = after
			}
			if strings.Contains(m.Subject, "Your move") && strings.Contains(request, "group BAR ") {
				t.Fatalf("%s was asked for group BAR despite alice's advance orders:\n%s", m.To[0], m.Text)
			}
		}
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			}
		}
	}
	if !moved || !told {
		t.Errorf("alice's advance orders: used %v, her side told whose %v", moved, told)
	}
	f.checkLog()
}

// TestTeamStandingOwnUnits: a team player's standing orders cover his own units only, and
// he may send them whether or not the open step asks him (a standing order holds for steps
// to come): carol, who commands nothing, is refused by line a HOLD FIRE for alice's group and
// nothing is recorded; alice's is recorded.
func TestTeamStandingOwnUnits(t *testing.T) {
	f, keys := lepantoTeam(t)
	f.outbox()
	before := f.teamLog("")
	f.send("carol@example.org", "HOLD FIRE BAR\nKEY "+keys["carol@example.org"])
	if m := mailTo(f.outbox(), "carol@example.org"); len(m) != 1 || !strings.Contains(m[0].Text, "not under your command") {
		t.Errorf("carol's HOLD FIRE for alice's group: %v", mailTexts(m))
	}
	if len(f.teamLog("")) != len(before) {
		t.Errorf("carol's refused standing order changed the log")
	}
	f.send("alice@example.org", "HOLD FIRE BAR\nKEY "+keys["alice@example.org"])
	if m := mailTo(f.outbox(), "alice@example.org"); len(m) == 0 || strings.Contains(mailTexts(m)[0], "not under your command") || strings.Contains(mailTexts(m)[0], "nothing was recorded") {
		t.Errorf("alice's HOLD FIRE for her own group: %v", mailTexts(m))
	}
	if len(f.teamLog("")) == len(before) {
		t.Errorf("alice's standing order was not recorded")
	}
}

// lepantoTeam is a game of Lion's at Sea (13.2) with two players a side, alice commanding
// the Christian left wing (all of her side's force; carol nothing) and bob the Ottoman
// right, every player joined and the set-up answered with its default.
func lepantoTeam(t *testing.T) (*fixture, map[string]string) {
	t.Helper()
	players := []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"carol", "christian", "carol@example.org", "UTC"},
		{"bob", "ottoman", "bob@example.org", "UTC"}, {"dave", "ottoman", "dave@example.org", "UTC"}}
	f, keys := teamGame(t, lepanto.Ruleset, GameSpec{Ruleset: lepanto.Ruleset.ID(), Scenario: "lions-at-sea", Players: players,
		Commands: map[string][]string{"alice": {"LEFT"}, "bob": {"RIGHT"}}})
	f.outbox()
	for _, p := range []string{"alice@example.org", "bob@example.org"} { // the set-up asks both: its default
		f.send(p, "NONE\nKEY "+keys[p])
	}
	return f, keys
}

// TestTeamReplace: a team player replaced by the referee keeps his commands and his side's
// command: the new address sends standing orders for alice's group and reassigns as the
// side's commander; the old address is no player any more.
func TestTeamReplace(t *testing.T) {
	players := []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"carol", "christian", "carol@example.org", "UTC"},
		{"bob", "ottoman", "bob@example.org", "UTC"}, {"dave", "ottoman", "dave@example.org", "UTC"}}
	f, keys := teamGame(t, lepanto.Ruleset, GameSpec{Ruleset: lepanto.Ruleset.ID(), Scenario: "lions-at-sea", Players: players,
		Referees: []string{"ref@example.net"}, Commands: map[string][]string{"alice": {"LEFT"}, "bob": {"RIGHT"}}})
	f.outbox()
	f.ref("REPLACE alice ella@example.net")
	w := find(f.outbox(), "ella@example.net", "you take over")
	if w == nil {
		t.Fatal("no welcome for ella")
	}
	ella := keyRE.FindStringSubmatch(w.Text)[1]
	before := f.teamLog("")
	f.send("ella@example.net", "HOLD FIRE BAR\nKEY "+ella)
	if m := mailTo(f.outbox(), "ella@example.net"); len(m) == 0 || strings.Contains(mailTexts(m)[0], "not under your command") || strings.Contains(mailTexts(m)[0], "nothing was recorded") {
		t.Errorf("ella's standing order for alice's group: %v", mailTexts(m))
	}
	if len(f.teamLog("")) == len(before) {
		t.Error("ella's standing order was not recorded")
	}
	f.send("ella@example.net", "ASSIGN BAR carol\nKEY "+ella)
	if m := mailTo(f.outbox(), "ella@example.net"); len(m) == 0 || strings.Contains(mailTexts(m)[0], "Only your side's commander") || strings.Contains(mailTexts(m)[0], "nothing was changed") {
		t.Errorf("ella's ASSIGN as the side's commander: %v", mailTexts(m))
	}
	f.send("alice@example.org", "HOLD FIRE BAR\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", ""); m == nil || !strings.Contains(m.Text, "not a player") {
		t.Errorf("the replaced address still counts: %+v", m)
	}
}

// TestTeamStandingHidden: in v5 a team player's standing orders do not tell the other side
// whose they are (docs/LOG-FORMAT.md 9, "What a team game shows the other side"): alice's
// HOLD FIRE for her own group is used by a close while the game goes on, and the Ottoman
// copy taken then, which holds the standing record from that close on, names no Christian
// player after the start record (its sender record stays sealed for her side), nor does any
// mail to an Ottoman player; every copy verifies and replays, and the Christian copy names
// her in the sender record.
func TestTeamStandingHidden(t *testing.T) {
	f, keys := lepantoTeam(t)
	pending := f.outbox()
	f.send("alice@example.org", "HOLD FIRE BAR\nKEY "+keys["alice@example.org"])
	mails := f.outbox()
	if m := mailTo(mails, "alice@example.org"); len(m) == 0 || !strings.Contains(m[0].Text, "HOLD FIRE BAR") || strings.Contains(m[0].Text, "not under your command") ||
		!strings.Contains(strings.Join(strings.Fields(m[0].Text), " "), "sealed for your side until the game's end, names you as their sender") {
		t.Fatalf("alice's HOLD FIRE for her own group: %v", mailTexts(m))
	}
	pending = append(pending, mails...)
	full := f.teamLog("")
	at := regexp.MustCompile(`(?m)^unseal (\d+) \w+\ntype standing\n`).FindStringSubmatch(full)
	if at == nil {
		t.Fatal("no standing record in the full log")
	}
	used := regexp.MustCompile(`(?m)^type close\n(?:.+\n)*standing ` + at[1] + `$`)
	for i := 0; i < 60 && !used.MatchString(full); i++ {
		mails = append(pending, f.outbox()...)
		pending = nil
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			}
			if (m.To[0] == "bob@example.org" || m.To[0] == "dave@example.org") && (strings.Contains(m.Text, "alice") || strings.Contains(m.Text, "carol")) {
				t.Errorf("a mail to %s names a Christian player: %s", m.To[0], m.Text)
			}
		}
		full = f.teamLog("")
	}
	if !used.MatchString(full) {
		t.Fatalf("no close used alice's standing record %s", at[1])
	}
	if strings.Contains(full, "\ntype end\n") {
		t.Fatal("the game ended before the check: the other side's copy holds everything then")
	}
	ottoman := f.teamLog("ottoman")
	if !strings.Contains(ottoman, "\nunseal "+at[1]+" ") {
		t.Fatalf("the Ottoman copy lacks the unseal block of the used standing record %s", at[1])
	}
	start := strings.Index(ottoman, "\ntype start\n")
	after := ottoman[start+strings.Index(ottoman[start:], "\n\n"):]
	for _, p := range []string{"alice", "carol"} {
		if i := strings.Index(after, p); i >= 0 {
			t.Errorf("the Ottoman copy names %s after the start: …%s…", p, after[max(0, i-200):i+20])
		}
	}
	if christian := f.teamLog("christian"); !regexp.MustCompile(`(?m)^orders ` + at[1] + `\nside christian\nplayer alice\n`).MatchString(christian) {
		t.Errorf("the Christian copy lacks the sender record naming alice for standing record %s", at[1])
	}
}
