package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"navarch/test/racesplit"
)

// TestGameNewTeams: game new shares sides among players with -command (and -commander);
// the full log holds each player's assignment, sealed for his side, the other side's copy
// none of them; a command the side does not have is refused and nothing is created.
func TestGameNewTeams(t *testing.T) {
	_, cfg, _ := testConfig(t)
	players := []string{"-player", "alice:christian:alice@example.org", "-player", "carol:christian:carol@example.org",
		"-player", "bob:ottoman:bob@example.com", "-player", "dave:ottoman:dave@example.com"}
	bad := append([]string{"game", "new", "-config", cfg, "-scenario", "battle-of-lepanto", "-command", "alice:LEFT,NOWHERE"}, players...)
	if code, out, errs := navarch(bad...); code != 1 || !strings.Contains(errs, `no command "NOWHERE"`) {
		t.Errorf("a command the side lacks: exit %d\n%s%s", code, out, errs)
	}
	for _, c := range [][]string{{"-command", "alice"}, {"-command", "alice:LEFT", "-commander", "zed"}} {
		bad := append(append([]string{"game", "new", "-config", cfg, "-scenario", "battle-of-lepanto"}, c...), players...)
		if code, out, errs := navarch(bad...); code != 1 || !strings.Contains(errs, c[len(c)-1]) {
			t.Errorf("%v: exit %d\n%s%s", c, code, out, errs)
		}
	}
	args := append([]string{"game", "new", "-config", cfg, "-scenario", "battle-of-lepanto",
		"-command", "alice:LEFT,CENTER", "-command", "carol:reserve,right", "-command", "bob:RIGHT,CENTER", "-command", "dave:RESERVE,LEFT",
		"-commander", "carol,bob"}, players...)
	code, out, errs := navarch(args...)
	if code != 0 {
		t.Fatalf("game new: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	code, full, errs := navarch("game", "export", "-config", cfg, tag)
	if code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	for _, want := range []string{"side christian\nby referee\nplayer alice\ncommand LEFT\ncommand CENTER\n",
		"side christian\nby referee\nplayer carol\ncommander yes\ncommand RESERVE\ncommand RIGHT\n",
		"side ottoman\nby referee\nplayer bob\ncommander yes\ncommand RIGHT\ncommand CENTER\n"} {
		if !strings.Contains(full, want) {
			t.Errorf("the full log lacks the assignment\n%s", want)
		}
	}
	_, ottoman, _ := navarch("game", "export", "-config", cfg, "-side", "ottoman", tag)
	if strings.Contains(ottoman, "side christian\nby referee") || !strings.Contains(ottoman, "side ottoman\nby referee") {
		t.Errorf("the ottoman copy shows christian assignments, or lacks its own")
	}
}

// skipRaceLong skips a test of whole team games through the daemon under the race detector,
// unless NAVARCH_RACE_LONG is set: make test plays them without it (make long), and the
// daemon's concurrency is raced by the games to the rules' end and TestDemo; the team
// logic's own tests (host, play) run under the detector.
func skipRaceLong(t *testing.T) {
	t.Helper()
	racesplit.Long(t)
}

// TestDemoTeams runs navarch demo -players 4 on the battle of Lepanto: four bots a side, one
// per wing, play through the daemon by mail; steps ask one wing's player or every player of
// the sides; each side's copy of the log and the full one verify, and the full one replays;
// every player gets fewer mails than the lone player of each side in the same game.
func TestDemoTeams(t *testing.T) {
	skipRaceLong(t)
	lone := demoMails(t, "1")
	dir := t.TempDir()
	code, out, errs := navarch("demo", "-out", dir, "-scenario", "battle-of-lepanto", "-players", "4", "-turns", "1", "-maps=false")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2\n%s", n, out)
	}
	for _, log := range []string{"game.log", "christian.log", "ottoman.log"} {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "game.log"))
	if err != nil {
		t.Fatal(err)
	}
	// v5: an activation counts each team side's players asked; the sender records (sealed
	// for the side, in the full copy) name them.
	alone := regexp.MustCompile(`\nact\n(what|deadline|secret|standing) [^\n]*\n([a-z]+ [^\n]*\n)*team-asks christian 1\n\n`)
	if !alone.MatchString(string(data)) || !strings.Contains(string(data), "\nteam-asks christian 4\nteam-asks ottoman 4\n\n") {
		t.Errorf("no step asked one wing's player alone, or none every player")
	}
	sides := map[string][]string{"christian": {"alice", "carol", "erin", "grace"}, "ottoman": {"bob", "dave", "frank", "heidi"}}
	noNamesAcross(t, dir, sides)
	// Each side's copy of the log (navarch export -side) names no player of the other side
	// after the start record, which lists who joined, but in the unseal blocks, which every
	// copy of an ended game carries (docs/LOG-FORMAT.md 4).
	for side, other := range map[string]string{"christian": "ottoman", "ottoman": "christian"} {
		copy, err := os.ReadFile(filepath.Join(dir, side+".log"))
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(string(copy), "type start\n")
		_, rest, _ = strings.Cut(rest, "\n\n")
		var public []string
		for _, b := range strings.Split(rest, "\n\n") {
			if !strings.HasPrefix(b, "unseal ") {
				public = append(public, b)
			}
		}
		after := strings.Join(public, "\n\n")
		for _, p := range sides[other] {
			if regexp.MustCompile(`\b` + p + `\b`).MatchString(after) {
				t.Errorf("%s's copy names %s of %s after the start", side, p, other)
			}
		}
	}
	team := mailsByPlayer(t, dir)
	if len(team) != 8 {
		t.Fatalf("mail to %d players, want 8: %v", len(team), team)
	}
	for p, n := range team {
		if n >= min(lone["alice"], lone["bob"]) {
			t.Errorf("%s got %d mails, the lone players %v", p, n, lone)
		}
	}
}

