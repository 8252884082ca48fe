package gamelog

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator/dice"
)

func (v *verifier) checkRoll(e *Entry) error {
	r := e.Record
	ta, err := v.turnAct(e)
	if err != nil {
		return err
	}
	if v.cur == nil || v.cur.ta != ta {
		return v.fail(e, "roll of turn %d activation %d outside that activation's close", ta.t, ta.a)
	}

	if seq := r.Uint("seq"); seq != v.cur.seq {
		return v.fail(e, "seq %d, want %d (a roll was inserted, removed or moved)", seq, v.cur.seq)
	}
	label := r.Get("label")
	if v.cur.label[label] {
		return v.fail(e, "label %q used twice in turn %d activation %d", label, ta.t, ta.a)
	}
	count, sides, _ := ParseDice(r.Get("dice"))
	values, err := parseValues(r.Get("values"), count, sides)
	if err != nil {
		return v.fail(e, "%v", err)
	}
	if err := checkShown(r, sides, values); err != nil {
		return v.fail(e, "%v", err)
	}
	if v.cur.deriver != nil {
		want, err := v.cur.deriver.Derive(label, sides, count)
		if err != nil {
			return v.fail(e, "%v", err)
		}
		if !slices.Equal(want, values) {
			return v.fail(e, "values %v, the committed dice give %v: the roll was changed", values, want)
		}
		v.rep.RollsChecked++
	}
	v.cur.seq++
	v.cur.label[label] = true
	v.rollTurns[ta.t] = true
	v.rep.Rolls++
	if r.Get("as") == dice.AsDraw {
		v.rep.Draws++ // a draw from a cup or deck that changes as it empties: no fair-die test
	} else {
		v.stats.add(sides, values)
	}
	return nil
}

func parseValues(s string, count, sides int) ([]int, error) {
	parts := strings.Split(s, " ")
	if len(parts) != count {
		return nil, fmt.Errorf("%d values for %dd%d", len(parts), count, sides)
	}
	out := make([]int, count)
	for i, p := range parts {
		n := parseUint(p)
		if n < 1 || n > uint64(sides) {
			return nil, fmt.Errorf("value %s outside 1..%d", p, sides)
		}
		out[i] = int(n)
	}
	return out, nil
}

// checkShown checks the optional reading of the raw values (as, items, shown).
func checkShown(r *Record, sides int, values []int) error {
	as := r.Get("as")
	var items []string
	if r.Has("items") {
		if as != dice.AsDraw {
			return fmt.Errorf("items given for a roll read as %q", as)
		}
		items = strings.Fields(r.Get("items"))
	}
	if !r.Has("shown") {
		if as != "" {
			return fmt.Errorf("roll read as %q shows no values", as)
		}
		return nil
	}
	shown := strings.Fields(r.Get("shown"))
	if len(shown) != len(values) {
		return fmt.Errorf("%d shown values for %d raw values", len(shown), len(values))
	}
	for i, val := range values {
		m, err := dice.MapValue(as, sides, items, val)
		if err != nil {
			return err
		}
		if m != shown[i] {
			return fmt.Errorf("raw %d reads as %s, the record shows %s", val, m, shown[i])
		}
	}
	return nil
}

// checkPrivate checks a side's own hidden set-up against its commit.
func (v *verifier) checkPrivate() error {
	for _, p := range v.f.Private {
		c, ok := v.commits[p.Commit]
		if !ok {
			return &Failure{Index: -1, Reason: fmt.Sprintf("private block names record %d, which is not a commit", p.Commit)}
		}
		if HiddenHash(p.Nonce, p.Data) != c.hash {
			return &Failure{Index: -1, Reason: fmt.Sprintf("your hidden set-up does not hash to commit record %d", p.Commit)}
		}
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("your hidden set-up matches commit record %d", p.Commit))
	}
	return nil
}

// checkExternal compares checkpoints kept from mail with the log and with each other.
func (v *verifier) checkExternal() error {
	seen := map[uint64]Checkpoint{}
	for _, c := range v.opts.Checkpoints {
		if c.Game != v.game {
			return &Failure{Index: -1, Reason: fmt.Sprintf("checkpoint of size %d is for game %x, not %x", c.Size, c.Game[:], v.game[:])}
		}
		if !c.Valid(v.key) {
			return &Failure{Index: -1, Reason: fmt.Sprintf("checkpoint of size %d: bad signature", c.Size)}
		}
		if o, ok := seen[c.Size]; ok && o.Head != c.Head {
			return &Failure{Index: -1, Reason: fmt.Sprintf("EQUIVOCATION: two validly signed checkpoints for size %d with heads %x and %x", c.Size, o.Head[:], c.Head[:])}
		}
		seen[c.Size] = c
		if c.Size == 0 || c.Size > uint64(len(v.heads)) {
			return &Failure{Index: -1, Reason: fmt.Sprintf("a signed checkpoint covers %d records, the log has %d: records were removed", c.Size, len(v.heads))}
		}
		if v.heads[c.Size-1] != c.Head {
			e := &v.f.Entries[c.Size-1]
			return v.fail(e, "EQUIVOCATION: the signed checkpoint of size %d from mail disagrees with this log: a record up to %d was changed", c.Size, c.Size-1)
		}
		v.rep.External++
	}
	return nil
}

func (v *verifier) findOrders() {
	for _, text := range v.opts.Orders {
		m := OrdersMatch{Hash: OrdersHash(text)}
		if v.v2 {
			m = v.findOrdersV2(text)
		}
		for i := range v.f.Entries {
			if v.v2 {
				break
			}
			e := &v.f.Entries[i]
			if e.Record != nil && e.Record.Type == TypeOrders && e.Record.Hash32("orders-hash") == m.Hash {
				m.Records = append(m.Records, e.Index)
				m.UsedBy = append(m.UsedBy, v.uses[e.Index]...)
			}
		}
		v.rep.Orders = append(v.rep.Orders, m)
		if len(m.Records) == 0 && v.rep.Failure == nil {
			v.rep.Failure = &Failure{Index: -1, Reason: fmt.Sprintf("no orders record has the hash %x of your orders", m.Hash[:])}
		}
	}
}
