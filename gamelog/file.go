package gamelog

import (
	"bytes"
	"fmt"
	"io"
	"navarch/ident"
	"strconv"
	"strings"
)

// FileHeader starts every export file; the view word follows it.
const FileHeader = "navarch/v1 log"

// Entry is one position of the chain in an export: a record, or a record withheld from this
// view (Record nil) of which only the leaf hash is given.
type Entry struct {
	Index  uint64
	Leaf   ident.Hash
	Record *Record
	Line   int // line of the export file where the entry starts (parsed files only)
}

// Private is a side's own hidden set-up, exported only in that side's copy, so that the side
// can check the commit record before the rules reveal it.
type Private struct {
	Commit uint64
	Nonce  ident.Hash
	Data   []byte
}

// File is a parsed export file.
type File struct {
	View    string // "full", "public" or "side:<id>"
	Entries []Entry
	Private []Private
	Size    uint64     // the trailer's record count
	Head    ident.Hash // the trailer's head
}

// WriteFile writes an export: header, one block per entry, the private blocks, and the
// "end-of-log <size> <head>" trailer, blocks separated by one empty line. The trailer's head
// is computed here from the entries' leaves.
func WriteFile(w io.Writer, view string, entries []Entry, private []Private) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %s\n", FileHeader, view)
	var head ident.Hash
	for i, e := range entries {
		if e.Index != uint64(i) {
			return fmt.Errorf("export: entry %d has index %d", i, e.Index)
		}
		head = NextHead(e.Index, head, e.Leaf)
		buf.WriteByte('\n')
		if e.Record != nil {
			buf.Write(e.Record.Raw)
		} else {
			fmt.Fprintf(&buf, "redacted %d %x\n", e.Index, e.Leaf[:])
		}
	}
	for _, p := range private {
		fmt.Fprintf(&buf, "\nprivate %d %x %x\n", p.Commit, p.Nonce[:], p.Data)
	}
	fmt.Fprintf(&buf, "\nend-of-log %d %x\n", len(entries), head[:])
	_, err := w.Write(buf.Bytes())
	return err
}

// ParseFile parses an export strictly. Errors name the line and, where there is one, the
// record.
func ParseFile(data []byte) (*File, error) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%w: file is empty or truncated (no final newline)", ErrSyntax)
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, fmt.Errorf("%w: file has CR characters (line endings must be LF)", ErrSyntax)
	}
	f := &File{}
	header, rest, _ := bytes.Cut(data, []byte("\n\n"))
	view, ok := strings.CutPrefix(string(header), FileHeader+" ")
	if !ok || CheckToken(view) != nil {
		return nil, fmt.Errorf("%w: line 1: not a navarch log (want %q)", ErrSyntax, FileHeader+" <view>")
	}
	f.View = view
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
		if len(rest) > 0 {
			rest = rest[1:]
		}
		trailer, err := f.parseBlock(b, line)
		if err != nil {
			return nil, err
		}
		if trailer {
			if len(rest) > 0 {
				return nil, fmt.Errorf("%w: line %d: text after end-of-log", ErrSyntax, line+1)
			}
			return f, nil
		}
		line += bytes.Count(b, []byte("\n")) + 1
	}
	return nil, fmt.Errorf("%w: truncated: no end-of-log line after %d records", ErrSyntax, len(f.Entries))
}

func (f *File) parseBlock(raw []byte, line int) (trailer bool, err error) {
	first, _, _ := bytes.Cut(raw, []byte("\n"))
	word, rest, _ := strings.Cut(string(first), " ")
	b := string(first)
	if len(first)+1 != len(raw) {
		b += "\n…" // a one-line block with more lines: fields() refuses it
	}
	next := uint64(len(f.Entries))
	switch word {
	case "type":
		if len(f.Private) > 0 {
			return false, fmt.Errorf("%w: line %d: record after private blocks", ErrSyntax, line)
		}
		rec, err := Parse(raw)
		if err != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, err)
		}
		if rec.Index != next {
			return false, fmt.Errorf("record %d (line %d): %w: index %d out of sequence", next, line, ErrSyntax, rec.Index)
		}
		f.Entries = append(f.Entries, Entry{Index: next, Leaf: Leaf(rec.Raw), Record: &rec, Line: line})
	case "redacted":
		e, err := parseRedacted(b, rest, next)
		if err != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, err)
		}
		e.Line = line
		f.Entries = append(f.Entries, e)
	case "private":
		p, err := parsePrivate(b, rest)
		if err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
		f.Private = append(f.Private, p)
	case "end-of-log":
		return true, f.parseTrailer(b, rest, line)
	default:
		return false, fmt.Errorf("%w: line %d: unknown block %q", ErrSyntax, line, clip(string(first)))
	}
	return false, nil
}

func fields(b, rest string, n int) ([]string, error) {
	if strings.Contains(b, "\n") {
		return nil, fmt.Errorf("%w: one-line block has more lines", ErrSyntax)
	}
	p := strings.Split(rest, " ")
	if len(p) != n {
		return nil, fmt.Errorf("%w: want %d values, have %d", ErrSyntax, n, len(p))
	}
	return p, nil
}

func parseRedacted(b, rest string, next uint64) (Entry, error) {
	p, err := fields(b, rest, 2)
	if err != nil {
		return Entry{}, err
	}
	if checkUint(p[0]) != nil || p[0] != strconv.FormatUint(next, 10) {
		return Entry{}, fmt.Errorf("%w: redacted index %q out of sequence", ErrSyntax, clip(p[0]))
	}
	e := Entry{Index: next}
	return e, decodeFixed(e.Leaf[:], p[1])
}

func parsePrivate(b, rest string) (Private, error) {
	p, err := fields(b, rest, 3)
	if err != nil {
		return Private{}, err
	}
	var pr Private
	if checkUint(p[0]) != nil {
		return pr, fmt.Errorf("%w: private commit index %q", ErrSyntax, clip(p[0]))
	}
	pr.Commit, _ = strconv.ParseUint(p[0], 10, 64)
	if err := decodeFixed(pr.Nonce[:], p[1]); err != nil {
		return pr, err
	}
	if err := checkHex(p[2], -1); err != nil {
		return pr, fmt.Errorf("%w: private data: %v", ErrSyntax, err)
	}
	pr.Data = make([]byte, len(p[2])/2)
	return pr, decodeFixed(pr.Data, p[2])
}

func (f *File) parseTrailer(b, rest string, line int) error {
	p, err := fields(b, rest, 2)
	if err != nil {
		return fmt.Errorf("line %d: end-of-log: %w", line, err)
	}
	if checkUint(p[0]) != nil {
		return fmt.Errorf("%w: line %d: end-of-log count %q", ErrSyntax, line, clip(p[0]))
	}
	f.Size, _ = strconv.ParseUint(p[0], 10, 64)
	if err := decodeFixed(f.Head[:], p[1]); err != nil {
		return fmt.Errorf("line %d: end-of-log head: %w", line, err)
	}
	return nil
}
