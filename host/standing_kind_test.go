package host

import (
	"bytes"
	"crypto/ed25519"
	"regexp"
	"slices"
	"strconv"
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

// Standing orders by kind through the daemon (log format v5, docs/LOG-FORMAT.md 3): a chit's
// choice mailed between the side's applying steps counts at the next chit drawn, and a HOLD
// FIRE of the same mail stays sealed until the step that uses it.

// leaderMoveAsking says whether st is a Leader Move chit's step that asks side.
func leaderMoveAsking(st adjudicator.Step, side string) bool {
	return st.Kind == adjudicator.NeedOrders && strings.HasPrefix(st.What, "leader move chit") && slices.Contains(st.Sides, side)
}

// christianStepBeforeLeaderMove plays the fixture game answering every step with NONE until
// alice's group step is followed, with only draws between, by a Leader Move chit that asks
// her side; it returns how many of her group steps came before that one. The same fixture
// (its seeds come from the test's name) then plays the same dice: standing orders never
// enter a key (docs/LOG-FORMAT.md 3).
func christianStepBeforeLeaderMove(t *testing.T) int {
	f, keys, _ := groupRequest(t)
	for n := 0; n < 40; n++ {
		f.playUntil(keys, groupOf("christian"))
		f.send("alice@example.org", "NONE\nKEY "+keys["alice@example.org"])
		if st := f.engineNow().Next(); leaderMoveAsking(st, "christian") {
			return n
		}
	}
	t.Skip("no Leader Move chit asking christian right after one of her group steps in this game")
	return 0
}

// TestLeadersStayAtNextChit: alice mails LEADERS STAY and HOLD FIRE with her group's step
// (which applies only bob's side's standing orders: her own reaction fire is not concerned);
// the draws after it apply the chit choices of both sides, so the Leader Move chit drawn
// next does not ask her (2.4.1), while her HOLD FIRE, a record of its own, stays sealed from
// bob's copy (no unseal block) until a step that applies every kind of her side's. Before
// v5 the draw applied nobody's: she was asked, a round trip for a choice already made.
func TestLeadersStayAtNextChit(t *testing.T) {
	k := christianStepBeforeLeaderMove(t)
	t.Logf("alice's group step %d is followed by a Leader Move chit", k)
	f, keys, _ := groupRequest(t)
	for n := 0; n < k; n++ {
		f.playUntil(keys, groupOf("christian"))
		f.send("alice@example.org", "NONE\nKEY "+keys["alice@example.org"])
	}
	f.playUntil(keys, groupOf("christian"))
	hold := f.holdFire()
	f.outbox()
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nLEADERS STAY\n"+hold)
	mails := f.outbox()
	receipt := find(mails, "alice@example.org", "accepted")
	if receipt == nil || !regexp.MustCompile(`records #\d+ and #\d+ \(#\d+: those of kind chit`).MatchString(strings.Join(strings.Fields(receipt.Text), " ")) {
		t.Fatalf("alice's receipt does not name her two standing records, one of kind chit:\n%s", texts(mails))
	}
	st := f.engineNow().Next()
	if leaderMoveAsking(st, "christian") {
		t.Fatalf("the Leader Move chit drawn after alice's LEADERS STAY asks her: %s %v", st.What, st.Sides)
	}
	if !slices.Contains(f.lepantoNow().LeadersStay, "christian") {
		t.Error("alice's LEADERS STAY is not in force after the draw")
	}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		if !slices.ContainsFunc(mails, func(m mail.Outgoing) bool {
			return m.To[0] == who && strings.Contains(m.Text, "Standing order of christian, sent before and applied now: LEADERS STAY")
		}) {
			t.Errorf("no mail to %s tells of the LEADERS STAY applied at the draw:\n%s", who, texts(mails))
		}
	}
	for _, m := range mails {
		if m.To[0] == "bob@example.com" && strings.Contains(m.Text, "HOLD FIRE") {
			t.Errorf("bob's mail %q tells of alice's HOLD FIRE before the step that uses it", m.Subject)
		}
	}
	bob := f.sideExport("ottoman")
	if !bytes.Contains(bob, []byte("line LEADERS STAY")) {
		t.Error("bob's copy lacks alice's LEADERS STAY after the draw that used it")
	}
	if bytes.Contains(bob, []byte("HOLD FIRE")) {
		t.Error("bob's copy holds alice's HOLD FIRE before the step that uses it")
	}
	for _, u := range f.lepantoNow().Units {
		if u.Side == "christian" && (u.HoldMove || u.HoldRam) {
			t.Fatalf("%s holds fire before a step that applies alice's every kind", u.ID)
		}
	}
	f.verifyCopies()
	// Play on until bob's copy holds the HOLD FIRE: the close that used it is of a step that
	// applies every kind of christian's standing orders.
	f.playUntil(keys, func(adjudicator.Step) bool { return bytes.Contains(f.sideExport("ottoman"), []byte("line HOLD FIRE")) })
	f.checkHoldFireUsedByPlainStep()
	f.verifyCopies()
	f.forgeDrawWithoutChits()
}

