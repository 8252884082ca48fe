package lepanto

import (
	"errors"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
)

func newGame(t testing.TB) *Game {
	t.Helper()
	g, err := Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}

func TestParseOrders(t *testing.T) {
	g := newGame(t)
	text := "# my orders\r\nbar-ven1 move 0610 r 0710 face n fire sir-egy1 repair\n\nBAR-VEN2 PASS  # hold\nBARBARIGO to bar-ven1\nACTIVATE sir\n" +
		"can-gal fire sir-egy1 fire sir-egy2\nhold fire bar\nreact bar-ven1 ram\nleaders stay\ncaptain bar on bar-lant\nboard bar-ven1\n" +
		"bar-ven1 move to 0813 facing ne ram sir-egy1 abort below 4 grapple\nevade bar stern\nevade bar-ven2 bow n\nlet burn bar-ven1\nextinguish bar\naim bar squadron\n" +
		"return bar-ven1 at 0813 facing sw\nengaged stay\nEND\nBAR-VEN3 MOVE 0612\n"
	orders, errs := g.Parse("christian", text)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := []string{"BAR-VEN1 MOVE 0610 R 0710 FACE N FIRE SIR-EGY1 REPAIR", "BAR-VEN2 PASS", "BARBARIGO TO BAR-VEN1", "ACTIVATE SIR",
		"CAN-GAL FIRE SIR-EGY1 FIRE SIR-EGY2", "HOLD FIRE BAR", "REACT BAR-VEN1 RAM", "LEADERS STAY", "CAPTAIN BAR ON BAR-LANT", "BOARD BAR-VEN1",
		"BAR-VEN1 MOVE TO 0813 FACING NE RAM SIR-EGY1 ABORT BELOW 4 GRAPPLE", "EVADE BAR STERN", "EVADE BAR-VEN2 BOW N", "LET BURN BAR-VEN1", "EXTINGUISH BAR", "AIM BAR SQUADRON",
		"RETURN BAR-VEN1 AT 0813 FACING SW", "ENGAGED STAY"}
	if got := adjudicator.Canonical(orders); got != strings.Join(want, "\n")+"\n" {
		t.Errorf("canonical orders:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if orders[0].Line() != 2 || orders[2].Line() != 5 {
		t.Errorf("lines %d, %d", orders[0].Line(), orders[2].Line())
	}
}

func TestParseOrdersRefuses(t *testing.T) {
	g := newGame(t)
	for _, bad := range []string{
		"BAR-VEN1", "BAR-VEN1 MOVE", "BAR-VEN1 MOVE 06100", "BAR-VEN1 MOVE FACE", "BAR-VEN1 MOVE FACE E",
		"BAR-VEN1 FIRE", "BAR-VEN1 FIRE X MOVE 0610", "BAR-VEN1 REPAIR REPAIR", "BAR-VEN1 JUMP",
		"ACTIVATE", "ACTIVATE A B", "BARBARIGO TO", "BAR-VEN1 PASS NOW", "BAR-VEN1 MOVE 0610 MOVE 0609",
		"HOLD FIRE", "HOLD FIRE BAR NOW", "REACT", "REACT BAR MOVE RAM", "LEADERS", "LEADERS GO", "CAPTAIN BAR",
		"CAPTAIN BAR AT BAR-LANT", "BOARD", "BOARD A B C",
		"BAR-VEN1 MOVE TO", "BAR-VEN1 MOVE 0610 TO 0611", "BAR-VEN1 MOVE TO 0611 FACING E", "BAR-VEN1 STACK BAR-VEN2 MOVE TO 0611",
		"BAR-VEN1 MOVE 0610 RAM X ABORT", "BAR-VEN1 MOVE 0610 RAM X ABORT BELOW 1", "EVADE BAR", "EVADE BAR LEFT", "EVADE BAR BOW W", "EVADE BAR STERN N S", "LET BURN", "EXTINGUISH",
		"AIM BAR", "AIM BAR LEADER", "RETURN BAR-VEN1", "RETURN BAR-VEN1 AT 0611 FACING", "ENGAGED", "ENGAGED NOW",
	} {
		_, errs := g.Parse("christian", "BAR-VEN2 PASS\n"+bad)
		if len(errs) != 1 || errs[0].Line != 2 || !errors.Is(errs[0].Err, adjudicator.ErrNotUnderstood) {
			t.Errorf("Parse(%q) = %v, want one not-understood error on line 2", bad, errs)
		}
	}
}

// FuzzParseOrders: no text panics the parser; an accepted order reads back to itself.
func FuzzParseOrders(f *testing.F) {
	g := newGame(f)
	f.Add("BAR-VEN1 MOVE 0610 R 0710 FACE N FIRE SIR-EGY1 REPAIR\nBAR-VEN2 PASS")
	f.Add("ACTIVATE SIR\nSIR-EGY1 MOVE PIVOT S\nEND")
	f.Add("DECANAL TO CAN-GAL # move\r\n")
	f.Add("BAR-LANT STACK BAR-VEN2 MOVE 1009 DROP BAR-VEN2 1008\nBARBARIGO ON BAR-LANT HIDDEN\nBAR-VEN1 MOVE 1011 RAM SIR-EGY1 ONCE GRAPPLE\nX DISENGAGE 1011")
	f.Add("HOLD FIRE BAR MOVE\nREACT BAR-VEN1\nLEADERS STAY\nCAPTAIN BAR ON BAR-LANT\nBOARD BAR-VEN1 SIR-EGY1\nBAR-VEN1 PASS")
	f.Add("BAR-VEN1 MOVE ROW TO 0813 FACING NE RAM SIR-EGY1 ABORT BELOW 4\nEVADE BAR STERN\nLET BURN BAR\nAIM BAR SINGLE\nRETURN BAR-VEN1 AT 0813\nENGAGED ASK")
	f.Fuzz(func(t *testing.T, text string) {
		orders, _ := g.Parse("christian", text)
		canon := adjudicator.Canonical(orders)
		again, errs := g.Parse("christian", canon)
		if len(errs) > 0 || adjudicator.Canonical(again) != canon {
			t.Fatalf("canonical %q reads back as %q (%v)", canon, adjudicator.Canonical(again), errs)
		}
		g.Validate("christian", orders)
		for _, wait := range []string{waitGroup, waitFury, waitLeaderMove, waitDisengage, waitBoarding} {
			h := newGame(t)
			h.SetUp, h.Turn, h.Cup, h.Drawer = true, 1, []string{ChitBoarding}, "christian"
			h.Wait, h.WaitSides, h.WaitGroup = wait, []string{"christian"}, "BAR"
			if wait == waitFury {
				h.WaitGroup = ChitBragadin
				h.group("BAR").Acted = true
			}
			if len(h.Validate("christian", orders)) == 0 {
				if _, err := h.Resolve(map[string][]adjudicator.Order{"christian": orders}, fixedDice{}); err != nil {
					t.Fatalf("valid orders %q fail to resolve: %v", canon, err)
				}
			}
		}
	})
}

// TestAdvanceOrders: held orders answer the step they belong to (group orders, LEADER TO and
// LEADERS STAY at a Leader Move chit, BOARD at a Boarding chit), standing orders come along
// with them but answer no step alone, and what is not due now is Later.
func TestAdvanceOrders(t *testing.T) {
	g := newGame(t)
	g.SetUp, g.Turn = true, 1
	held, errs := g.Parse("christian", "BAR-VEN1 PASS\nCAN-GAL PASS\nDECANAL TO CAN-GAL\nBOARD BAR-VEN1\nHOLD FIRE BAR\nLEADERS STAY")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		wait, group       string
		applicable, later string
	}{
		{waitGroup, "BAR", "BAR-VEN1 PASS|HOLD FIRE BAR|LEADERS STAY", "CAN-GAL PASS|DECANAL TO CAN-GAL|BOARD BAR-VEN1"},
		{waitLeaderMove, ChitLeaderMove, "DECANAL TO CAN-GAL|HOLD FIRE BAR|LEADERS STAY", "BAR-VEN1 PASS|CAN-GAL PASS|BOARD BAR-VEN1"},
		{waitBoarding, ChitBoarding, "BOARD BAR-VEN1|HOLD FIRE BAR|LEADERS STAY", "BAR-VEN1 PASS|CAN-GAL PASS|DECANAL TO CAN-GAL"},
		{waitDisengage, ChitDisengage, "", "BAR-VEN1 PASS|CAN-GAL PASS|DECANAL TO CAN-GAL|BOARD BAR-VEN1|HOLD FIRE BAR|LEADERS STAY"},
	} {
		g.Wait, g.WaitSides, g.WaitGroup = c.wait, []string{"christian"}, c.group
		join := func(o []adjudicator.Order) string {
			return strings.ReplaceAll(strings.TrimSpace(adjudicator.Canonical(o)), "\n", "|")
		}
		if got := join(g.Applicable("christian", held)); got != c.applicable {
			t.Errorf("%s: Applicable = %q, want %q", c.wait, got, c.applicable)
		}
		if got := join(g.Later("christian", held)); got != c.later {
			t.Errorf("%s: Later = %q, want %q", c.wait, got, c.later)
		}
		if got := g.Applicable("ottoman", held); got != nil {
			t.Errorf("%s: Applicable for a side not asked = %v", c.wait, got)
		}
	}
	alone, _ := g.Parse("christian", "HOLD FIRE BAR")
	g.Wait, g.WaitGroup = waitGroup, "BAR"
	if got := g.Applicable("christian", alone); got != nil {
		t.Errorf("standing orders alone answer a step: %v", got)
	}
	if got := g.Later("christian", alone); len(got) != 1 {
		t.Errorf("standing orders alone are not held for the next step: Later = %v", got)
	}
}

