package gamelog

import "slices"

// EventKinds are the kinds an event record of navarch/v4 may name (docs/LOG-FORMAT.md 3):
// what the event is to a player, heaviest first (adjudicator.Kinds).
var EventKinds = []string{"end", "loss", "break", "hit", "attack", "action", "change", "move", "routine", "note", "told"}

// checkEventLinks checks an event's v4 fields: its roll fields name rolls of its own step,
// logged before it, each behind one event of the step at most, and its kind is one of
// EventKinds. A log before navarch/v4 has neither field.
func (v *verifier) checkEventLinks(e *Entry) error {
	r := e.Record
	rolls, kind := r.All("roll"), r.Get("kind")
	if !v.v4 {
		if len(rolls) > 0 || r.Has("kind") {
			return v.fail(e, "an event's roll and kind fields belong to navarch/v4, not %s", v.f.Format)
		}
		return nil
	}
	if r.Has("kind") && !slices.Contains(EventKinds, kind) {
		return v.fail(e, "kind %q is not an event kind (%v)", kind, EventKinds)
	}
	if len(rolls) == 0 {
		return nil
	}
	turn, act := placeOf(r)
	ta := turnAct{uint32(uintValue(turn)), uint32(uintValue(act))}
	c := v.cur
	if c == nil || c.ta != ta {
		return v.fail(e, "an event of turn %d activation %d is behind roll %q, but that step rolled no dice", ta.t, ta.a, rolls[0])
	}
	if c.behind == nil {
		c.behind = map[string]bool{}
	}
	for _, l := range rolls {
		switch {
		case !c.label[l]:
			return v.fail(e, "an event is behind roll %q, which turn %d activation %d did not roll before it", l, ta.t, ta.a)
		case c.behind[l]:
			return v.fail(e, "roll %q is behind two events of turn %d activation %d", l, ta.t, ta.a)
		}
		c.behind[l] = true
	}
	return nil
}
