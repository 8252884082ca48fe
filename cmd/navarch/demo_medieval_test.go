package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoMedievalToTheEnd plays the largest medieval scenario, Sluys (fifteen ships, six
// Divisions, eighteen cards a turn), through the daemon by mail with the bots to the rules'
// own end after its eighth turn (no referee's ENDGAME), and requires the exported logs to
// pass verify and replay. Ten to thirty seconds; -short skips it. Under the race detector the
// daemon draws no maps (demo -maps=false): its 290 maps, pixel loops every one, took ten
// minutes there; the drawer still races with the host under the detector in Knidos's game
// to the end (TestDemoOiNavarcoiToTheEnd), which draws its maps.
func TestDemoMedievalToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game by mail")
	}
	dir := t.TempDir()
	args := []string{"demo", "-out", dir, "-rules", "medieval", "-scenario", "sluys-1340", "-turns", "9"}
	if raceDetector {
		args = append(args, "-maps=false")
	}
	code, out, errs := navarch(args...)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"the battle ends after turn 8", "alice ← Game over", "bob   ← Game over", "$ navarch replay"} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`steps +(\d+) re-run, (\d+) states matched`).FindStringSubmatch(out); m == nil || m[1] != m[2] || len(m[1]) < 3 {
		t.Errorf("replay did not match every step of a whole game: %v", m)
	}
	if strings.Contains(out, "ENDGAME") {
		t.Errorf("the referee ended the game; the rules should have")
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	for _, log := range []string{"english.log", "french.log"} {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png")); raceDetector != (len(pngs) == 0) {
		t.Errorf("%d maps saved; the race detector's game draws none, the other all", len(pngs))
	}
	t.Logf("%s", out[strings.LastIndex(out, "$ navarch replay"):])
}
