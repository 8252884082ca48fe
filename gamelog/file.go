package gamelog

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"navarch/dice"
	"navarch/ident"
)

// FileHeader starts every v1 export file; the view word follows it. A v2 file starts with
// FormatV2 + " log".
const FileHeader = FormatV1 + " log"

// Entry is one position of the chain in an export: a record, or (v1 only) a record withheld
// from this view (Record nil) of which only the leaf hash is given. In a v2 export every
// position has its record; a sealed record whose content this view may see carries it as
// Inner, with the nonce that opens its commitment.
type Entry struct {
	Index  uint64
	Leaf   ident.Hash
	Record *Record
	Inner  *Record // v2: the record a sealed record withholds, where this view may see it
	Nonce  ident.Hash
	Line   int // line of the export file where the entry starts (parsed files only)

	// seal is the parser's SealedHash of Inner; the verifier uses it while Inner and Nonce
	// are still those it was computed for.
	seal *sealCache
}

type sealCache struct {
	hash, nonce ident.Hash
	inner       *Record
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
	Format  string // FormatV1 or FormatV2, from the header
	View    string // "full", "public" or "side:<id>"
	Entries []Entry
	Private []Private
	Size    uint64     // the trailer's record count
	Head    ident.Hash // the trailer's head
	// Signature (v2) is the installation's Ed25519 signature of the trailer (ExportCheckpoint):
	// a file cut short cannot carry a trailer that verifies.
	Signature []byte

	seals []sealCache // an arena for the entries' seal caches
}

// Sign fills the trailer of a v2 file: count and head from its entries, signed with key.
func (f *File) Sign(game ident.GameID, key ed25519.PrivateKey) {
	leaves := make([]ident.Hash, len(f.Entries))
	for i, e := range f.Entries {
		leaves[i] = e.Leaf
	}
	c := Checkpoint{Game: game, Size: uint64(len(f.Entries)), Head: Head(leaves)}
	c.SignExport(key)
	f.Size, f.Head, f.Signature = c.Size, c.Head, c.Signature
}

// WriteFile writes an export: header, one block per entry (a v2 entry's Inner as an unseal
// block right after it), the private blocks, and the trailer "end-of-log <size> <head>",
// followed in v2 by the trailer's signature; blocks are separated by one empty line. The
// trailer's head is computed here from the entries' leaves.
func WriteFile(w io.Writer, f *File) error {
	format := f.Format
	if format == "" {
		format = FormatV1
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s log %s\n", format, f.View)
	var head ident.Hash
	for i, e := range f.Entries {
		if e.Index != uint64(i) {
			return fmt.Errorf("export: entry %d has index %d", i, e.Index)
		}
		head = NextHead(e.Index, head, e.Leaf)
		buf.WriteByte('\n')
		switch {
		case e.Record == nil && format == FormatV1:
			fmt.Fprintf(&buf, "redacted %d %x\n", e.Index, e.Leaf[:])
		case e.Record == nil:
			return fmt.Errorf("export: a %s file withholds no record (entry %d)", format, i)
		default:
			buf.Write(e.Record.Raw)
		}
		if e.Inner != nil {
			fmt.Fprintf(&buf, "\nunseal %d %x\n", e.Index, e.Nonce[:])
			buf.Write(e.Inner.Raw)
		}
	}
	for _, p := range f.Private {
		fmt.Fprintf(&buf, "\nprivate %d %x %x\n", p.Commit, p.Nonce[:], p.Data)
	}
	fmt.Fprintf(&buf, "\nend-of-log %d %x", len(f.Entries), head[:])
	if format != FormatV1 {
		fmt.Fprintf(&buf, " %x", f.Signature)
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}

// ParseFile parses an export strictly. Errors name the line and, where there is one, the
// record.
//
// The File keeps data: its records' bytes and field values are data's own bytes, not a
// copy, so the caller must not change data while the File is in use.
//
// It works in two passes, so that a long log is read at the speed of its hashing: the blocks
// are found and their records parsed, and their leaves hashed, on every core, each worker
// reading a stretch of the file once; then the blocks are taken in file order as if parsed
// one by one, so that the first bad block is the one reported, with the same message.
func ParseFile(data []byte) (*File, error) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%w: file is empty or truncated (no final newline)", ErrSyntax)
	}
	crErr := func() error { return fmt.Errorf("%w: file has CR characters (line endings must be LF)", ErrSyntax) }
	f := &File{}
	str := unsafe.String(unsafe.SliceData(data), len(data)) // the caller keeps data unchanged
	header, _, _ := strings.Cut(str, "\n\n")
	if err := f.parseHeader(header); err != nil {
		if bytes.IndexByte(data, '\r') >= 0 {
			return nil, crErr()
		}
		return nil, err
	}
	if g := parseGood(data, str, len(header), f.Format, f.View); g != nil {
		return g, nil
	}
	// A good header has no CR; the workers look for one in the rest, each in its stretch.
	runs := scanBlocks(data, str, len(header))
	for _, r := range runs {
		if r.cr {
			return nil, crErr()
		}
	}
	n := 0
	for _, r := range runs {
		n += countRecords(r.blocks)
	}
	f.Entries = make([]Entry, 0, n)
	line := 3 // the header is one line, then an empty one
	for _, r := range runs {
		for i := range r.blocks {
			b := &r.blocks[i]
			rec, perr := r.record(b)
			trailer, err := f.takeBlock(b, rec, perr, line, data[b.start:b.end], str[b.start:b.end])
			if err != nil {
				return nil, err
			}
			if trailer {
				if b.end < len(str) { // the file ends with the trailer's LF (docs/LOG-FORMAT.md 4)
					return nil, fmt.Errorf("%w: line %d: text after end-of-log", ErrSyntax, line+1)
				}
				return f, nil
			}
			line += int(b.lines) + 1 // the next block follows the empty line after b
		}
	}
	return nil, fmt.Errorf("%w: truncated: no end-of-log line after %d records", ErrSyntax, len(f.Entries))
}

