package gamelog

import (
	"crypto/sha256"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"navarch/ident"
)

// ParseFile's first way is for a good export, as the daemon writes it: records, unseal
// blocks and the signed trailer, nothing else, no error. The file is cut into one stretch
// per core. The trailer gives the number of records, and the index line of the first record
// block after each stretch's start gives the range of entries its worker fills: each worker
// parses its stretch's blocks straight into the File's entries, checking that their indices
// run through its range, hashes each leaf and each unsealed record's commitment, and opens
// each sealed record with the unseal block after it. Line numbers are counted from each
// stretch's first block and shifted once every stretch's count is known; the stretches must
// follow each other block to block. Whatever is not of a good export (an error, a block of
// another kind, anything it does not know) makes it give up, and ParseFile then parses the
// file the careful way (scanBlocks and takeBlock), which names the first error as the
// format's reading defines it. A file this way accepts is the File the careful way gives
// (TestParseFileAsBefore, FuzzParseFileAsBefore, TestUnsealAcrossStretchesAsBefore), and it
// has no CR: every byte of it is checked (each line of a record against its schema, the
// unseal and trailer lines word by word), and a CR is in no value the format allows.

// goodRun is what one worker made of its stretch [a, b).
type goodRun struct {
	a, b      int
	base, end int // the entries it fills: [base, end)
	off       int // the index of f.Entries[0] (a stream's stretch: stream.go)
	start     int // where its first block starts; −1 where no block starts in the stretch
	stop      int // where the first block after its stretch starts; len(str) at the file's end
	stopLine  int // the lines from start to stop
	ok        bool
	// first is the stretch's first block when it is an unseal block, whose sealed record
	// the worker before made; it is opened after both are done.
	first   *goodUnseal
	trailer *goodTrailer
}

type goodUnseal struct {
	rest     string // the unseal line after "unseal "
	inner    *Record
	sealedOK bool       // the line's last word is a nonce
	hash     ident.Hash // the commitment inner opens with nonce
	nonce    ident.Hash
}

type goodTrailer struct {
	first, rest string // the first line, "…" added for a block of more lines; the words after "end-of-log "
	line        int
	end         int // where the block's bytes end
}

// parallelMin is the size from which a file is parsed on several cores (a variable for the
// tests, which cut small files into stretches).
var parallelMin = 256 << 10

// parseGood parses data the good way, or returns nil.
func parseGood(data []byte, str string, header int, format, view string) *File {
	workers := runtime.GOMAXPROCS(0)
	if len(str) < parallelMin || workers < 2 {
		workers = 1
	}
	n, ok := trailerCount(str, header)
	if !ok {
		return nil
	}
	per := (len(str)-header)/workers + 1
	runs := make([]goodRun, workers)
	for w := range runs {
		r := &runs[w]
		r.a = header + w*per
		r.b = min(r.a+per, len(str))
		if r.base, ok = firstIndex(str, r.a, n); !ok || r.base < 0 || w == 0 && r.base != 0 || w > 0 && r.base < runs[w-1].base {
			return nil
		}
		if w > 0 {
			runs[w-1].end = r.base
		}
	}
	runs[workers-1].end = n
	f := &File{Format: format, View: view, Entries: make([]Entry, n)}
	parallel(workers, func(w int) { runs[w].ok = runs[w].parse(f, data, str) })
	var trailer *goodTrailer
	line := 3 // the first block's: the header is one line, then an empty one
	lines := make([]int, workers)
	prev := -1 // the run before, of those in whose stretch a block starts
	for w := range runs {
		r := &runs[w]
		if !r.ok || trailer != nil && (r.end > r.base || r.first != nil) {
			return nil
		}
		if r.start >= 0 {
			if prev >= 0 && runs[prev].stop != r.start || prev < 0 && r.start != header+2 {
				return nil // the stretches do not follow each other block to block
			}
			lines[w], line, prev = line, line+r.stopLine, w
		}
		if r.first != nil && (r.base == 0 || !f.unsealGood(r.base-1, 0, r.first, nil)) {
			return nil
		}
		if r.trailer != nil {
			trailer = r.trailer
			trailer.line += lines[w]
		}
	}
	if trailer == nil || trailer.end < len(str) || f.parseTrailer(trailer.first, trailer.rest, trailer.line) != nil || f.Size != uint64(n) {
		return nil
	}
	parallel(workers, func(w int) { // each stretch's line numbers, from its first block's
		for i := runs[w].base; i < runs[w].end; i++ {
			f.Entries[i].Line += lines[w]
		}
	})
	return f
}

