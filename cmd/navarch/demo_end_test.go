package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"navarch/test/racesplit"
)

// Each ruleset's largest scenario played through the daemon by mail with the bots until the
// rules end it (docs/DEVELOPING.md): the referee's ENDGAME is never sent, both players get the
// game-over mail, replay re-runs every step to the same states, and every exported log
// verifies. Under the race detector only Knidos plays, drawing its maps, so that the drawer
// races with the host there to the rules' end: Lepanto and Sluys skip (racesplit.Long, the
// detector slowing them to minutes; NAVARCH_RACE_LONG=1 plays them under it with demo
// -maps=false, Sluys's 290 maps, pixel loops every one, taking ten minutes there) and make
// long plays them without it, drawing their maps. Each runs in parallel with the others and
// with TestDemoBeacon, which mostly waits for its beacon's rounds.

// TestDemoLepantoToTheEnd: the whole Battle of Lepanto (some two hundred galleys in thirty
// groups, seven game turns). -short skips it. The race detector slows it to three minutes,
// most of make test's longest package: under it the test is skipped unless NAVARCH_RACE_LONG
// is set, and make test plays it without the detector (make long), drawing its maps; the
// daemon's concurrency is raced by Sluys and Knidos to the end, under the detector.
func TestDemoLepantoToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game by mail")
	}
	racesplit.Long(t)
	t.Parallel()
	out := demoToTheEnd(t, []string{"-rules", "lepanto1571", "-scenario", "battle-of-lepanto", "-turns", "99"}, !raceDetector,
		"game.log", "christian.log", "ottoman.log")
	if !strings.Contains(out, "result       ") {
		t.Error("replay names no result")
	}
}

// TestDemoMedievalToTheEnd: Sluys (fifteen ships, six Divisions, eighteen cards a turn), to
// the rules' own end after its eighth turn. -short skips it, and the race detector (make long
// plays it: 15 s against a minute under the detector).
func TestDemoMedievalToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game by mail")
	}
	racesplit.Long(t)
	t.Parallel()
	out := demoToTheEnd(t, []string{"-rules", "medieval", "-scenario", "sluys-1340", "-turns", "9"}, !raceDetector,
		"english.log", "french.log")
	if !strings.Contains(out, "the battle ends after turn 8") {
		t.Error("the battle does not end after turn 8")
	}
}

// TestDemoOiNavarcoiToTheEnd: Knidos, with its maps.
func TestDemoOiNavarcoiToTheEnd(t *testing.T) {
	t.Parallel()
	out := demoToTheEnd(t, []string{"-rules", "oinavarcoi", "-scenario", "knidos", "-turns", "99"}, true,
		"game.log", "persia.log", "sparta.log")
	if !strings.Contains(out, "result       ") {
		t.Error("replay names no result")
	}
}

// demoToTheEnd runs navarch demo with args (maps drawn or not) to the rules' end and checks
// what every such game must show; it returns the demo's output.
func demoToTheEnd(t *testing.T, args []string, maps bool, logs ...string) string {
	t.Helper()
	dir := t.TempDir()
	args = append([]string{"demo", "-out", dir}, args...)
	if !maps {
		args = append(args, "-maps=false")
	}
	code, out, errs := navarch(args...)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out, "ENDGAME") {
		t.Error("the referee ended the game: it did not reach the rules' end")
	}
	for _, want := range []string{"alice ← Game over", "bob   ← Game over", "$ navarch replay"} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	// A battle may end early by the rules (Knidos once ended after 8 steps, the demo's dice
	// being new each run): a whole game is more than its set-up and first step.
	m := regexp.MustCompile(`steps +(\d+) re-run, (\d+) states matched`).FindStringSubmatch(out)
	steps := 0
	if m != nil && m[1] == m[2] {
		steps, _ = strconv.Atoi(m[1])
	}
	if steps < 3 {
		t.Errorf("replay did not match every step of a whole game: %v", m)
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	for _, log := range logs {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png")); maps != (len(pngs) > 0) {
		t.Errorf("%d maps saved, want them drawn: %t", len(pngs), maps)
	}
	if i := strings.LastIndex(out, "$ navarch replay"); i >= 0 {
		t.Logf("%s", out[i:])
	}
	return out
}
