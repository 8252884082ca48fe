package main

import (
	"strings"
	"testing"
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
