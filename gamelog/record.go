package gamelog

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// MaxRecordSize bounds one record's bytes.
const MaxRecordSize = 64 << 10

// TimeLayout is the only time syntax in records: RFC 3339 in UTC, whole seconds.
const TimeLayout = "2006-01-02T15:04:05Z"

// ErrSyntax marks a record or file that does not follow the format.
var ErrSyntax = errors.New("gamelog: syntax")

// Field is one "key value" line of a record.
type Field struct{ Key, Value string }

// Record is one log record: its stored bytes and where its fields lie in them. Raw is what
// the hash chain covers; the fields are always read from the bytes they were parsed from,
// and the values Get returns share Raw's memory: Raw's bytes never change (Parse keeps a
// copy of its input, ParseFile the file its caller keeps unchanged).
type Record struct {
	Index uint64
	Type  string
	Raw   []byte

	// lines holds the offset in Raw of each field's line after "index", in order. A record
	// has at most MaxRecordSize bytes, so that every line starts below 1<<16.
	lines []uint16
}

// clone returns a copy of r that shares none of its bytes.
func (r *Record) clone() *Record {
	c := *r
	c.Raw, c.lines = bytes.Clone(r.Raw), slices.Clone(r.lines)
	return &c
}

// text returns Raw's bytes as a string, without a copy.
func (r *Record) text() string { return unsafe.String(unsafe.SliceData(r.Raw), len(r.Raw)) }

// field returns field i, in the order of the record's lines.
func (r *Record) field(i int) Field {
	line := r.line(i)
	key, value, _ := strings.Cut(line, " ") // keys have no space
	return Field{key, value}
}

// Fields returns every field after "type" and "index", in order, in a new slice.
func (r *Record) Fields() []Field {
	out := make([]Field, len(r.lines))
	for i := range out {
		out[i] = r.field(i)
	}
	return out
}

// line returns the text of field i's line, without its newline.
func (r *Record) line(i int) string {
	text := r.text()
	end := len(text) - 1
	if i+1 < len(r.lines) {
		end = int(r.lines[i+1]) - 1
	}
	return text[r.lines[i]:end]
}

// find returns the index of the first field named key at or after field i, or -1.
func (r *Record) find(key string, i int) int {
	if key == "" {
		return -1 // no field has an empty key
	}
	text := r.text()
	for ; i < len(r.lines); i++ {
		// Every line ends with a newline, so the byte after a matching key exists.
		o := int(r.lines[i])
		if o+len(key) < len(text) && text[o] == key[0] && text[o:o+len(key)] == key {
			if c := text[o+len(key)]; c == ' ' || c == '\n' {
				return i
			}
		}
	}
	return -1
}

// value returns the value of field i, whose key is key.
func (r *Record) value(i int, key string) string {
	line := r.line(i)
	if len(line) == len(key) {
		return ""
	}
	return line[len(key)+1:]
}

// valueAt returns the value of field i where its key is key.
func (r *Record) valueAt(i int, key string) (string, bool) {
	if i >= len(r.lines) {
		return "", false
	}
	text := r.text()
	o := int(r.lines[i])
	// Every line ends with a newline, so the byte after a matching key exists.
	if o+len(key) < len(text) && text[o:o+len(key)] == key {
		if c := text[o+len(key)]; c == ' ' || c == '\n' {
			return r.value(i, key), true
		}
	}
	return "", false
}

// Get returns the value of the first field named key, or "".
func (r *Record) Get(key string) string {
	if i := r.find(key, 0); i >= 0 {
		return r.value(i, key)
	}
	return ""
}

// Has reports whether a field named key is present.
func (r *Record) Has(key string) bool { return r.find(key, 0) >= 0 }

// All returns the values of every field named key, in order.
func (r *Record) All(key string) []string {
	var out []string
	for i := r.find(key, 0); i >= 0; i = r.find(key, i+1) {
		out = append(out, r.value(i, key))
	}
	return out
}

// Uint returns a uint field; the parser has already checked its syntax (0 where the field
// is missing or not a decimal).
func (r *Record) Uint(key string) uint64 { return uintValue(r.Get(key)) }

// uintValue is strconv.ParseUint(v, 10, 64), 0 on an error.
func uintValue(v string) uint64 {
	if len(v) < 20 && isUint(v) {
		return parseUint(v)
	}
	n, _ := strconv.ParseUint(v, 10, 64)
	return n
}

