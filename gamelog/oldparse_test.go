package gamelog

// The parser as it was before it was made parallel, kept to test that the new one gives the same
// results and the same errors.

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func oldParseFile(data []byte) (*File, error) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%w: file is empty or truncated (no final newline)", ErrSyntax)
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, fmt.Errorf("%w: file has CR characters (line endings must be LF)", ErrSyntax)
	}
	f := &File{}
	header, rest, _ := bytes.Cut(data, []byte("\n\n"))
	if err := f.parseHeader(string(header)); err != nil {
		return nil, err
	}
	line := 3
	for len(rest) > 0 {
		// A block runs to the next empty line; it keeps its final newline, which is part of
		// a record's stored bytes.
		end := bytes.Index(rest, []byte("\n\n"))
		if end < 0 {
			end = len(rest) - 1
		}
		b := rest[:end+1]
		rest = rest[end+1:]
		more := len(rest) > 0 // an empty line, at least, follows the block
		if more {
			rest = rest[1:]
		}
		trailer, err := f.oldParseBlock(b, line)
		if err != nil {
			return nil, err
		}
		if trailer {
			if more {
				return nil, fmt.Errorf("%w: line %d: text after end-of-log", ErrSyntax, line+1)
			}
			return f, nil
		}
		line += bytes.Count(b, []byte("\n")) + 1
	}
	return nil, fmt.Errorf("%w: truncated: no end-of-log line after %d records", ErrSyntax, len(f.Entries))
}

func (f *File) oldParseBlock(raw []byte, line int) (trailer bool, err error) {
	first, body, _ := bytes.Cut(raw, []byte("\n"))
	word, rest, _ := strings.Cut(string(first), " ")
	b := string(first)
	if len(first)+1 != len(raw) {
		b += "\n…" // a one-line block with more lines: fields() refuses it
	}
	next := uint64(len(f.Entries))
	switch {
	case word == "type":
		if len(f.Private) > 0 {
			return false, fmt.Errorf("%w: line %d: record after private blocks", ErrSyntax, line)
		}
		rec, err := oldParse(raw)
		if err != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, err)
		}
		if rec.Index != next {
			return false, fmt.Errorf("record %d (line %d): %w: index %d out of sequence", next, line, ErrSyntax, rec.Index)
		}
		f.Entries = append(f.Entries, Entry{Index: next, Leaf: Leaf(rec.Raw), Record: &rec, Line: line})
	case word == "redacted" && f.Format == FormatV1:
		e, err := parseRedacted(b, rest, next)
		if err != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, err)
		}
		e.Line = line
		f.Entries = append(f.Entries, e)
	case word == "unseal" && f.Format != FormatV1:
		if err := f.oldParseUnseal(rest, body); err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
	case word == "private":
		p, err := parsePrivate(b, rest)
		if err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
		f.Private = append(f.Private, p)
	case word == "end-of-log":
		return true, f.parseTrailer(b, rest, line)
	default:
		return false, fmt.Errorf("%w: line %d: unknown block %q", ErrSyntax, line, clip(string(first)))
	}
	return false, nil
}

// parseUnseal reads "unseal <index> <nonce>" and the record it opens, which must be the
// sealed record just before it, not yet opened.
func (f *File) oldParseUnseal(rest string, body []byte) error {
	p := strings.Split(rest, " ")
	n := len(f.Entries)
	if len(p) != 2 || n == 0 || p[0] != strconv.FormatUint(uint64(n-1), 10) {
		return fmt.Errorf("%w: unseal block must name the record just before it", ErrSyntax)
	}
	e := &f.Entries[n-1]
	if e.Record.Type != TypeSealed || e.Inner != nil {
		return fmt.Errorf("%w: unseal block after record %d, which is not a sealed record", ErrSyntax, n-1)
	}
	if err := decodeFixed(e.Nonce[:], p[1]); err != nil {
		return err
	}
	inner, err := oldParse(body)
	if err != nil {
		return fmt.Errorf("record %d unsealed: %w", n-1, err)
	}
	if inner.Index != uint64(n-1) || inner.Type == TypeSealed {
		return fmt.Errorf("%w: record %d unsealed: index %d, type %s", ErrSyntax, n-1, inner.Index, inner.Type)
	}
	e.Inner = &inner
	return nil
}

func oldParse(raw []byte) (Record, error) {
	if len(raw) > MaxRecordSize {
		return Record{}, fmt.Errorf("%w: record of %d bytes exceeds %d", ErrSyntax, len(raw), MaxRecordSize)
	}
	if !utf8.Valid(raw) {
		return Record{}, fmt.Errorf("%w: record is not UTF-8", ErrSyntax)
	}
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return Record{}, fmt.Errorf("%w: record does not end with a newline", ErrSyntax)
	}
	lines := strings.Split(string(raw[:len(raw)-1]), "\n")
	if len(lines) < 2 {
		return Record{}, fmt.Errorf("%w: record has no index line", ErrSyntax)
	}
	typ, ok := strings.CutPrefix(lines[0], "type ")
	schema, known := schemas[typ]
	if !ok || !known {
		return Record{}, fmt.Errorf("%w: line 1: %q is not a known record type line", ErrSyntax, lines[0])
	}
	idx, ok := strings.CutPrefix(lines[1], "index ")
	if !ok || oldCheckValue(kUint, idx) != nil {
		return Record{}, fmt.Errorf("%w: line 2: %q is not an index line", ErrSyntax, lines[1])
	}
	rec := Record{Type: typ, Raw: raw}
	rec.Index, _ = strconv.ParseUint(idx, 10, 64)
	fields, err := oldParseFields(schema, lines[2:])
	if err != nil {
		return Record{}, fmt.Errorf("%s record: %w", typ, err)
	}
	// The record as the new representation holds it: the offsets of the field lines, which
	// must give the fields the old parser found.
	off := len(lines[0]) + len(lines[1]) + 2
	for _, l := range lines[2:] {
		rec.lines = append(rec.lines, uint16(off))
		off += len(l) + 1
	}
	if !slices.Equal(rec.Fields(), fields) {
		panic(fmt.Sprintf("the line offsets give %q, the old parser found %q", rec.Fields(), fields))
	}
	return rec, nil
}