// forgeDrawWithoutChits: the operator makes the draw that applied alice's LEADERS STAY apply
// nobody's (as in v4) and lists the record at the next step that applies it instead: the
// log verifies (it is a consistent log, the record pending until then), and replay, which
// knows the rules' step (christian/chit ottoman/chit), refuses it.
func (f *fixture) forgeDrawWithoutChits() {
	t := f.t
	t.Helper()
	b := forge.Blocks(f.fullExport())
	var hold, stay int = -1, -1
	for i, blk := range b {
		if strings.HasPrefix(blk, "type sealed\n") && strings.Contains(blk, "\nplayer alice\n") {
			switch {
			case strings.Contains(blk, "\nline HOLD FIRE"):
				hold = i - 1
			case strings.Contains(blk, "\nline LEADERS STAY"):
				stay = i - 1
			}
		}
	}
	listing := func(n int) *regexp.Regexp { return regexp.MustCompile(`(?m)^standing ` + strconv.Itoa(n) + `$`) }
	drawClose := slices.IndexFunc(b, func(blk string) bool { return strings.HasPrefix(blk, "type close\n") && listing(stay).MatchString(blk) })
	if hold < 0 || stay < 0 || drawClose < 0 {
		t.Fatalf("alice's records %d and %d, the LEADERS STAY used by the close of block %d", hold, stay, drawClose)
	}
	act := drawClose - 1
	for !strings.HasPrefix(b[act], "type activation\n") {
		act--
	}
	b[act] = regexp.MustCompile(`(?m)\nstanding .*$`).ReplaceAllString(b[act], "")
	b[drawClose] = regexp.MustCompile(`(?m)^standing `+strconv.Itoa(stay)+`\n?`).ReplaceAllString(b[drawClose], "")
	// The next close whose activation applies it lists it, in log order.
	var entries []string
	moved := false
	for i := drawClose + 1; i < len(b) && !moved; i++ {
		blk := b[i]
		switch {
		case strings.HasPrefix(blk, "type activation\n"):
			entries = nil
			if m := regexp.MustCompile(`(?m)^standing (.*)$`).FindStringSubmatch(blk); m != nil {
				entries = strings.Fields(m[1])
			}
		case strings.HasPrefix(blk, "type close\n") && gamelog.StandingApplies(entries, "christian", lepanto.KindChit):
			var used []int
			for _, m := range regexp.MustCompile(`(?m)^standing (\d+)$`).FindAllStringSubmatch(blk, -1) {
				n, _ := strconv.Atoi(m[1])
				used = append(used, n)
			}
			used = append(used, stay)
			slices.Sort(used)
			lines := ""
			for _, n := range used {
				lines += "\nstanding " + strconv.Itoa(n)
			}
			blk = regexp.MustCompile(`(?m)\nstanding \d+$`).ReplaceAllString(blk, "")
			b[i] = regexp.MustCompile(`(?m)^(inputs-hash \w+)$`).ReplaceAllString(blk, "$1"+lines)
			moved = true
		}
	}
	if !moved {
		t.Fatal("no later step applies alice's LEADERS STAY")
	}
	var key ed25519.PrivateKey
	var err error
	f.s.View(func(tx *store.Tx) error { key, err = store.InstallationKey(tx); return err })
	forged, err := gamelog.ParseFile(forge.Rechain(t, key, b))
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(forged, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
		t.Fatalf("the forgery should verify (only the rules tell it): %v", rep.Failure)
	}
	if _, err := play.Replay(forged, []adjudicator.Ruleset{lepanto.Ruleset}); err == nil || !strings.Contains(err.Error(), "declares the standing orders") {
		t.Errorf("replay of a draw that does not declare the rules' chit kinds: %v", err)
	}
}

