package host

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/ledger/forge"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
)

// Standing orders through the daemon (log format v4, docs/LOG-FORMAT.md 3): sealed for the
// player's side until the step that uses them, and applied by the next step that uses them,
// the enemy's activation included.

// lepantoNow is the fixture game's engine as it stands.
func (f *fixture) lepantoNow() *lepanto.Game {
	f.t.Helper()
	var g *lepanto.Game
	f.s.View(func(tx *store.Tx) error {
		eng, err := f.h.engine(tx, f.gameID())
		if err != nil {
			f.t.Fatal(err)
		}
		g = eng.(*lepanto.Game)
		return nil
	})
	return g
}

// sideExport is side's copy of the fixture game's log.
func (f *fixture) sideExport(side string) []byte {
	f.t.Helper()
	var data []byte
	f.s.View(func(tx *store.Tx) error {
		g, err := loadGame(tx, f.gameID())
		if err != nil {
			f.t.Fatal(err)
		}
		a, err := export(tx, g, f.gameID(), side, false)
		if err != nil {
			f.t.Fatal(err)
		}
		data = a.Data
		return nil
	})
	return data
}

// engineNow is the fixture game's engine as it stands.
func (f *fixture) engineNow() adjudicator.Game {
	f.t.Helper()
	var g adjudicator.Game
	f.s.View(func(tx *store.Tx) error {
		var err error
		if g, err = f.h.engine(tx, f.gameID()); err != nil {
			f.t.Fatal(err)
		}
		return nil
	})
	return g
}

// playUntil answers every step with NONE until the open step is one done says, at most 200
// steps; it fails if none comes. The first side is alice's, the second bob's.
func (f *fixture) playUntil(keys map[string]string, done func(adjudicator.Step) bool) adjudicator.Step {
	f.t.Helper()
	addr := map[string]string{}
	f.s.View(func(tx *store.Tx) error {
		g, err := loadGame(tx, f.gameID())
		if err != nil {
			f.t.Fatal(err)
		}
		for _, pl := range g.Players {
			addr[pl.Side] = map[string]string{"alice": "alice@example.org", "bob": "bob@example.com"}[pl.ID]
		}
		return nil
	})
	for i := 0; i < 200; i++ {
		st := f.engineNow().Next()
		if st.Kind == adjudicator.Over {
			break
		}
		if done(st) {
			return st
		}
		for _, side := range st.Sides {
			f.send(addr[side], "NONE\nKEY "+keys[addr[side]])
		}
	}
	f.t.Fatal("the step looked for never came")
	return adjudicator.Step{}
}

// groupOf says whether st is the action phase of a group of side.
func groupOf(side string) func(adjudicator.Step) bool {
	return func(st adjudicator.Step) bool {
		return st.Kind == adjudicator.NeedOrders && slices.Equal(st.Sides, []string{side}) && strings.HasPrefix(st.What, "action phase of group")
	}
}

// christianGroups are alice's groups, HOLD FIRE for each.
func (f *fixture) holdFire() string {
	var lines []string
	for _, g := range f.lepantoNow().Groups {
		if g.Side == "christian" {
			lines = append(lines, "HOLD FIRE "+g.ID)
		}
	}
	return strings.Join(lines, "\n")
}

// TestHoldFireBetweenOwnSteps: alice mails HOLD FIRE while bob's group activation is open
// (between her own steps, not asked): the daemon takes it at once, and bob's activation,
// which applies her side's standing orders (5.3 reaction fire), honours it; before that
// close bob's copy of the log does not hold it, after it bob's report and copy show it.
func TestHoldFireBetweenOwnSteps(t *testing.T) {
	f, keys, _ := groupRequest(t)
	f.playUntil(keys, groupOf("ottoman"))
	hold := f.holdFire()
	f.outbox()
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\n"+hold)
	mails := f.outbox()
	if len(mails) != 1 || !strings.Contains(mails[0].Text, "Your standing orders are accepted as record") || !strings.Contains(mails[0].Text, "sealed") {
		t.Fatalf("want one receipt of standing orders, got %v:\n%s", subjects(mails), texts(mails))
	}
	if bytes.Contains(f.sideExport("ottoman"), []byte("HOLD FIRE")) {
		t.Error("bob's copy holds alice's HOLD FIRE before the step that uses it")
	}
	if !bytes.Contains(f.sideExport("christian"), []byte("line HOLD FIRE")) {
		t.Error("alice's copy lacks her own standing record")
	}
	for _, u := range f.lepantoNow().Units {
		if u.Side == "christian" && (u.HoldMove || u.HoldRam) {
			t.Fatalf("%s holds fire before any step applied the order", u.ID)
		}
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	for _, u := range f.lepantoNow().Units {
		if u.Side == "christian" && u.InPlay() && (!u.HoldMove || !u.HoldRam) {
			t.Errorf("%s does not hold fire after bob's activation, which applies alice's standing orders", u.ID)
		}
	}
	mails = f.outbox()
	rep := find(mails, "bob@example.com", "report")
	if rep == nil || !strings.Contains(rep.Text, "Standing order of christian, sent before and applied now: HOLD FIRE") {
		t.Errorf("bob's report does not tell him of the HOLD FIRE applied in his activation:\n%s", texts(mails))
	}
	bob := f.sideExport("ottoman")
	if !bytes.Contains(bob, []byte("line HOLD FIRE")) {
		t.Error("bob's copy lacks alice's standing record after the close that used it")
	}
	file, err := gamelog.ParseFile(bob)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Errorf("bob's copy: %v", rep.Failure)
	}
	f.checkLog()
	// Replay of the referee's copy applies the standing record the close used, as the daemon
	// did: the engine's events and states match the log's, and each activation declared the
	// sides the rules say.
	file, err = gamelog.ParseFile(f.fullExport())
	if err != nil {
		t.Fatal(err)
	}
	rp, err := play.Replay(file, []adjudicator.Ruleset{lepanto.Ruleset})
	if err != nil || rp.Steps == 0 || rp.Incomplete != "" {
		t.Errorf("replay: %v (%d steps; %s)", err, rp.Steps, rp.Incomplete)
	}
	// The operator drops the declaration from bob's activation and the standing record from
	// its close: the log verifies (the record stays pending), and replay, which knows the
	// rules' step, refuses it.
	b := forge.Blocks(f.fullExport())
	used := regexp.MustCompile(`(?m)^standing \d+\n?`)
	at := -1
	for i, blk := range b {
		if strings.HasPrefix(blk, "type close\n") && used.MatchString(blk) {
			at = i
		}
	}
	act := at - 1
	for act > 0 && !strings.HasPrefix(b[act], "type activation\n") {
		act--
	}
	if at < 0 || !strings.Contains(b[act], "\nstanding christian") {
		t.Fatalf("no close that used a standing record after an activation declaring christian's (%d, %d)", at, act)
	}
	b[at] = used.ReplaceAllString(b[at], "")
	b[act] = regexp.MustCompile(`(?m)\nstanding .*$`).ReplaceAllString(b[act], "")
	var key ed25519.PrivateKey
	f.s.View(func(tx *store.Tx) error { key, err = store.InstallationKey(tx); return err })
	forged, err := gamelog.ParseFile(forge.Rechain(t, key, b))
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(forged, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Fatalf("the forgery should verify (only the rules tell it): %v", rep.Failure)
	}
	if _, err := play.Replay(forged, []adjudicator.Ruleset{lepanto.Ruleset}); err == nil || !strings.Contains(err.Error(), "declares the standing orders") {
		t.Errorf("replay of an activation that does not declare the rules' standing sides: %v", err)
	}
}