// Bytes returns a hex field decoded.
func (r *Record) Bytes(key string) []byte {
	b, _ := hex.DecodeString(r.Get(key))
	return b
}

// Hash32 returns a 32-byte hex field decoded (zero bytes where it is not 32 bytes of hex;
// the parser has already checked its syntax).
func (r *Record) Hash32(key string) [32]byte { return hash32Value(r.Get(key)) }

// hash32Value is Hash32 of a field whose value is v.
func hash32Value(v string) [32]byte {
	var h [32]byte
	if len(v) != 64 {
		b, _ := hex.DecodeString(v)
		copy(h[:], b)
		return h
	}
	if decodeFixed(h[:], v) == nil { // lowercase hex, as the parser takes it
		return h
	}
	for i := range h {
		hi, ok1 := unhex(v[2*i])
		lo, ok2 := unhex(v[2*i+1])
		if !ok1 || !ok2 {
			h = [32]byte{}
			b, _ := hex.DecodeString(v) // as Bytes gives it: the bytes before the bad one
			copy(h[:], b)
			return h
		}
		h[i] = hi<<4 | lo
	}
	return h
}

// isHexOf reports whether v is h in lowercase hex (where it is, hash32Value(v) == h), in one
// pass without decoding.
func isHexOf(v string, h [32]byte) bool {
	if len(v) != 64 {
		return false
	}
	for i, b := range h {
		if v[2*i] != lowerHex[b>>4] || v[2*i+1] != lowerHex[b&15] {
			return false
		}
	}
	return true
}

const lowerHex = "0123456789abcdef"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Builder writes a record in canonical form.
type Builder struct {
	typ    string
	fields []Field
}

// New starts a record of type typ. The index is set by whoever appends it to a log.
func New(typ string) *Builder { return &Builder{typ: typ} }

// Add appends a field; values are checked when the record is built.
func (b *Builder) Add(key, value string) *Builder {
	b.fields = append(b.fields, Field{key, value})
	return b
}

// AddUint appends a decimal field.
func (b *Builder) AddUint(key string, v uint64) *Builder {
	return b.Add(key, strconv.FormatUint(v, 10))
}

// AddHex appends a lowercase hex field.
func (b *Builder) AddHex(key string, v []byte) *Builder { return b.Add(key, hex.EncodeToString(v)) }

// AddTime appends a time field in UTC, whole seconds; the zero time is written "none".
func (b *Builder) AddTime(key string, t time.Time) *Builder {
	if t.IsZero() {
		return b.Add(key, "none")
	}
	return b.Add(key, t.UTC().Truncate(time.Second).Format(TimeLayout))
}

// Build returns the record with the given index, checked against its schema: the record
// Parse gives of the bytes it writes (FuzzBuild, TestBuildAsParse). Fields whose keys and
// values are each a schema field in order are written and checked in one pass (buildChecked);
// any other builder's bytes are parsed, which accepts them or names the error.
func (b *Builder) Build(index uint64) (Record, error) {
	if rec, ok := b.buildChecked(index); ok {
		return rec, nil
	}
	return b.buildParsed(index)
}

// buildChecked writes the record and its fields' offsets as it checks each field against the
// schema: the key is the schema's next field's (once where it may appear once, in the
// schema's order, none required left out), the value of its kind (validValue, which takes no
// newline, as parseFields sees it); the record within MaxRecordSize. ok is false where any of
// it fails, and Build then parses the bytes.
func (b *Builder) buildChecked(index uint64) (rec Record, ok bool) {
	name, schema, known := schemaOf(b.typ)
	if !known {
		return Record{}, false
	}
	n := len("type \nindex \n") + len(name) + 20
	for _, f := range b.fields {
		n += len(f.Key) + len(f.Value) + 2
	}
	if n > MaxRecordSize+20 {
		return Record{}, false
	}
	raw := make([]byte, 0, n)
	raw = append(append(append(raw, "type "...), name...), "\nindex "...)
	raw = append(strconv.AppendUint(raw, index, 10), '\n')
	lines := make([]uint16, 0, len(b.fields))
	k, seen := 0, 0 // the schema's field for the current one, how many it has had
	for _, f := range b.fields {
		for k < len(schema) && schema[k].key != f.Key {
			if seen == 0 && (schema[k].n == one || schema[k].n == some) {
				return Record{}, false // a field missing
			}
			k, seen = k+1, 0
		}
		if k == len(schema) || seen > 0 && (schema[k].n == one || schema[k].n == opt) || !validValue(schema[k].kind, f.Value) {
			return Record{}, false
		}
		lines = append(lines, uint16(len(raw)))
		raw = append(raw, f.Key...)
		if f.Value != "" {
			raw = append(append(raw, ' '), f.Value...)
		}
		raw = append(raw, '\n')
		seen++
	}
	for ; k < len(schema); k, seen = k+1, 0 {
		if seen == 0 && (schema[k].n == one || schema[k].n == some) {
			return Record{}, false
		}
	}
	if len(raw) > MaxRecordSize {
		return Record{}, false
	}
	return Record{Index: index, Type: name, Raw: raw[:len(raw):len(raw)], lines: lines[:len(lines):len(lines)]}, true
}