// scanBlocks finds and parses the blocks after the header (which ends at byte header), in
// runs that follow each other in file order, each block right after the empty line that
// ends the one before it. A long file is cut into one stretch per core, each worker taking
// the blocks that start in its stretch. Where an empty line is followed by another (which
// no export has), the blocks are found one by one from the start, as the format's reading
// defines them.
func scanBlocks(data []byte, str string, header int) []*run {
	workers := runtime.GOMAXPROCS(0)
	if len(str) < parallelMin || workers < 2 {
		r := scanChunk(data, str, header, len(str))
		if r.triple && !r.cr {
			return []*run{parsedBlocks(data, str, header)}
		}
		return []*run{r}
	}
	per := (len(str)-header)/workers + 1
	runs := make([]*run, workers)
	var wg sync.WaitGroup
	for w := range runs {
		a := header + w*per
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[w] = scanChunk(data, str, a, min(a+per, len(str)))
		}()
	}
	wg.Wait()
	for _, r := range runs {
		if r.cr {
			return runs
		}
	}
	for _, r := range runs {
		if r.triple {
			return []*run{parsedBlocks(data, str, header)}
		}
	}
	return runs
}

func parsedBlocks(data []byte, str string, header int) *run {
	r := &run{blocks: splitBlocks(str, header)}
	r.parse(data, str)
	return r
}

// run is what a worker found in its stretch of the file: the blocks that start right after
// an empty line in it, and the records parsed from them. The blocks hold no pointers, so
// that the collector need not scan them.
type run struct {
	blocks []block
	recs   []Record
	errs   []error
	arena  []uint16 // for the records' line offsets
	triple bool     // an empty line followed by another: the stretch's blocks are not to be trusted
	cr     bool     // a CR in the stretch: the file is refused
}

// record returns the record parsed from b (nil if none) and its parse error.
func (r *run) record(b *block) (*Record, error) {
	switch {
	case b.err > 0:
		return nil, r.errs[b.err-1]
	case b.rec > 0:
		return &r.recs[b.rec-1], nil
	}
	return nil, nil
}

// add keeps the record parsed from b, or its error.
func (r *run) add(b *block, rec Record, err error) {
	if err != nil {
		r.errs = append(r.errs, err)
		b.err = int32(len(r.errs))
		return
	}
	r.recs = append(r.recs, rec)
	b.rec = int32(len(r.recs))
}

