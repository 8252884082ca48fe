package host

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// game list shows state, whose move, the deadline and who is late (issue 16.2); Figures
// counts the same for the metrics (issue 16.3).
func TestListAndFigures(t *testing.T) {
	f := newFixture(t)
	list := func() string {
		t.Helper()
		lines, err := f.h.List()
		if err != nil || len(lines) != 1 {
			t.Fatalf("List: %q, %v", lines, err)
		}
		return lines[0]
	}
	if l := list(); !strings.HasPrefix(l, fmt.Sprintf("%-10s lepanto1571 lions-at-sea joining", f.tag)) || strings.Contains(l, "to move") {
		t.Errorf("a game waiting for its players: %q", l)
	}
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	queued := len(f.outbox())
	fig, err := f.h.Figures()
	if err != nil {
		t.Fatal(err)
	}
	if fig.Games["playing"] != 1 || fig.Deadlines != 1 || fig.Overdue != 0 || fig.OutboxDepth != queued+len(welcome) || len(fig.OutboxSeqs) != fig.OutboxDepth {
		t.Errorf("figures of a game in play: %+v, want 1 playing with its deadline and %d queued", fig, queued+len(welcome))
	}
	l := list()
	if !strings.Contains(l, " playing; T1 A0; to move: ") || !strings.Contains(l, "christian (alice)") || !strings.Contains(l, "ottoman (bob)") ||
		!strings.Contains(l, "; deadline 2026-12-04 09:00 UTC") || strings.Contains(l, "late") {
		t.Errorf("a game in play: %q", l)
	}
	f.now = f.now.Add(80 * time.Hour) // past the deadline, before the deadline loop acts
	if l := list(); !strings.Contains(l, "; late: christian (alice), ottoman (bob)") {
		t.Errorf("a game past its deadline: %q", l)
	}
	if fig, _ := f.h.Figures(); fig.Overdue != 1 {
		t.Errorf("figures past the deadline: %+v, want 1 overdue", fig)
	}
	f.ref("PAUSE")
	if l := list(); !strings.Contains(l, " paused") || strings.Contains(l, "late") {
		t.Errorf("a paused game: %q", l)
	}
	if fig, _ := f.h.Figures(); fig.Games["paused"] != 1 || fig.Deadlines != 0 {
		t.Errorf("figures of a paused game: %+v, want 1 paused, no deadline running", fig)
	}
}