// buildParsed is Build by writing the record's bytes and parsing them.
func (b *Builder) buildParsed(index uint64) (Record, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "type %s\nindex %d\n", b.typ, index)
	for _, f := range b.fields {
		buf.WriteString(f.Key)
		if f.Value != "" {
			buf.WriteByte(' ')
			buf.WriteString(f.Value)
		}
		buf.WriteByte('\n')
	}
	return parseOwn(buf.Bytes())
}

// Parse parses one record strictly: it must be exactly the canonical form of its fields.
// The returned record keeps a copy of raw, which its Raw and its field values share.
func Parse(raw []byte) (Record, error) {
	if len(raw) > MaxRecordSize {
		return Record{}, fmt.Errorf("%w: record of %d bytes exceeds %d", ErrSyntax, len(raw), MaxRecordSize)
	}
	return parseOwn(bytes.Clone(raw))
}

// parseOwn is Parse of bytes that no one else holds (it keeps raw): read as ParseFile reads
// a good export's record (scanOne), where that accepts them, else the careful way, which
// names the error.
func parseOwn(raw []byte) (Record, error) {
	if rec, ok := scanOne(raw); ok {
		return rec, nil
	}
	return parseCareful(raw)
}

// scanOne reads raw as one record block of a good export (scanRecordInto); ok is false where
// it is not one. A record it accepts is the one parseCareful gives (FuzzParse).
func scanOne(raw []byte) (rec Record, ok bool) {
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return Record{}, false
	}
	lines := make([]uint16, 0, bytes.Count(raw, newline))
	end, ok := scanRecordInto(&rec, raw, unsafe.String(unsafe.SliceData(raw), len(raw)), 0, &lines)
	return rec, ok && end == len(raw)
}

// parseCareful parses raw by the format's reading, line by line (it keeps raw).
func parseCareful(raw []byte) (Record, error) {
	lines := make([]uint16, 0, bytes.Count(raw, newline))
	return parseRecord(raw, unsafe.String(unsafe.SliceData(raw), len(raw)), &lines)
}

var newline = []byte{'\n'}

// parseRecord is Parse of raw, whose bytes s holds as a string, with the offsets of the
// fields' lines appended to *arena; the record's lines are a full slice expression of the
// arena, so that appending to them never writes into another record's. It allocates nothing
// while the arena has room.
func parseRecord(raw []byte, s string, arena *[]uint16) (Record, error) {
	if len(raw) > MaxRecordSize {
		return Record{}, fmt.Errorf("%w: record of %d bytes exceeds %d", ErrSyntax, len(raw), MaxRecordSize)
	}
	if !utf8.ValidString(s) {
		return Record{}, fmt.Errorf("%w: record is not UTF-8", ErrSyntax)
	}
	if len(s) == 0 || s[len(s)-1] != '\n' {
		return Record{}, fmt.Errorf("%w: record does not end with a newline", ErrSyntax)
	}
	sc := lineScan{s: s[:len(s)-1]}
	sc.next()
	first := sc.line
	sc.next()
	if !sc.ok {
		return Record{}, fmt.Errorf("%w: record has no index line", ErrSyntax)
	}
	typ, ok := strings.CutPrefix(first, "type ")
	name, schema, known := schemaOf(typ)
	if !ok || !known {
		return Record{}, fmt.Errorf("%w: line 1: %q is not a known record type line", ErrSyntax, first)
	}
	idx, ok := strings.CutPrefix(sc.line, "index ")
	if !ok || checkValue(kUint, idx) != nil {
		return Record{}, fmt.Errorf("%w: line 2: %q is not an index line", ErrSyntax, sc.line)
	}
	rec := Record{Type: name, Raw: raw[:len(raw):len(raw)], Index: parseUint(idx)}
	start := len(*arena)
	sc.next()
	if err := parseFields(schema, &sc, arena); err != nil {
		*arena = (*arena)[:start]
		return Record{}, fmt.Errorf("%s record: %w", typ, err)
	}
	rec.lines = (*arena)[start:len(*arena):len(*arena)]
	return rec, nil
}