// scanChunk finds and parses the blocks that start in [a, b), reading each line once where
// its record is good (scanRecord), and hashes each record's leaf and each unsealed record's
// commitment; first it looks for a CR in [a, b), and does nothing more if it finds one.
func scanChunk(data []byte, str string, a, b int) *run {
	r := &run{}
	if a >= b {
		return r
	}
	if bytes.IndexByte(data[a:b], '\r') >= 0 {
		r.cr = true
		return r
	}
	i := strings.Index(str[a:], "\n\n")
	if i < 0 || a+i >= b {
		return r
	}
	p := a + i // an empty line ends at p+1; the block starts at p+2
	r.blocks = make([]block, 0, (b-a)/96+16)
	r.recs = make([]Record, 0, (b-a)/100+16) // an export has a record in every 110 bytes or so
	h := sha256.New()
	for p < b && p+2 < len(str) {
		start := p + 2
		if str[start] == '\n' {
			r.triple = true
			return r
		}
		if cap(r.arena)-len(r.arena) < 1024 {
			r.arena = make([]uint16, 0, max(16<<10, (b-start)/14)) // a field line in every 17 bytes or so
		}
		r.blocks = append(r.blocks, block{start: start, end: -1})
		blk := &r.blocks[len(r.blocks)-1]
		switch s := str[start:]; {
		case strings.HasPrefix(s, "type "):
			blk.kind = blockRecord
			if rec, end, ok := scanRecord(data, str, start, &r.arena); ok {
				blk.end, blk.lines = end, int32(2+len(rec.lines))
				h.Reset()
				h.Write(leafPrefix)
				h.Write(rec.Raw)
				h.Sum(blk.leaf[:0])
				r.add(blk, rec, nil)
			}
		case strings.HasPrefix(s, "unseal "):
			blk.kind = blockUnseal
			nl := strings.IndexByte(s, '\n')
			if body := start + nl + 1; body < len(str) && str[body] != '\n' {
				if rec, end, ok := scanRecord(data, str, body, &r.arena); ok {
					blk.end, blk.lines = end, int32(3+len(rec.lines))
					blk.leaf, blk.sealedOK = unsealHash(s[:nl], rec.Raw)
					r.add(blk, rec, nil)
				}
			}
		}
		if blk.end < 0 { // a block of another kind, or a record the good path does not take
			next := strings.Index(str[start:], "\n\n")
			blk.end = len(str)
			if next >= 0 {
				blk.end = start + next + 1
			}
			blk.kind = kindOf(str[start:blk.end])
			blk.lines = int32(strings.Count(str[start:blk.end], "\n"))
			r.parseBlock(data, str, blk, h)
		}
		if blk.end >= len(str) {
			break
		}
		p = blk.end - 1
	}
	return r
}

func kindOf(s string) blockKind {
	switch {
	case strings.HasPrefix(s, "type ") || strings.HasPrefix(s, "type\n"):
		return blockRecord
	case strings.HasPrefix(s, "unseal ") || strings.HasPrefix(s, "unseal\n"):
		return blockUnseal
	}
	return blockOther
}

// block is one block of an export file, by its bytes' place; the records in it are parsed
// (and hashed) ahead of their turn.
type block struct {
	start, end int   // its bytes, with the final newline and without the empty line after it
	lines      int32 // its lines
	// rec is 1 + the index in its run's recs of the record parsed from the block (a record
	// block's, or the unsealed record of an unseal block), err 1 + that of its parse error
	// in errs; 0 for none.
	rec, err int32
	kind     blockKind
	sealedOK bool       // an unseal block whose leaf field holds the SealedHash of its record
	leaf     ident.Hash // a record block's leaf
}

type blockKind uint8

const (
	blockOther  blockKind = iota
	blockRecord           // starts with "type"
	blockUnseal           // starts with "unseal"
)

// splitBlocks finds the blocks after the header (which ends at byte header) up to and with
// the first that may be the trailer: a block runs to the next empty line and keeps its final
// newline, which is part of a record's stored bytes.
func splitBlocks(str string, header int) []block {
	if header+2 > len(str) {
		return nil
	}
	out := make([]block, 0, strings.Count(str[header:], "\n\n"))
	pos := header + 2
	for pos < len(str) {
		end := strings.Index(str[pos:], "\n\n")
		if end < 0 {
			end = len(str) - 1 - pos
		}
		b := block{start: pos, end: pos + end + 1}
		b.kind = kindOf(str[pos:b.end])
		b.lines = int32(strings.Count(str[pos:b.end], "\n"))
		out = append(out, b)
		if strings.HasPrefix(str[pos:b.end], "end-of-log") {
			break // the trailer, or a bad block: either ends the file's reading
		}
		pos = b.end + 1
	}
	return out
}