// noNamesAcross checks that no mail to a player of one side names a player of the other
// (docs/DESIGN.md 3.8: the other side never learns which player commands what), but for the
// mails before play (the welcome, who has joined, play begins), which list every player
// with his side (the teams are public, their commands are not). Attachments (base64 lines) are not read.
func noNamesAcross(t *testing.T, dir string, teams map[string][]string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "mail", "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no mails in %s: %v", dir, err)
	}
	base64Line := regexp.MustCompile(`^[A-Za-z0-9+/=]{60,}$`)
	checked := 0
	for _, f := range files {
		name := filepath.Base(f)
		if strings.Contains(name, "-welcome") || strings.Contains(name, "-play-begins") || strings.Contains(name, "-you-have-joined") {
			continue
		}
		for side, players := range teams {
			var own bool
			for _, p := range players {
				own = own || strings.HasPrefix(name[4:], p+"-")
			}
			if !own {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, line := range strings.Split(string(data), "\n") {
				if base64Line.MatchString(strings.TrimSpace(line)) {
					continue
				}
				for other, names := range teams {
					for _, n := range names {
						if other != side && regexp.MustCompile(`\b`+n+`\b`).MatchString(line) {
							t.Errorf("%s, to a player of %s, names %s of %s: %q", name, side, n, other, line)
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no mail was checked")
	}
}

// demoMails plays the battle of Lepanto's demo for one turn with n players a side and
// counts each player's mails.
func demoMails(t *testing.T, n string) map[string]int {
	t.Helper()
	dir := t.TempDir()
	if code, out, errs := navarch("demo", "-out", dir, "-scenario", "battle-of-lepanto", "-players", n, "-turns", "1", "-maps=false"); code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	return mailsByPlayer(t, dir)
}

// mailsByPlayer counts a demo's mails by player ("012-alice-your-move….eml").
func mailsByPlayer(t *testing.T, dir string) map[string]int {
	t.Helper()
	mails, _ := filepath.Glob(filepath.Join(dir, "mail", "*.eml"))
	out := map[string]int{}
	for _, m := range mails {
		f := strings.SplitN(filepath.Base(m), "-", 3)
		if len(f) == 3 && f[1] != "referee" {
			out[f[1]]++
		}
	}
	return out
}

// TestDemoTeamsEachRuleset: two players a side in each ruleset's demo scenario play through
// the daemon; steps ask the second player of a side (carol, dave) as well as the first, and
// the log verifies and replays. Lions at Sea (13.2) has one wing a side, so its groups are
// dealt; a fury chit there asks a group's commander who is not the side's for the group's
// orders, which are the step's, not advance orders (or the step would wait for them).
func TestDemoTeamsEachRuleset(t *testing.T) {
	skipRaceLong(t)
	for _, c := range [][2]string{{"lepanto1571", "lions-at-sea"}, {"medieval", "sluys-1340"}, {"oinavarcoi", "knidos"}} {
		t.Run(c[0], func(t *testing.T) {
			dir := t.TempDir()
			code, out, errs := navarch("demo", "-out", dir, "-rules", c[0], "-scenario", c[1], "-players", "2", "-turns", "1", "-maps=false")
			if code != 0 || strings.Count(out, "\nPASS\n") != 2 {
				t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
			}
			data, err := os.ReadFile(filepath.Join(dir, "game.log"))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"alice", "carol", "bob", "dave"} {
				if !regexp.MustCompile(`\nplayer ` + p + `\n(for \S+\n)?received `).MatchString(string(data)) { // v5: its sender record
					t.Errorf("no orders record of %s", p)
				}
			}
		})
	}
}