// checkHoldFireUsedByPlainStep: in the referee's copy, alice's HOLD FIRE record (of the
// plain kind) was used by a close whose activation applies every kind of her side's, and her
// LEADERS STAY record (kind chit, its seal showing the kind) by one that names christian/chit.
func (f *fixture) checkHoldFireUsedByPlainStep() {
	f.t.Helper()
	file, err := gamelog.ParseFile(f.fullExport())
	if err != nil {
		f.t.Fatal(err)
	}
	kindOf := map[uint64]string{} // alice's standing records: index → "hold" or "chit"
	var act []string
	seen := map[string]bool{}
	for _, e := range file.Entries {
		r := e.Record
		switch {
		case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeStanding && e.Inner != nil && e.Inner.Get("player") == "alice":
			lines := strings.Join(e.Inner.All("line"), "\n")
			if strings.Contains(lines, "HOLD FIRE") {
				kindOf[e.Index] = "hold"
				if r.Has("kind") || strings.Contains(lines, "LEADERS") {
					f.t.Errorf("record %d: HOLD FIRE in a record of kind %q with %q", e.Index, r.Get("kind"), lines)
				}
			}
			if strings.Contains(lines, "LEADERS STAY") {
				kindOf[e.Index] = "chit"
				if r.Get("kind") != "chit" || e.Inner.Get("kind") != "chit" {
					f.t.Errorf("record %d: LEADERS STAY in a record sealed as kind %q", e.Index, r.Get("kind"))
				}
			}
		case r.Type == gamelog.TypeActivation:
			act = strings.Fields(r.Get("standing"))
		case r.Type == gamelog.TypeClose:
			for _, s := range r.All("standing") {
				var i uint64
				for _, c := range s {
					i = i*10 + uint64(c-'0')
				}
				switch kindOf[i] {
				case "hold":
					seen["hold"] = true
					if !slices.Contains(act, "christian") {
						f.t.Errorf("alice's HOLD FIRE used by a close whose activation applies %v", act)
					}
				case "chit":
					seen["chit"] = true
					if !slices.Contains(act, "christian/chit") {
						f.t.Errorf("alice's LEADERS STAY used by a close whose activation applies %v", act)
					}
				}
			}
		}
	}
	if !seen["hold"] || !seen["chit"] {
		f.t.Errorf("alice's standing records used: %v", seen)
	}
}

// verifyCopies verifies each side's copy and the referee's, and replays the referee's.
func (f *fixture) verifyCopies() {
	f.t.Helper()
	for _, side := range []string{"christian", "ottoman"} {
		file, err := gamelog.ParseFile(f.sideExport(side))
		if err != nil {
			f.t.Fatal(err)
		}
		if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
			f.t.Errorf("%s's copy: %v", side, rep.Failure)
		}
	}
	f.checkLog()
	file, err := gamelog.ParseFile(f.fullExport())
	if err != nil {
		f.t.Fatal(err)
	}
	if rp, err := play.Replay(file, []adjudicator.Ruleset{lepanto.Ruleset}); err != nil || rp.Incomplete != "" {
		f.t.Errorf("replay: %v (%s)", err, rp.Incomplete)
	}
}