// TestAdvanceFuryAndDisengage: an ACTIVATE line sent ahead, with the unit lines of its group
// that follow it, answers a fury chit that may activate that group again (2.4.2), and is not
// taken for the group's own activation; DISENGAGE lines sent ahead answer the Disengage chit
// (2.4.4).
func TestAdvanceFuryAndDisengage(t *testing.T) {
	g := newGame(t)
	g.SetUp, g.Turn = true, 1
	held, errs := g.Parse("christian", "BAR-VEN1 PASS\nACTIVATE BAR\nBAR-VEN2 PASS\nCAN-GAL PASS\nBAR-VEN3 DISENGAGE 1009")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	join := func(o []adjudicator.Order) string {
		return strings.ReplaceAll(strings.TrimSpace(adjudicator.Canonical(o)), "\n", "|")
	}
	g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{"christian"}, "BAR"
	if got := join(g.Applicable("christian", held)); got != "BAR-VEN1 PASS" {
		t.Errorf("group BAR: Applicable = %q, want the lines before ACTIVATE", got)
	}
	if got := join(g.Later("christian", held)); got != "ACTIVATE BAR|BAR-VEN2 PASS|CAN-GAL PASS|BAR-VEN3 DISENGAGE 1009" {
		t.Errorf("group BAR: Later = %q", got)
	}
	g.group("BAR").Acted = true
	g.Wait, g.WaitGroup = waitFury, "bragadin"
	if got := join(g.Applicable("christian", held)); got != "ACTIVATE BAR|BAR-VEN2 PASS" {
		t.Errorf("fury: Applicable = %q, want ACTIVATE BAR and its group's lines after it", got)
	}
	if errs := g.Validate("christian", g.Applicable("christian", held)); len(errs) > 0 {
		t.Errorf("fury: the held orders used are refused: %v", errs)
	}
	g.group("BAR").Acted = false
	if got := g.Applicable("christian", held); got != nil {
		t.Errorf("fury for a group that has not acted: Applicable = %v", got)
	}
	g.engage(g.unit("BAR-VEN3"), g.unit("SIR-EGY1"))
	g.Wait, g.WaitSides, g.WaitGroup = waitDisengage, []string{"christian", "ottoman"}, ChitDisengage
	if got := join(g.Applicable("christian", held)); got != "BAR-VEN3 DISENGAGE 1009" {
		t.Errorf("disengage: Applicable = %q", got)
	}
}

