package gamelog

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"navarch/dice"
)

func (v *verifier) checkRoll(e *Entry) error {
	r := e.Record
	rf := readRoll(r)
	ta, err := v.rangeTurnAct(e, rf.turn, rf.activation)
	if err != nil {
		return err
	}
	if v.cur == nil || v.cur.ta != ta {
		return v.fail(e, "roll of turn %d activation %d outside that activation's close", ta.t, ta.a)
	}

	if seq := parseUint(rf.seq); seq != v.cur.seq {
		return v.fail(e, "seq %d, want %d (a roll was inserted, removed or moved)", seq, v.cur.seq)
	}
	label := rf.label
	// One map operation: a label already in the set leaves its size as it was (the first
	// failure ends the verification, so that a label kept for a roll that fails later is
	// never read).
	had := len(v.cur.label)
	if v.cur.label[label] = true; len(v.cur.label) == had {
		return v.fail(e, "label %q used twice in turn %d activation %d", label, ta.t, ta.a)
	}
	// The parser has checked the dice (ParseDice): <count>d<sides>, canonical decimals, both
	// in range.
	c, sd, _ := strings.Cut(rf.dice, "d")
	count, sides := int(parseUint(c)), int(parseUint(sd))
	values, err := v.parseValues(rf.values, count, sides)
	if err != nil {
		return v.fail(e, "%v", err)
	}
	if err := v.shown.check(r, &rf, sides, values); err != nil {
		return v.fail(e, "%v", err)
	}
	if v.cur.deriver != nil {
		want, err := v.cur.deriver.AppendDerive(v.derived[:0], label, sides, count)
		v.derived = want
		if err != nil {
			return v.fail(e, "%v", err)
		}
		if !slices.Equal(want, values) {
			return v.fail(e, "values %v, the committed dice give %v: the roll was changed", values, want)
		}
		v.rep.RollsChecked++
	} else if b := v.cur.batch; b != nil && b.later != nil { // counted once its seed is known
		b.jobs = append(b.jobs, rollJob{label: v.stream.keep(label), sides: sides, count: count, values: values})
	} else if b != nil { // checked by a worker before the report is given
		b.jobs = append(b.jobs, rollJob{label: label, sides: sides, count: count, values: values})
		v.rep.RollsChecked++
	}
	v.cur.seq++
	if ta.t != v.rollTurn {
		v.rollTurns[ta.t], v.rollTurn = true, ta.t
	}
	v.rep.Rolls++
	if rf.as == dice.AsDraw {
		v.rep.Draws++ // a draw from a cup or deck that changes as it empties: no fair-die test
	} else {
		v.stats.add(sides, values)
	}
	return nil
}

// rollFields are the fields of a roll record that its checks read, as Get would give them
// (a field's first value; "" for one that is missing).
type rollFields struct {
	turn, activation, seq, label, dice, values string
	as, items, shown                           string
	hasItems, hasShown                         bool
}

// rollKeys are the keys of a roll record's first lines, which the schema fixes (every one
// of them once, in this order).
var rollKeys = [...]string{"turn", "activation", "seq", "label", "dice", "values"}

// readRoll reads a roll record's fields in one pass over its lines.
func readRoll(r *Record) rollFields {
	if len(r.lines) >= len(rollKeys) && r.Type == TypeRoll {
		return readRollAt(r)
	}
	return readRollKeys(r)
}

// readRollKeys is readRoll of any record, by the keys of its lines.
func readRollKeys(r *Record) rollFields {
	var f rollFields
	var seen [9]bool
	for i := range r.lines {
		key, val, _ := strings.Cut(r.line(i), " ") // keys have no space
		var k int
		var dst *string
		switch key {
		case "turn":
			k, dst = 0, &f.turn
		case "activation":
			k, dst = 1, &f.activation
		case "seq":
			k, dst = 2, &f.seq
		case "label":
			k, dst = 3, &f.label
		case "dice":
			k, dst = 4, &f.dice
		case "values":
			k, dst = 5, &f.values
		case "as":
			k, dst = 6, &f.as
		case "items":
			k, dst, f.hasItems = 7, &f.items, true
		case "shown":
			k, dst, f.hasShown = 8, &f.shown, true
		default:
			continue
		}
		if !seen[k] { // the first, as Get reads it
			seen[k], *dst = true, val
		}
	}
	return f
}

// readRollAt is readRoll of a parsed roll record, whose first lines the schema fixes; the
// optional ones follow in the schema's order (as, items, shown, rule, result).
func readRollAt(r *Record) rollFields {
	text := r.text()
	at := func(i int, key string) string { return r.line(i)[len(key)+1:] } // these values are never empty
	f := rollFields{turn: at(0, "turn"), activation: at(1, "activation"), seq: at(2, "seq"),
		label: at(3, "label"), dice: at(4, "dice"), values: at(5, "values")}
	for i := len(rollKeys); i < len(r.lines); i++ {
		switch line := r.line(i); text[r.lines[i]] {
		case 'a':
			f.as = line[len("as "):]
		case 'i':
			f.items, f.hasItems = r.value(i, "items"), true
		case 's':
			f.shown, f.hasShown = r.value(i, "shown"), true
		default:
			return f // rule and result come last
		}
	}
	return f
}