// lineScan walks the LF-separated lines of a string as strings.Split would give them,
// without making the slice.
type lineScan struct {
	s    string // the text scanned
	at   int    // where the current line starts, when ok
	from int    // where the next line starts; -1 after the last line
	line string // the current line, when ok
	ok   bool
}

func (l *lineScan) next() {
	if l.from < 0 {
		l.line, l.ok = "", false
		return
	}
	l.at = l.from
	if i := strings.IndexByte(l.s[l.at:], '\n'); i >= 0 {
		l.line, l.from = l.s[l.at:l.at+i], l.at+i+1
	} else {
		l.line, l.from = l.s[l.at:], -1
	}
	l.ok = true
}

// parseFields matches the lines from sc's current one against schema in order, appending the
// offsets of the fields' lines to *arena; line numbers in errors count from 1 at the
// record's "type" line.
func parseFields(schema []field, sc *lineScan, arena *[]uint16) error {
	i := 0 // lines read after the index line
	for _, f := range schema {
		n := 0
		for sc.ok && hasKey(sc.line, f.key) {
			line := sc.line
			if n > 0 && (f.n == one || f.n == opt) {
				return fmt.Errorf("%w: line %d: %s repeated", ErrSyntax, i+3, f.key)
			}
			if len(line) == len(f.key)+1 {
				return fmt.Errorf("%w: line %d: trailing space", ErrSyntax, i+3)
			}
			val := ""
			if len(line) > len(f.key) {
				val = line[len(f.key)+1:]
			}
			if err := checkValue(f.kind, val); err != nil {
				return fmt.Errorf("%w: line %d: %s: %v", ErrSyntax, i+3, f.key, err)
			}
			*arena = append(*arena, uint16(sc.at))
			n++
			i++
			sc.next()
		}
		if n == 0 && (f.n == one || f.n == some) {
			return fmt.Errorf("%w: line %d: missing %s", ErrSyntax, i+3, f.key)
		}
	}
	if sc.ok {
		return fmt.Errorf("%w: line %d: unexpected %q", ErrSyntax, i+3, clip(sc.line))
	}
	return nil
}

// scanRecord parses the record that starts at str[start:] and runs to the next empty line
// or to the end of str (which ends with a newline), as parseRecord would, on the good path
// only: it returns the record (Raw from data, which str holds) and the end of its bytes,
// after its final newline, with its fields' offsets appended to *arena. ok is false where
// parseRecord would refuse the record (or might: scanRecord refuses more than it must), and
// parseRecord is then to name the error. It reads each line once.
//
// A record it accepts is valid UTF-8 without a check of its own: every line of it is the
// type line of a known type, an index or a schema key with a value of the key's kind, and
// every kind but text admits only ASCII, text only valid UTF-8 (CheckText).
func scanRecord(data []byte, str string, start int, arena *[]uint16) (rec Record, end int, ok bool) {
	a := *arena
	end, ok = scanRecordInto(&rec, data, str, start, &a)
	*arena = a
	return rec, end, ok
}