// trailerCount reads the record count of the trailer, the file's last block ("end-of-log
// <count> …" on one line), bounded by what the file's size can hold; ok is false where the
// file does not end so.
func trailerCount(str string, header int) (n int, ok bool) {
	i := strings.LastIndexByte(str[:len(str)-1], '\n')
	if i < header+1 || str[i-1] != '\n' {
		return 0, false
	}
	rest, ok := strings.CutPrefix(str[i+1:], "end-of-log ")
	count, _, _ := strings.Cut(rest, " ")
	// A record block takes more than 16 bytes ("type note\nindex 0\nby x\ntext\n\n").
	if !ok || !isUint(count) || len(count) > 12 || parseUint(count) > uint64(len(str)-header)/16 {
		return 0, false
	}
	return int(parseUint(count)), true
}

// firstIndex returns the index of the first record a worker whose stretch starts at a takes:
// that of the first record block after the first empty line at or after a, or after the
// unseal block there; n where the trailer comes first or no block follows. ok is false
// where the blocks there are not those of a good export.
func firstIndex(str string, a, n int) (index int, ok bool) {
	i := strings.Index(str[a:], "\n\n")
	if i < 0 {
		return n, true
	}
	s := str[a+i+2:]
	if strings.HasPrefix(s, "unseal ") {
		if i = strings.Index(s, "\n\n"); i < 0 {
			return 0, false
		}
		s = s[i+2:]
	}
	if strings.HasPrefix(s, "end-of-log ") {
		return n, true
	}
	s, ok = strings.CutPrefix(s, "type ")
	if i = strings.IndexByte(s, '\n'); !ok || i < 0 {
		return 0, false
	}
	s, ok = strings.CutPrefix(s[i+1:], "index ")
	if i = strings.IndexByte(s, '\n'); !ok || i < 0 || !isUint(s[:i]) || i > 12 || parseUint(s[:i]) > uint64(n) {
		return 0, false
	}
	return int(parseUint(s[:i])), true
}

// parallel runs fn(0) … fn(n−1) on as many goroutines and waits for them.
func parallel(n int, fn func(int)) {
	if n == 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w)
		}()
	}
	wg.Wait()
}