// parseFields matches lines against schema in order; line numbers in errors count from 1 at
// the record's "type" line.
func oldParseFields(schema []field, lines []string) ([]Field, error) {
	fields := make([]Field, 0, len(lines))
	i := 0
	for _, f := range schema {
		n := 0
		for i < len(lines) && oldLineKey(lines[i]) == f.key {
			if n > 0 && (f.n == one || f.n == opt) {
				return nil, fmt.Errorf("%w: line %d: %s repeated", ErrSyntax, i+3, f.key)
			}
			val := strings.TrimPrefix(lines[i][len(f.key):], " ")
			if len(lines[i]) == len(f.key)+1 {
				return nil, fmt.Errorf("%w: line %d: trailing space", ErrSyntax, i+3)
			}
			if err := oldCheckValue(f.kind, val); err != nil {
				return nil, fmt.Errorf("%w: line %d: %s: %v", ErrSyntax, i+3, f.key, err)
			}
			fields = append(fields, Field{f.key, val})
			n++
			i++
		}
		if n == 0 && (f.n == one || f.n == some) {
			return nil, fmt.Errorf("%w: line %d: missing %s", ErrSyntax, i+3, f.key)
		}
	}
	if i < len(lines) {
		return nil, fmt.Errorf("%w: line %d: unexpected %q", ErrSyntax, i+3, clip(lines[i]))
	}
	return fields, nil
}

func oldLineKey(line string) string {
	k, _, _ := strings.Cut(line, " ")
	return k
}

func oldCheckValue(k kind, v string) error {
	switch k {
	case kUint:
		return oldCheckUint(v)
	case kHex:
		return oldCheckHex(v, -1)
	case kHex16:
		return oldCheckHex(v, 16)
	case kHex32:
		return oldCheckHex(v, 32)
	case kHex64:
		return oldCheckHex(v, 64)
	case kToken:
		return oldCheckToken(v)
	case kTokens:
		return oldCheckList(v, true, oldCheckToken)
	case kUints:
		return oldCheckList(v, false, oldCheckUint)
	case kText:
		return oldCheckText(v)
	case kTime:
		return oldCheckTime(v)
	case kDice:
		_, _, err := ParseDice(v)
		return err
	case kPair:
		a, b, ok := strings.Cut(v, " ")
		if !ok || oldCheckToken(a) != nil || oldCheckToken(b) != nil {
			return fmt.Errorf("%q is not two tokens", clip(v))
		}
		return nil
	}
	return fmt.Errorf("unknown kind %d", k)
}

func oldCheckUint(v string) error {
	if v == "" || len(v) > 20 || (len(v) > 1 && v[0] == '0') {
		return fmt.Errorf("%q is not a canonical decimal", clip(v))
	}
	if _, err := strconv.ParseUint(v, 10, 64); err != nil {
		return fmt.Errorf("%q is not a canonical decimal", clip(v))
	}
	return nil
}

func oldCheckHex(v string, n int) error {
	if n >= 0 && len(v) != 2*n {
		return fmt.Errorf("want %d hex bytes, have %d characters", n, len(v))
	}
	if len(v)%2 != 0 {
		return fmt.Errorf("odd hex length")
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Errorf("%q is not lowercase hex", clip(v))
		}
	}
	return nil
}

// CheckToken reports whether v is a token: 1-200 printable ASCII bytes without a space.
func oldCheckToken(v string) error {
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

func oldCheckList(v string, emptyOK bool, each func(string) error) error {
	if v == "" {
		if emptyOK {
			return nil
		}
		return fmt.Errorf("empty list")
	}
	for _, p := range strings.Split(v, " ") {
		if err := each(p); err != nil {
			return err
		}
	}
	return nil
}

// CheckText reports whether v may be a text value: valid UTF-8, no control characters, no
// leading or trailing white space, at most 2000 bytes.
func oldCheckText(v string) error {
	if len(v) > 2000 {
		return fmt.Errorf("text of %d bytes", len(v))
	}
	if strings.TrimSpace(v) != v {
		return fmt.Errorf("text %q has edge spaces", clip(v))
	}
	for _, r := range v {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("text %q has a control character", clip(v))
		}
	}
	return nil
}

func oldCheckTime(v string) error {
	if v == "none" {
		return nil
	}
	t, err := time.Parse(TimeLayout, v)
	if err != nil || t.Format(TimeLayout) != v {
		return fmt.Errorf("%q is not a UTC time like %s", clip(v), TimeLayout)
	}
	return nil
}