// scanRecordInto is scanRecord, the record written to *dst (which it leaves as it was where
// ok is false).
func scanRecordInto(dst *Record, data []byte, str string, start int, arena *[]uint16) (end int, ok bool) {
	s := str[start:]
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return 0, false
	}
	typ, ok := strings.CutPrefix(s[:i], "type ")
	name, schema, known := schemaOf(typ)
	if !ok || !known {
		return 0, false
	}
	p := i + 1
	i = strings.IndexByte(s[p:], '\n')
	if i < 0 {
		return 0, false
	}
	idx, ok := strings.CutPrefix(s[p:p+i], "index ")
	if !ok || !isUint(idx) {
		return 0, false
	}
	p += i + 1
	lines := *arena // appended to here, and stored back where the record is good
	mark := len(lines)
	// k is the schema's field for the current line, n how many lines it has had; an empty
	// line ends the block.
	k, n := 0, 0
	for p < len(s) && s[p] != '\n' {
		for k < len(schema) && !keyAt(s, p, schema[k].key) {
			if n == 0 && (schema[k].n == one || schema[k].n == some) {
				return 0, false // a field missing
			}
			k, n = k+1, 0
		}
		if k == len(schema) || n > 0 && (schema[k].n == one || schema[k].n == opt) {
			return 0, false
		}
		e := lineEnd(s, p+len(schema[k].key), schema[k].kind)
		if e < 0 {
			return 0, false
		}
		lines = append(lines, uint16(p))
		n++
		p = e + 1
	}
	for ; k < len(schema); k, n = k+1, 0 {
		if n == 0 && (schema[k].n == one || schema[k].n == some) {
			return 0, false
		}
	}
	if p > MaxRecordSize {
		return 0, false
	}
	*arena = lines
	dst.Index, dst.Type, dst.Raw, dst.lines = parseUint(idx), name, data[start:start+p:start+p], lines[mark:len(lines):len(lines)]
	return start + p, true
}

// keyAt reports whether the line at s[p:] has key as its key (the text before its first
// space or its newline); s ends with a newline.
func keyAt(s string, p int, key string) bool {
	q := p + len(key)
	if q >= len(s) {
		return false
	}
	for i := 0; i < len(key); i++ { // most keys that do not match differ in their first byte
		if s[p+i] != key[i] {
			return false
		}
	}
	return s[q] == ' ' || s[q] == '\n'
}

// lineEnd returns the position of the newline that ends a field line whose key ends at q
// (s[q] is its space or its newline), or -1 where the line is not the key alone or the key, a
// space and a value of kind k, as checkValue takes it. It checks the value's bytes in the
// pass that finds the line's end, for the kinds a long log is made of; the others are found
// with IndexByte and checked with validValue. s ends with a newline.
func lineEnd(s string, q int, k kind) int {
	if s[q] == '\n' { // the key alone: an empty value
		if validValue(k, "") {
			return q
		}
		return -1
	}
	q++ // the value starts after the space
	switch k {
	case kUint:
		if e, ok := uintEnd(s, q); ok && s[e] == '\n' {
			return e
		}
		return -1
	case kHex32:
		if q+64 >= len(s) || s[q+64] != '\n' || !isHex(s[q:q+64]) {
			return -1
		}
		return q + 64
	case kToken:
		e := tokenEnd(s, q)
		if e < 0 || s[e] != '\n' {
			return -1
		}
		return e
	case kTokens:
		for {
			e := tokenEnd(s, q)
			if e < 0 || s[e] == '\n' {
				return e
			}
			q = e + 1 // after a single space: another token must follow
		}
	case kUints:
		for {
			e, ok := uintEnd(s, q)
			if !ok || s[e] != ' ' && s[e] != '\n' {
				return -1
			}
			if s[e] == '\n' {
				return e
			}
			q = e + 1 // after a single space: another number must follow
		}
	case kText:
		if e := textEnd(s, q); e >= 0 {
			return e
		}
	}
	i := strings.IndexByte(s[q:], '\n')
	if i <= 0 || !validValue(k, s[q:q+i]) { // an empty value after a space is a trailing space
		return -1
	}
	return q + i
}

// uintEnd reads the digits at s[q:]: it returns the position of the byte after them (which
// exists: s ends with a newline), and whether they are a canonical decimal (isUint).
func uintEnd(s string, q int) (int, bool) {
	e := q
	for e < len(s) && '0' <= s[e] && s[e] <= '9' {
		e++
	}
	ok := e > q && e < len(s) && (e-q == 1 || s[q] != '0') && (e-q < 20 || e-q == 20 && s[q:e] <= "18446744073709551615")
	return e, ok
}

// tokenEnd reads a token (isToken) at s[q:]: it returns the position of the space or
// newline after it, or −1 where there is none.
func tokenEnd(s string, q int) int {
	e := q
	for e < len(s) && s[e] > ' ' && s[e] <= '~' {
		e++
	}
	if e == q || e-q > 200 || e == len(s) || s[e] != ' ' && s[e] != '\n' {
		return -1
	}
	return e
}

