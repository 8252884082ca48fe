package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoLepantoToTheEnd plays Lepanto 1571's largest scenario, the whole battle (some two
// hundred galleys in thirty groups, seven game turns), through the daemon by mail with the
// bots until the rules end it (no referee's ENDGAME), and requires the exported logs to pass
// verify and replay. -short skips it; under the race detector the daemon draws no maps (demo
// -maps=false), as in TestDemoMedievalToTheEnd.
func TestDemoLepantoToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game by mail")
	}
	dir := t.TempDir()
	args := []string{"demo", "-out", dir, "-rules", "lepanto1571", "-scenario", "battle-of-lepanto", "-turns", "99"}
	if raceDetector {
		args = append(args, "-maps=false")
	}
	code, out, errs := navarch(args...)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out, "ENDGAME") {
		t.Error("the referee ended the game: it did not reach the rules' end")
	}
	for _, want := range []string{"alice ← game over: ", "bob   ← game over: ", "$ navarch replay", "result       "} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`steps +(\d+) re-run, (\d+) states matched`).FindStringSubmatch(out); m == nil || m[1] != m[2] || len(m[1]) < 3 {
		t.Errorf("replay did not match every step of a whole game: %v", m)
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	for _, log := range []string{"game.log", "christian.log", "ottoman.log"} {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png")); raceDetector != (len(pngs) == 0) {
		t.Errorf("%d maps saved; the race detector's game draws none, the other all", len(pngs))
	}
	t.Logf("%s", out[strings.LastIndex(out, "$ navarch replay"):])
}