// TestEncodeIsDeterministic: two games played with the same orders and dice encode the same
// bytes at every step (the state hash replay compares).
func TestEncodeIsDeterministic(t *testing.T) {
	a, b := newGame(t), newGame(t)
	for i := 0; i < 40 && !a.Over; i++ {
		if string(a.Encode()) != string(b.Encode()) {
			t.Fatalf("step %d: states differ", i)
		}
		for _, g := range []*Game{a, b} {
			st := g.Next()
			if _, err := g.Resolve(nil, &fixedDice{}); err != nil {
				t.Fatalf("step %d (%s): %v", i, st.What, err)
			}
		}
	}
	if a.Turn < 2 {
		t.Errorf("only reached turn %d", a.Turn)
	}
	if st := newGame(t).Next(); st.Default == "" || !st.Secret {
		t.Errorf("the set-up step %+v has no no-orders policy or is not secret", st)
	}
}

// fixedDice answers every request with ones: enough to walk the sequence.
type fixedDice struct{}

func (fixedDice) Roll(label string, sides, count int) (*dice.Roll, error) {
	v := make([]int, count)
	for i := range v {
		v[i] = 1
	}
	return &dice.Roll{Label: label, Sides: sides, Count: count, Values: v}, nil
}

// TestMoveToEchoesPath: a MOVE TO order holds, once validated, the path of fewest MP it
// takes, so that the receipt and the log show the path; a path given still works, and an
// order held for later keeps its destination until it is due.
func TestMoveToEchoesPath(t *testing.T) {
	g := newGame(t)
	g.SetUp, g.Turn = true, 1
	g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{"christian"}, "BAR"
	u := g.unit("BAR-VEN1")
	u.Hex, u.Facing = Hex{10, 12}, N
	orders, errs := g.Parse("christian", "BAR-VEN1 MOVE TO 1110 FACING NE\nCAN-GAL MOVE TO 0913")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := adjudicator.Canonical(orders[1:]); got != "CAN-GAL MOVE TO 0913\n" {
		t.Errorf("an order not yet validated: %q", got)
	}
	if errs := g.Validate("christian", orders[:1]); len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := adjudicator.Canonical(orders[:1]); got != "BAR-VEN1 MOVE 1011 1010 1110\n" {
		t.Errorf("validated MOVE TO reads %q, want the path it takes", got)
	}
	again, _ := g.Parse("christian", adjudicator.Canonical(orders[:1]))
	if errs := g.Validate("christian", again); len(errs) > 0 {
		t.Errorf("the path a MOVE TO took is refused: %v", errs)
	}
}