// textEnd reads a value of printable ASCII (which isText accepts when it has no edge
// space and at most 2000 bytes) at s[q:]: it returns the position of the newline after it,
// or −1 where the value is not such text (which does not make it bad text: other bytes are
// for CheckText to judge).
func textEnd(s string, q int) int {
	e := q
	for e < len(s) && s[e] >= ' ' && s[e] <= '~' {
		e++
	}
	if e == len(s) || s[e] != '\n' || e-q > 2000 || e == q || s[q] == ' ' || s[e-1] == ' ' {
		return -1
	}
	return e
}

// isUint reports whether checkUint accepts v.
func isUint(v string) bool {
	if v == "" || len(v) > 20 || len(v) > 1 && v[0] == '0' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return len(v) < 20 || v <= "18446744073709551615"
}

// validValue reports whether checkValue accepts v, without making its error.
func validValue(k kind, v string) bool {
	switch k {
	case kUint:
		return isUint(v)
	case kHex32:
		return len(v) == 64 && isHex(v)
	case kToken:
		return isToken(v)
	case kText:
		return isText(v)
	case kUints:
		return v != "" && isList(v, isUint)
	case kTokens:
		return v == "" || isList(v, isToken)
	case kHex:
		return len(v)%2 == 0 && isHex(v)
	case kDice:
		c, sd, ok := strings.Cut(v, "d")
		// As ParseDice: a count of 1 to 10000, sides 1 to 2^32−1.
		return ok && isUint(c) && isUint(sd) && len(c) <= 5 && c != "0" && parseUint(c) <= maxDice && sd != "0" &&
			(len(sd) < 10 || len(sd) == 10 && sd <= "4294967295")
	}
	return checkValue(k, v) == nil
}

// maxDice is the most dice one roll record may hold (ParseDice).
const maxDice = 10000

// isList reports whether v is one or more items that each accepts, separated by single
// spaces.
func isList(v string, each func(string) bool) bool {
	for {
		i := strings.IndexByte(v, ' ')
		if i < 0 {
			return each(v)
		}
		if !each(v[:i]) {
			return false
		}
		v = v[i+1:]
	}
}

// isHex reports whether v is lowercase hex digits (of any length).
func isHex(v string) bool {
	for i := 0; i < len(v); i++ {
		if hexDigit[v[i]] == 0 {
			return false
		}
	}
	return true
}

// isToken reports whether CheckToken accepts v.
func isToken(v string) bool {
	if v == "" || len(v) > 200 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] > '~' {
			return false
		}
	}
	return true
}

// isText reports whether CheckText accepts v: printable ASCII is checked here, any other
// byte sends v to CheckText.
func isText(v string) bool {
	if len(v) > 2000 || len(v) > 0 && (v[0] == ' ' || v[len(v)-1] == ' ') {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c > '~' {
			return CheckText(v) == nil
		}
	}
	return true
}

// hasKey reports whether line's key (the text before its first space) is key.
func hasKey(line, key string) bool {
	return len(line) >= len(key) && line[:len(key)] == key && (len(line) == len(key) || line[len(key)] == ' ')
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func checkValue(k kind, v string) error {
	switch k {
	case kUint:
		return checkUint(v)
	case kHex:
		return checkHex(v, -1)
	case kHex16:
		return checkHex(v, 16)
	case kHex32:
		return checkHex(v, 32)
	case kHex64:
		return checkHex(v, 64)
	case kToken:
		return CheckToken(v)
	case kTokens:
		return checkList(v, true, CheckToken)
	case kUints:
		return checkList(v, false, checkUint)
	case kText:
		return CheckText(v)
	case kTime:
		return checkTime(v)
	case kDice:
		_, _, err := ParseDice(v)
		return err
	case kPair:
		a, b, ok := strings.Cut(v, " ")
		if !ok || CheckToken(a) != nil || CheckToken(b) != nil {
			return fmt.Errorf("%q is not two tokens", clip(v))
		}
		return nil
	}
	return fmt.Errorf("unknown kind %d", k)
}

func checkUint(v string) error {
	if v == "" || len(v) > 20 || (len(v) > 1 && v[0] == '0') {
		return fmt.Errorf("%q is not a canonical decimal", clip(v))
	}
	if _, err := strconv.ParseUint(v, 10, 64); err != nil {
		return fmt.Errorf("%q is not a canonical decimal", clip(v))
	}
	return nil
}

func checkHex(v string, n int) error {
	if n >= 0 && len(v) != 2*n {
		return fmt.Errorf("want %d hex bytes, have %d characters", n, len(v))
	}
	if len(v)%2 != 0 {
		return fmt.Errorf("odd hex length")
	}
	for i := 0; i < len(v); i++ {
		if hexDigit[v[i]] == 0 {
			return fmt.Errorf("%q is not lowercase hex", clip(v))
		}
	}
	return nil
}

// hexDigit[c] is 1 + the value of lowercase hex digit c, 0 for any other byte.
var hexDigit = func() (t [256]byte) {
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i) + 1
	}
	return t
}()