func countRecords(blocks []block) int {
	n := 0
	for i := range blocks {
		if blocks[i].kind == blockRecord {
			n++
		}
	}
	return n
}

// parse parses the record of every record and unseal block of r and hashes each record
// block's leaf (and each unseal block's commitment).
func (r *run) parse(data []byte, str string) {
	h := sha256.New()
	for i := range r.blocks {
		r.parseBlock(data, str, &r.blocks[i], h)
	}
}

// parseBlock parses the record of a record or unseal block b of r with parseRecord, and
// hashes a record block's leaf (and an unseal block's commitment).
func (r *run) parseBlock(data []byte, str string, b *block, h hash.Hash) {
	start := b.start
	switch b.kind {
	case blockRecord:
	case blockUnseal:
		nl := strings.IndexByte(str[b.start:b.end], '\n')
		start = b.start + nl + 1
		b.leaf, b.sealedOK = unsealHash(str[b.start:b.start+nl], data[start:b.end])
	default:
		return
	}
	s := str[start:b.end]
	if n := strings.Count(s, "\n"); cap(r.arena)-len(r.arena) < n {
		r.arena = make([]uint16, 0, max(n, 16<<10))
	}
	rec, err := parseRecord(data[start:b.end], s, &r.arena)
	if err == nil && b.kind == blockRecord {
		h.Reset()
		h.Write(leafPrefix)
		h.Write(rec.Raw)
		h.Sum(b.leaf[:0])
	}
	r.add(b, rec, err)
}

var leafPrefix = []byte{0}

// parseOne is Parse, its record on the heap.
func parseOne(raw []byte) (*Record, error) {
	rec, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

// unsealHash computes, ahead of its turn, the commitment an unseal block's record opens
// with the nonce of its line ("unseal <index> <nonce>"); ok is false where the line has no
// such nonce (then the block fails in its turn).
func unsealHash(line string, inner []byte) (h ident.Hash, ok bool) {
	h, _, ok = unsealNonceHash(nil, line, inner)
	return h, ok
}

// unsealNonceHash is unsealHash, which also returns the nonce, hashing with sh (nil: a new
// one).
func unsealNonceHash(sh *sealHasher, line string, inner []byte) (h, nonce ident.Hash, ok bool) {
	i := strings.LastIndexByte(line, ' ')
	if i < 0 || decodeFixed(nonce[:], line[i+1:]) != nil {
		return h, nonce, false
	}
	if sh == nil {
		sh = newSealHasher()
	}
	return sh.sum(&nonce, inner), nonce, true
}

// sealHasher computes SealedHash of one record after another without an allocation.
type sealHasher struct {
	h   hash.Hash
	buf []byte // the nonce, then the sum
}

var sealedTag = dice.Tag(dice.TagSealed)

func newSealHasher() *sealHasher {
	return &sealHasher{h: sha256.New(), buf: make([]byte, 0, sha256.Size)}
}

// sum returns SealedHash(*nonce, inner).
func (s *sealHasher) sum(nonce *ident.Hash, inner []byte) (out ident.Hash) {
	s.h.Reset()
	s.h.Write(sealedTag)
	s.buf = append(s.buf[:0], nonce[:]...)
	s.h.Write(s.buf)
	s.h.Write(inner)
	s.buf = s.h.Sum(s.buf[:0])
	copy(out[:], s.buf)
	return out
}

// takeBlock adds block b (bytes raw, text s, starting at file line line) to f, in file
// order, with the record parsed from it ahead (rec, or its error perr); it reports whether b
// is the trailer.
func (f *File) takeBlock(b *block, rec *Record, perr error, line int, raw []byte, s string) (trailer bool, err error) {
	next := uint64(len(f.Entries))
	if b.kind == blockRecord && rec != nil && len(f.Private) == 0 && rec.Index == next {
		// The good path of the "type" case below, without reading the block's first line.
		f.Entries = append(f.Entries, Entry{Index: next, Leaf: b.leaf, Record: rec, Line: line})
		return false, nil
	}
	first, body, _ := strings.Cut(s, "\n")
	word, rest, _ := strings.Cut(first, " ")
	one := func() string { // a one-line block's text; fields() refuses one with more lines
		if len(first)+1 != len(s) {
			return first + "\n…"
		}
		return first
	}
	switch {
	case word == "type":
		if len(f.Private) > 0 {
			return false, fmt.Errorf("%w: line %d: record after private blocks", ErrSyntax, line)
		}
		if b.kind != blockRecord { // "type" alone on its line: parse it as the record it is not
			rec, perr = parseOne(raw)
		}
		if perr != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, perr)
		}
		if rec.Index != next {
			return false, fmt.Errorf("record %d (line %d): %w: index %d out of sequence", next, line, ErrSyntax, rec.Index)
		}
		leaf := b.leaf
		if b.kind != blockRecord {
			leaf = Leaf(rec.Raw)
		}
		f.Entries = append(f.Entries, Entry{Index: next, Leaf: leaf, Record: rec, Line: line})
	case word == "redacted" && f.Format == FormatV1:
		e, err := parseRedacted(one(), rest, next)
		if err != nil {
			return false, fmt.Errorf("record %d (line %d): %w", next, line, err)
		}
		e.Line = line
		f.Entries = append(f.Entries, e)
	case word == "unseal" && f.Format != FormatV1:
		if b.kind != blockUnseal {
			rec, perr = parseOne([]byte(body))
		}
		if err := f.parseUnseal(rest, b, rec, perr); err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
	case word == "private":
		p, err := parsePrivate(one(), rest)
		if err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
		f.Private = append(f.Private, p)
	case word == "end-of-log":
		return true, f.parseTrailer(one(), rest, line)
	default:
		return false, fmt.Errorf("%w: line %d: unknown block %q", ErrSyntax, line, clip(first))
	}
	return false, nil
}

