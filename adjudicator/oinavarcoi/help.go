package oinavarcoi

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"
)

// reach is how far the report looks for enemies: an 8" move and more.
const reach = 12 * table.Inch

// Help describes the order language, with what each of the side's squadrons may do now and
// the enemies in reach with distance and the side it would strike (rule Flank.only).
func (g *Game) Help(side string) string {
	var b strings.Builder
	b.WriteString(helpText)
	i := g.sc.SideIndex(side)
	if i < 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "\nYour %s.\n", g.standingText(i))
	if !g.Deployed {
		fmt.Fprintf(&b, "\nYour deployment zone: %s. Signals you may write: %d.\n", g.zoneText(i), g.signalAllowance(i))
	}
	if g.Deployed && !g.sc.NoSignals[i] {
		var left []string
		for _, e := range g.Signals[i] {
			if !e.Used {
				left = append(left, fmt.Sprintf("SIGNAL %s WING %s", e.Kind, e.Wing))
			}
		}
		if len(left) == 0 {
			left = []string{"none"}
		}
		fmt.Fprintf(&b, "\nYour signals left: %s\n", strings.Join(left, "; "))
	}
	for _, p := range g.Phalanxes {
		if p.Side != side {
			continue
		}
		fmt.Fprintf(&b, "\nPhalanx %s, %s wing: %d hoplite and %d euzonoi stands at %v facing %d, order %q, deployed %t, pushed back %d times%s\n",
			p.ID, p.Wing, p.Hoplites, p.Euzonoi, p.Pose.At, p.Pose.Heading, p.Order, p.Deployed, p.Pushes, map[bool]string{true: ", ROUTED"}[p.Routed])
		for _, e := range g.Phalanxes {
			if e.Side != side && !e.Routed {
				fmt.Fprintf(&b, "  enemy phalanx %s at %s\"\n", e.ID, table.FormatInches(table.Distance(g.phalanxCorners(p), g.phalanxCorners(e))))
			}
		}
	}
	for _, s := range g.Squadrons {
		if s.Side != side || !s.OnTable() {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s), %s wing: %s, %s stands, at %v facing %d%s\n", s.ID, s.Name, s.Wing, g.stateText(s), s.Stands(), s.Pose.At, s.Pose.Heading, statusText(s))
		if s.InPlay() && len(s.Melee) == 0 && !s.Hold && s.Pursuing == "" {
			fmt.Fprintf(&b, "  e.g. %s\n", strings.Join(g.legalSteps(s), " | "))
		}
		for _, line := range g.enemiesInReach(s) {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

func (g *Game) stateText(s *Squadron) string {
	t := s.Formation
	if s.Freighter {
		t = "freighter"
	}
	if s.Disordered && s.Formation != Unformed {
		t += ", Disordered"
	}
	return t
}

func statusText(s *Squadron) string {
	var parts []string
	if s.Status != Active {
		parts = append(parts, s.Status)
	}
	if len(s.Melee) > 0 {
		parts = append(parts, "in melee with "+strings.Join(s.Melee, ","))
	}
	if s.Pursuing != "" {
		parts = append(parts, "pursuing "+s.Pursuing)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// enemiesInReach lists the enemies within reach of s: distance, and whether s would strike
// front, flank or rear from where it stands.
func (g *Game) enemiesInReach(s *Squadron) []string {
	var out []string
	for _, e := range g.Squadrons {
		if e.Side == s.Side || !e.InPlay() {
			continue
		}
		d := table.Distance(g.corners(s), g.corners(e))
		if d > reach {
			continue
		}
		where := map[table.Arc]string{table.Bow: "front", table.Stern: "REAR", table.Port: "FLANK (port)", table.Starboard: "FLANK (starboard)"}[g.face(e, g.corners(s))]
		if e.Formation == Kyklos {
			where = "front (kyklos has no flanks)"
		}
		out = append(out, fmt.Sprintf("enemy %s (%s) at %s\": would strike its %s", e.ID, g.stateText(e), table.FormatInches(d), where))
	}
	return out
}

const helpText = `Oi Navarcoi! orders: one line per squadron; words case-insensitive; "#" starts a comment.
Before the battle (secret, revealed together):
  DEPLOY SQ1 AT 30,12 [FACING 0] [EPI-MIAS] [WING LEFT] [STRATEGOS]
  SIGNAL TURN-RIGHT WING LEFT     (TURN-RIGHT, TURN-LEFT, DEPLOY-RIGHT, DEPLOY-LEFT, ENGAGE)
Initiative winner:  MOVE FIRST | MOVE SECOND   (or ahead, as the standing order INITIATIVE)
Movement:
  SQ1 MOVE [4]                 straight ahead (epi mias 1Avd, epi pollon/keras 8")
  SQ1 WHEEL L 45 MOVE 4        wheel on the inner corner (manoeuvre test), then move
  SQ3 MOVE 3 TURN R 45 MOVE 5  epi keras turns in succession up to 90, free
  SQ2 TURN R 90                epi pollon turns all stands together (the whole move, test)
  SQ1 BACK 2 | SQ1 ABOUT | SQ1 TURN L 90 | SQ1 EPI-POLLON   (the whole move, test)
  SQ2 DIEKPLOUS SQ7 | SQ1 PERIPLOUS SQ7   move ahead into the named enemy and attempt it
  SQ1 IF 4+ PERIPLOUS SQ7 ELSE HOLD   epi mias, unformed: the first order if the average die
                               lets it move 4" or more, else the second (no ELSE: HOLD)
  SQ4 REFORM EPI-MIAS          an unformed squadron stays still to reform (in this formation)
  SQ1 HOLD                     stay still (a Disordered squadron rallies; an unformed one
                               reforms in epi mias, as with no line at all)
  F1 SAIL DOWNWIND | F1 SAIL LEFT | F1 SAIL RIGHT   freighters
  SIGNAL ENGAGE WING CENTRE    one signal a turn, from your list, carried out where its line
                               stands: above the wing's lines (other wings' lines above it
                               move first)
Amphibious battle, after the initiative roll (secret):  PHALANX HA MOVE | PHALANX HA REDRESS | PHALANX HA DEPLOY
Standing orders, in any mail with orders, held until changed:
  OMEN SQ3 SQ1                 good omens raise the first of these below Determined
  NAVARCH SQ2 SQ1              a navarch killed falls in the first of these in melee
  SHARE SQ2 SQ1                when two of yours share a loss, the odd half stand falls on
                               the first of these among them
  INITIATIVE FIRST | INITIATIVE SECOND   your choice when you win the initiative, made at
                               once: nobody waits for your mail
  OMEN DEFAULT | NAVARCH DEFAULT | SHARE DEFAULT | INITIATIVE DEFAULT   the engine chooses:
                               the first squadron of lowest crew morale; the first squadron
                               in melee; the first in the fleet list; you are asked
A move into an enemy is an engagement (manoeuvre test); squadrons in melee fight on.
`
