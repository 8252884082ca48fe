package oinavarcoi

import (
	"errors"
	"hash/fnv"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
)

// TestParseOrdersBadInput: every malformed line is refused as not understood, with the
// grammar, and nothing else on the text is lost.
func TestParseOrdersBadInput(t *testing.T) {
	for _, line := range []string{
		"SQ1", "SQ1 MOVE -3", "SQ1 MOVE 1.234", "SQ1 MOVE 999", "SQ1 WHEEL 45", "SQ1 WHEEL X 45",
		"SQ1 WHEEL L 0", "SQ1 WHEEL L 200", "SQ1 TURN R", "SQ1 BACK", "SQ1 FLY", "SQ1 DIEKPLOUS",
		"SQ1 DIEKPLOUS SQ7 MOVE 3", "SQ1 PERIPLOUS S$", "SIGNAL", "SIGNAL TURN-UP WING LEFT",
		"SIGNAL ENGAGE WING MIDDLE", "SIGNAL ENGAGE LEFT", "MOVE THIRD", "MOVE", "DEPLOY",
		"DEPLOY SQ1 30,12", "DEPLOY SQ1 AT 30", "DEPLOY SQ1 AT 30,x", "DEPLOY SQ1 AT 30,12 FACING 400",
		"DEPLOY SQ1 AT 30,12 WING", "DEPLOY SQ1 AT 30,12 EPI-MIAS EPI-MIAS", "HOLD", "S%Q HOLD",
		"SQ1 SAIL UPWIND", "SQ1 REFORM", "SQ1 REFORM UNFORMED", "SQ1 HOLD NOW", strings.Repeat("A", 30) + " HOLD",
		"OMEN", "NAVARCH", "OMEN A1 A1", "OMEN A1 MOVE", "NAVARCH A$", "OMEN DEFAULT A1", "NAVARCH " + strings.Repeat("A1 ", 13),
		"OMEN " + strings.Repeat("B", 30),
	} {
		orders, errs := ParseOrders("A1 HOLD\n" + line + "\nA2 HOLD")
		if len(errs) != 1 || errs[0].Line != 2 || !errors.Is(errs[0].Err, adjudicator.ErrNotUnderstood) || len(errs[0].Legal) == 0 {
			t.Errorf("%q: errors %v", line, errs)
		}
		if len(orders) != 2 {
			t.Errorf("%q: the good lines were lost: %v", line, orders)
		}
	}
}

// TestParseOrdersGood: the rulebook's words read back canonically.
func TestParseOrdersGood(t *testing.T) {
	for in, want := range map[string]string{
		"sq3 epi-keras move 8":             "SQ3 EPI-KERAS MOVE 8",
		"SQ1 WHEEL L 45 MOVE 4":            "SQ1 WHEEL L 45 MOVE 4",
		"SQ2 DIEKPLOUS SQ7":                "SQ2 DIEKPLOUS SQ7",
		"signal turn-right wing left":      "SIGNAL TURN-RIGHT WING LEFT",
		"SQ3 MOVE 3 TURN R 45 MOVE 5  # x": "SQ3 MOVE 3 TURN R 45 MOVE 5",
		"DEPLOY SQ1 AT 30,12.5 WING LEFT STRATEGOS FACING 10 EPI-POLLON": "DEPLOY SQ1 AT 30,12.5 FACING 10 EPI-POLLON WING LEFT STRATEGOS",
		"move second":         "MOVE SECOND",
		"F1 SAIL DOWNWIND":    "F1 SAIL DOWNWIND",
		"SQ1 MOVE":            "SQ1 MOVE",
		"SQ1 REFORM EPI-MIAS": "SQ1 REFORM EPI-MIAS",
		"omen sq3 sq1":        "OMEN SQ3 SQ1",
		"NAVARCH default":     "NAVARCH DEFAULT",
	} {
		orders, errs := ParseOrders(in + "\nEND\nnonsense after END")
		if len(errs) > 0 || len(orders) != 1 || orders[0].String() != want {
			t.Errorf("%q: %v %v, want %q", in, orders, errs, want)
		}
	}
}

// TestValidateAnswersWithLegal: an illegal order is answered with what would be legal.
func TestValidateAnswersWithLegal(t *testing.T) {
	g := newScenario(t, "clash")
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove1, "athens"
	orders, _ := ParseOrders("S1 MOVE\nA1 BACK 2\nA1 HOLD\nA3 BACK 2")
	errs := g.Validate("athens", orders)
	if len(errs) != 3 {
		t.Fatalf("errors %v", errs)
	}
	for _, e := range errs {
		if !errors.Is(e.Err, adjudicator.ErrIllegal) {
			t.Errorf("%v is not ErrIllegal", e)
		}
	}
	if !strings.Contains(errs[0].Error(), "legal: A1, A2, A3") {
		t.Errorf("no list of own squadrons: %v", errs[0])
	}
	if !strings.Contains(errs[2].Error(), "A3 MOVE 8") {
		t.Errorf("no legal moves for A3: %v", errs[2])
	}
}

// hashRoller gives each label a fixed value: a pure function of the label.
type hashRoller struct{}

func (hashRoller) Roll(label string, sides, count int) (*dice.Roll, error) {
	h := fnv.New32a()
	h.Write([]byte(label))
	v := h.Sum32()
	r := &dice.Roll{Label: label, Sides: sides, Count: count}
	for i := 0; i < count; i++ {
		r.Values = append(r.Values, int(v%uint32(sides))+1)
		v /= uint32(sides)
	}
	return r, nil
}