// parse parses the stretch's blocks into f.Entries[r.base:r.end], numbering their lines from
// its first block's; it reports whether they were all of a good export and filled the range.
func (r *goodRun) parse(f *File, data []byte, str string) bool {
	r.start, r.stop = -1, -1
	if r.a >= r.b {
		return r.base == r.end
	}
	i := strings.Index(str[r.a:], "\n\n")
	if i < 0 || r.a+i >= r.b {
		return r.base == r.end
	}
	p := r.a + i // an empty line ends at p+1; the block starts at p+2
	r.start = p + 2
	line := 0
	next := r.base // the index of the next entry
	var arena []uint16
	var recs []Record
	seals := make([]sealCache, 0, min(4096, max(64, (r.b-r.a)/256))) // a seal in every 300 bytes or so, at most
	h, sh := sha256.New(), newSealHasher()
	for p < r.b && p+2 < len(str) {
		start := p + 2
		if cap(arena)-len(arena) < 1024 {
			arena = make([]uint16, 0, max(2048, (r.b-start)/14)) // a field line in every 17 bytes or so
		}
		if len(recs) == cap(recs) {
			recs = make([]Record, 0, max(128, (r.b-start)/100)) // a record in every 110 bytes or so
		}
		s := str[start:]
		var end, lines int
		switch {
		case strings.HasPrefix(s, "type "):
			if next >= r.end {
				return false
			}
			recs = recs[:len(recs)+1] // the record is written in its place
			rec := &recs[len(recs)-1]
			e, ok := scanRecordInto(rec, data, str, start, &arena)
			if !ok || rec.Index != uint64(next) {
				return false
			}
			en := &f.Entries[next-r.off] // zero: only the fields of a record entry are set
			en.Index, en.Record, en.Line = rec.Index, rec, line
			h.Reset()
			h.Write(leafPrefix)
			h.Write(rec.Raw)
			h.Sum(en.Leaf[:0])
			next++
			end, lines = e, 2+len(rec.lines)
		case strings.HasPrefix(s, "unseal ") && f.Format != FormatV1:
			nl := strings.IndexByte(s, '\n')
			body := start + nl + 1
			if body >= len(str) || str[body] == '\n' {
				return false
			}
			recs = recs[:len(recs)+1]
			rec := &recs[len(recs)-1]
			e, ok := scanRecordInto(rec, data, str, body, &arena)
			if !ok {
				return false
			}
			u := goodUnseal{rest: s[len("unseal "):nl], inner: rec}
			u.hash, u.nonce, u.sealedOK = unsealNonceHash(sh, s[:nl], rec.Raw)
			if next == r.base {
				if r.first != nil {
					return false
				}
				first := u // only this one escapes
				r.first = &first
			} else if !f.unsealGood(next-1, r.off, &u, &seals) {
				return false
			}
			end, lines = e, 3+len(rec.lines)
		case strings.HasPrefix(s, "end-of-log "):
			end = len(str)
			if k := strings.Index(s, "\n\n"); k >= 0 {
				end = start + k + 1
			}
			first, _, _ := strings.Cut(s, "\n")
			t := &goodTrailer{first: first, rest: first[len("end-of-log "):], line: line, end: end}
			if len(first)+1 != end-start {
				t.first += "\n…"
			}
			r.trailer = t
			r.stop, r.stopLine = len(str), line
			return next == r.end
		default:
			return false
		}
		line += lines + 1
		if end >= len(str) { // a block ends the file, with no trailer after it: refused
			r.stop, r.stopLine = len(str), line
			return next == r.end
		}
		p = end - 1
	}
	r.stop, r.stopLine = p+2, line
	return next == r.end
}

// unsealGood opens entry i (f.Entries[i−off]) with u as parseUnseal does (u's nonce, its
// record the entry's Inner), where every check passes; it reports whether they did. A seal
// cache goes to *seals (nil: a new one).
func (f *File) unsealGood(i, off int, u *goodUnseal, seals *[]sealCache) bool {
	index, nonce, two := strings.Cut(u.rest, " ")
	var buf [20]byte
	if !two || strings.Contains(nonce, " ") || index != string(strconv.AppendUint(buf[:0], uint64(i), 10)) {
		return false
	}
	e := &f.Entries[i-off]
	// u's nonce is decoded from the line's last word, which is nonce (it has no space); a
	// word that is not a nonce leaves sealedOK false, and parseUnseal would refuse it.
	if e.Record.Type != TypeSealed || e.Inner != nil || !u.sealedOK {
		return false
	}
	e.Nonce = u.nonce
	if u.inner.Index != uint64(i) || u.inner.Type == TypeSealed {
		return false
	}
	e.Inner = u.inner
	if seals == nil {
		seals = &[]sealCache{}
	}
	if len(*seals) == cap(*seals) {
		*seals = make([]sealCache, 0, 4096)
	}
	*seals = append(*seals, sealCache{hash: u.hash, nonce: e.Nonce, inner: u.inner})
	e.seal = &(*seals)[len(*seals)-1]
	return true
}