func (f *File) parseHeader(header string) error {
	for _, format := range Formats {
		if view, ok := strings.CutPrefix(header, format+" log "); ok && CheckToken(view) == nil {
			f.Format, f.View = format, view
			return nil
		}
	}
	return fmt.Errorf("%w: line 1: not a navarch log (want %q)", ErrSyntax, FormatV5+" log <view>")
}

// parseUnseal reads "unseal <index> <nonce>" and the record it opens, which must be the
// sealed record just before it, not yet opened.
func (f *File) parseUnseal(rest string, b *block, inner *Record, perr error) error {
	index, nonce, two := strings.Cut(rest, " ")
	n := len(f.Entries)
	var buf [20]byte
	if !two || strings.Contains(nonce, " ") || n == 0 || index != string(strconv.AppendUint(buf[:0], uint64(n-1), 10)) {
		return fmt.Errorf("%w: unseal block must name the record just before it", ErrSyntax)
	}
	e := &f.Entries[n-1]
	if e.Record.Type != TypeSealed || e.Inner != nil {
		return fmt.Errorf("%w: unseal block after record %d, which is not a sealed record", ErrSyntax, n-1)
	}
	if err := decodeFixed(e.Nonce[:], nonce); err != nil {
		return err
	}
	if perr != nil {
		return fmt.Errorf("record %d unsealed: %w", n-1, perr)
	}
	if inner.Index != uint64(n-1) || inner.Type == TypeSealed {
		return fmt.Errorf("%w: record %d unsealed: index %d, type %s", ErrSyntax, n-1, inner.Index, inner.Type)
	}
	e.Inner = inner
	if b.sealedOK && b.kind == blockUnseal { // computed with the nonce just decoded
		if len(f.seals) == cap(f.seals) {
			f.seals = make([]sealCache, 0, 4096)
		}
		f.seals = append(f.seals, sealCache{hash: b.leaf, nonce: e.Nonce, inner: inner})
		e.seal = &f.seals[len(f.seals)-1]
	}
	return nil
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
	n := 2
	if f.Format != FormatV1 {
		n = 3
	}
	p, err := fields(b, rest, n)
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
	if n == 3 {
		f.Signature = make([]byte, ed25519.SignatureSize)
		if err := decodeFixed(f.Signature, p[2]); err != nil {
			return fmt.Errorf("line %d: end-of-log signature: %w", line, err)
		}
	}
	return nil
}