// CheckToken reports whether v is a token: 1-200 printable ASCII bytes without a space.
func CheckToken(v string) error {
	if v == "" || len(v) > 200 {
		return fmt.Errorf("token of length %d", len(v))
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] > '~' {
			return fmt.Errorf("%q is not a token", clip(v))
		}
	}
	return nil
}

func checkList(v string, emptyOK bool, each func(string) error) error {
	if v == "" {
		if emptyOK {
			return nil
		}
		return fmt.Errorf("empty list")
	}
	for {
		p, rest, more := strings.Cut(v, " ")
		if err := each(p); err != nil {
			return err
		}
		if !more {
			return nil
		}
		v = rest
	}
}

// CheckText reports whether v may be a text value: valid UTF-8, no control characters, no
// leading or trailing white space, at most 2000 bytes.
func CheckText(v string) error {
	if len(v) > 2000 {
		return fmt.Errorf("text of %d bytes", len(v))
	}
	if strings.TrimSpace(v) != v {
		return fmt.Errorf("text %q has edge spaces", clip(v))
	}
	for i := 0; i < len(v); {
		if c := v[i]; c < utf8.RuneSelf { // ASCII: the common case, without decoding
			if c < ' ' || c == 0x7f {
				return fmt.Errorf("text %q has a control character", clip(v))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("text %q has a control character", clip(v))
		}
		i += size
	}
	return nil
}

// CleanText turns arbitrary text into a valid text value: control characters and runs of
// white space become one space, and the result is trimmed and cut to 2000 bytes.
func CleanText(s string) string {
	if isClean(s) {
		return s
	}
	return cleanAll(s)
}

// cleanAll is CleanText rune by rune.
func cleanAll(s string) string {
	s = strings.ToValidUTF8(s, "?")
	var b strings.Builder
	for _, r := range s {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for len(out) > 2000 {
		_, size := utf8.DecodeLastRuneInString(out)
		out = strings.TrimSpace(out[:len(out)-size])
	}
	return out
}

// isClean reports whether CleanText leaves s as it is, by a sufficient test: at most 2000
// bytes of printable ASCII, its spaces single and inside (FuzzCleanText).
func isClean(s string) bool {
	if len(s) > 2000 || len(s) > 0 && (s[0] == ' ' || s[len(s)-1] == ' ') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

func checkTime(v string) error {
	if v == "none" {
		return nil
	}
	t, err := time.Parse(TimeLayout, v)
	var buf [len(TimeLayout) + 8]byte
	if err != nil || string(t.AppendFormat(buf[:0], TimeLayout)) != v {
		return fmt.Errorf("%q is not a UTC time like %s", clip(v), TimeLayout)
	}
	return nil
}

// ParseDice parses "<count>d<sides>".
func ParseDice(v string) (count, sides int, err error) {
	c, s, ok := strings.Cut(v, "d")
	if !ok || checkUint(c) != nil || checkUint(s) != nil {
		return 0, 0, fmt.Errorf("%q is not <count>d<sides>", clip(v))
	}
	cn, cerr := strconv.ParseUint(c, 10, 32)
	sn, serr := strconv.ParseUint(s, 10, 32) // a value past 2^32-1 is an error, not 2^32-1
	if cerr != nil || serr != nil || cn < 1 || sn < 1 || cn > maxDice {
		return 0, 0, fmt.Errorf("dice %q out of range", v)
	}
	return int(cn), int(sn), nil
}