// parseValues reads count raw values of a d(sides) into the verifier's arena: the slice
// it returns is never written again. The parser has checked that s is canonical decimals
// separated by single spaces.
func (v *verifier) parseValues(s string, count, sides int) ([]int, error) {
	if cap(v.values)-len(v.values) < count {
		v.values = make([]int, 0, max(count, 16<<10))
	}
	start := len(v.values)
	for p, rest, more := "", s, true; more; {
		p, rest, more = strings.Cut(rest, " ")
		if len(v.values)-start == count {
			v.values = v.values[:start]
			return nil, fmt.Errorf("%d values for %dd%d", strings.Count(s, " ")+1, count, sides)
		}
		n := parseUint(p)
		if n < 1 || n > uint64(sides) || len(p) > 19 {
			v.values = v.values[:start]
			if n := strings.Count(s, " ") + 1; n != count {
				return nil, fmt.Errorf("%d values for %dd%d", n, count, sides)
			}
			return nil, fmt.Errorf("value %s outside 1..%d", p, sides)
		}
		v.values = append(v.values, int(n))
	}
	if n := len(v.values) - start; n != count {
		v.values = v.values[:start]
		return nil, fmt.Errorf("%d values for %dd%d", n, count, sides)
	}
	return v.values[start:len(v.values):len(v.values)], nil
}

// rollReadings checks the optional reading of a roll's raw values (as, items, shown) as
// dice.MapValue gives it, keeping the readings of each plain die type so that a roll costs
// no allocation.
type rollReadings struct {
	faces        map[reading][]string
	items, words []string
	last         reading // the reading of the faces last looked up
	lastFaces    []string
}

type reading struct {
	as    string
	sides int
}

// check returns checkShown's answer: nil when the record shows what MapValue reads.
func (rr *rollReadings) check(r *Record, rf *rollFields, sides int, values []int) error {
	if rr.matches(rf, sides, values) {
		return nil
	}
	return checkShown(r, sides, values) // the error, as it has always been worded
}

// matches reports whether the record's reading is right, as checkShown would find it; false
// sends the roll to checkShown.
func (rr *rollReadings) matches(rf *rollFields, sides int, values []int) bool {
	as := rf.as
	if rf.hasItems && as != dice.AsDraw {
		return false
	}
	if !rf.hasShown {
		return as == ""
	}
	rr.words = fieldsInto(rr.words[:0], rf.shown)
	if len(rr.words) != len(values) {
		return false
	}
	var faces []string
	if as == dice.AsDraw {
		rr.items = fieldsInto(rr.items[:0], rf.items)
		if len(rr.items) != sides {
			return false
		}
		faces = rr.items
	} else if rd := (reading{as, sides}); rr.lastFaces != nil && rd == rr.last {
		faces = rr.lastFaces
	} else if faces = rr.faces[rd]; faces == nil {
		if faces = readings(as, sides); faces == nil {
			return false
		}
		if rr.faces == nil {
			rr.faces = map[reading][]string{}
		}
		rr.faces[rd] = faces
		rr.last, rr.lastFaces = rd, faces
	} else {
		rr.last, rr.lastFaces = rd, faces
	}
	for i, val := range values {
		if faces[val-1] != rr.words[i] {
			return false
		}
	}
	return true
}

// readings returns MapValue's reading of every face of a plain d(sides), or nil for a die too
// wide to list or a reading MapValue refuses.
func readings(as string, sides int) []string {
	if sides > 1000 {
		return nil
	}
	out := make([]string, sides)
	for v := 1; v <= sides; v++ {
		m, err := dice.MapValue(as, sides, nil, v)
		if err != nil {
			return nil
		}
		out[v-1] = m
	}
	return out
}

// fieldsInto appends strings.Fields(s) to dst, without allocating for ASCII text.
func fieldsInto(dst []string, s string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, strings.Fields(s)...)
		}
	}
	for i := 0; i < len(s); {
		for i < len(s) && asciiSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !asciiSpace(s[j]) {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j])
		}
		i = j
	}
	return dst
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
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
		if c.Size == 0 || c.Size > uint64(v.count()) {
			return &Failure{Index: -1, Reason: fmt.Sprintf("a signed checkpoint covers %d records, the log has %d: records were removed", c.Size, v.count())}
		}
		if v.headAt(int(c.Size)) != c.Head {
			e := v.entry(c.Size - 1)
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