func FuzzParseOrders(f *testing.F) {
	f.Add("SQ3 EPI-KERAS MOVE 8\nSQ1 WHEEL L 45 MOVE 4\nSQ2 DIEKPLOUS SQ7\nSIGNAL TURN-RIGHT WING LEFT")
	f.Add("A1 MOVE\nA2 WHEEL R 30 MOVE 2\nA3 DIEKPLOUS S3\nSIGNAL ENGAGE WING LEFT")
	f.Add("DEPLOY A1 AT 20,12 FACING 0 EPI-POLLON WING CENTRE STRATEGOS\nSIGNAL ENGAGE WING CENTRE")
	f.Add("MOVE FIRST\nA1 ABOUT\nA2 BACK 2 # back\r\nA3 TURN L 90 MOVE 8\nEND")
	f.Add("A1 PERIPLOUS S1\nA2 REFORM KYKLOS\nA3 KYKLOS\nF1 SAIL LEFT")
	f.Add("OMEN A3 A1\nNAVARCH A2\nA1 HOLD\nNAVARCH DEFAULT\nOMEN S1")
	f.Add("A1 IF 4+ WHEEL L 30 MOVE ELSE BACK 2\nA2 IF 3 PERIPLOUS S2\nSHARE A2 A1\nINITIATIVE SECOND\nINITIATIVE DEFAULT")
	f.Fuzz(func(t *testing.T, text string) {
		orders, _ := ParseOrders(text)
		canon := adjudicator.Canonical(orders)
		again, errs := ParseOrders(canon)
		if len(errs) > 0 || adjudicator.Canonical(again) != canon {
			t.Fatalf("canonical %q reads back as %q (%v)", canon, adjudicator.Canonical(again), errs)
		}
		for _, phase := range []string{"deploy", phaseChoose, phaseMove1, phaseMove2} {
			g := newScenario(t, "clash")
			g.Deployed, g.Turn, g.Phase, g.First, g.Winner = true, 1, phase, "athens", "athens"
			if phase == phaseMove2 {
				g.First = "sparta"
			}
			if phase == "deploy" {
				g.Deployed, g.Turn, g.Phase = false, 0, ""
			}
			g.Signals[0] = []SignalEntry{{Kind: "ENGAGE", Wing: "LEFT"}, {Kind: "TURN-RIGHT", Wing: "LEFT"}}
			if len(g.Validate("athens", orders)) == 0 {
				if _, err := g.Resolve(map[string][]adjudicator.Order{"athens": orders}, hashRoller{}); err != nil {
					t.Fatalf("valid orders %q fail to resolve in %s: %v", canon, phase, err)
				}
			}
		}
	})
}

// TestResolveUnvalidated: Resolve given orders Validate would refuse (another side's or an
// unknown squadron, a signal not in the list) ignores them instead of panicking.
func TestResolveUnvalidated(t *testing.T) {
	for _, phase := range []string{"deploy", phaseChoose, phaseMove1} {
		g := newScenario(t, "amphibious")
		g.Deployed, g.Turn, g.Phase, g.First, g.Winner = true, 1, phase, "athens", "athens"
		if phase == "deploy" {
			g.Deployed, g.Turn, g.Phase = false, 0, ""
		}
		orders, _ := ParseOrders("S1 MOVE\nX9 MOVE\nSIGNAL ENGAGE WING LEFT\nDEPLOY S1 AT 20,12\nPHALANX HS1 MOVE\nPHALANX NOPE DEPLOY")
		if _, err := g.Resolve(map[string][]adjudicator.Order{"athens": orders}, hashRoller{}); err != nil {
			t.Errorf("%s: %v", phase, err)
		}
		if s := g.sq("S1"); s.Pose.At.Y != 3600 {
			t.Errorf("%s: sparta's S1 moved by athens's orders: %v", phase, s.Pose)
		}
	}
}

// TestNotUnderstoodShowsTheStep: a line not understood is answered with the forms the step
// takes now (deployment, the initiative choice, movement), then the movement forms that may
// be sent ahead; never a form of another step as if it were legal now.
func TestNotUnderstoodShowsTheStep(t *testing.T) {
	g := newScenario(t, "clash")
	legal := func(side string) string {
		t.Helper()
		_, errs := g.Parse(side, "A1 FLY")
		if len(errs) != 1 || len(errs[0].Legal) != 1 {
			t.Fatalf("errors %v", errs)
		}
		return errs[0].Legal[0]
	}
	check := func(what, got string, want, not []string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", what, got, w)
			}
		}
		for _, w := range not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q has %q", what, got, w)
			}
		}
	}
	check("deployment", legal("athens"), []string{"now: DEPLOY SQ AT", "OMEN SQ1", "later, for your movement: SQ MOVE"}, []string{"MOVE FIRST", "PHALANX"})
	g.Deployed, g.Turn, g.Phase, g.Winner = true, 1, phaseChoose, "athens"
	check("the winner's choice", legal("athens"), []string{"now: MOVE FIRST | MOVE SECOND", "later, for your movement: SQ MOVE"}, []string{"DEPLOY", "PHALANX"})
	check("the loser, not asked", legal("sparta"), []string{"later, for your movement: SQ MOVE", "OMEN SQ1"}, []string{"now:", "MOVE FIRST", "DEPLOY"})
	g.Phase, g.First = phaseMove1, "athens"
	check("movement", legal("athens"), []string{"now: SQ MOVE [D]", "FR SAIL", "OMEN SQ1"}, []string{"later", "DEPLOY", "MOVE FIRST"})
}