// fullExport is the referee's copy of the fixture game's log.
func (f *fixture) fullExport() []byte {
	f.t.Helper()
	var data []byte
	f.s.View(func(tx *store.Tx) error {
		var err error
		data, err = exportData(tx, f.gameID())
		if err != nil {
			f.t.Fatal(err)
		}
		return nil
	})
	return data
}

// TestStandingRefused: standing orders that name no unit or group of the side are refused by
// line whenever they come, and nothing is recorded.
func TestStandingRefused(t *testing.T) {
	f, keys, _ := groupRequest(t)
	f.playUntil(keys, groupOf("ottoman"))
	f.outbox()
	before := len(f.fullExport())
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nHOLD FIRE SIR-ALI\nREACT NOSUCH")
	mails := f.outbox()
	if len(mails) != 1 || !strings.Contains(mails[0].Subject, "refused") || !strings.Contains(mails[0].Text, "SIR-ALI") || !strings.Contains(mails[0].Text, "NOSUCH") {
		t.Fatalf("want one refusal naming both lines, got %v:\n%s", subjects(mails), texts(mails))
	}
	if len(f.fullExport()) != before {
		t.Error("the refused standing orders changed the log")
	}
}

// TestStandingNotRecoverable: alice's HOLD FIRE/REACT line sent with her own group's orders
// are tried, every line her units and groups allow, against bob's copy of the log once her
// step is closed and before any step used them, as bob would search it: for the line's text
// and for the orders hash of it alone. Nothing is found (in v3 the orders text of her step
// held them); after the step that uses them, the search finds the truth, so that it is shown
// to work.
func TestStandingNotRecoverable(t *testing.T) {
	f, keys, _ := groupRequest(t)
	st := f.playUntil(keys, groupOf("christian"))
	group := strings.Fields(strings.TrimPrefix(st.What, "action phase of group "))[0]
	truth := "HOLD FIRE " + group + " MOVE"
	g := f.lepantoNow()
	pass := ""
	for _, u := range g.Units {
		if u.Group == group && u.InPlay() && pass == "" {
			pass = u.ID + " PASS\n"
		}
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\n"+pass+truth) // with her group's orders
	g = f.lepantoNow()
	var cands []string
	for _, u := range g.Units {
		if u.Side == "christian" {
			cands = append(cands, u.ID)
		}
	}
	for _, gr := range g.Groups {
		if gr.Side == "christian" {
			cands = append(cands, gr.ID)
		}
	}
	var lines []string
	for _, c := range cands {
		for _, verb := range []string{"HOLD FIRE ", "REACT "} {
			for _, scope := range []string{"", " MOVE", " RAM"} {
				lines = append(lines, verb+c+scope)
			}
		}
	}
	if !slices.Contains(lines, truth) {
		t.Fatalf("the truth %q is not among the candidates", truth)
	}
	search := func(data []byte) (found []string) {
		for _, l := range lines {
			h := gamelog.OrdersHash([]byte(l + "\n"))
			if bytes.Contains(data, []byte("line "+l+"\n")) || bytes.Contains(data, []byte(hex.EncodeToString(h[:]))) {
				found = append(found, l)
			}
		}
		return found
	}
	if found := search(f.sideExport("ottoman")); len(found) > 0 {
		t.Errorf("bob's copy gives away alice's standing orders before their use: %q (of %d lines tried)", found, len(lines))
	}
	if found := search(f.sideExport("")); len(found) > 0 {
		t.Errorf("the public copy gives away alice's standing orders: %q", found)
	}
	f.playUntil(keys, func(adjudicator.Step) bool {
		return slices.Contains(search(f.sideExport("ottoman")), truth)
	})
	t.Logf("%d lines tried", len(lines))
}

func texts(ms []mail.Outgoing) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Subject + "\n" + m.Text + "\n----\n")
	}
	return b.String()
}
