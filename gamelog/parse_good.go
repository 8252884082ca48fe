package gamelog

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"navarch/ident"
)

// ParseFile's first way is for a good export, as the daemon writes it: records, unseal
// blocks and the signed trailer, nothing else, no error. Each worker counts, in its stretch
// of the file, the record blocks and the lines (a cheap scan), so that it knows the index
// and line of its first entry; then it parses its stretch's blocks straight into the File's
// entries, hashing each leaf and each unsealed record's commitment, and opens each sealed
// record with the unseal block after it. Whatever is not of a good export (an error, a
// block of another kind, anything it does not know) makes it give up, and ParseFile then
// parses the file the careful way (scanBlocks and takeBlock), which names the first error
// as the format's reading defines it. A file this way accepts is the File the careful way
// gives (TestParseFileAsBefore, FuzzParseFileAsBefore).

// goodRun is what one worker made of its stretch [a, b).
type goodRun struct {
	a, b    int
	records int // record blocks in the stretch ("\n\ntype " at a position in it)
	lines   int // newlines in the stretch
	ok      bool
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

// parseGood parses data the good way, or returns nil.
func parseGood(data []byte, str string, header int, format, view string) *File {
	workers := runtime.GOMAXPROCS(0)
	if len(str) < 256<<10 || workers < 2 {
		workers = 1
	}
	per := (len(str)-header)/workers + 1
	runs := make([]goodRun, workers)
	for w := range runs {
		runs[w].a = header + w*per
		runs[w].b = min(runs[w].a+per, len(str))
	}
	parallel(workers, func(w int) { runs[w].count(str) })
	n := 0
	for _, r := range runs {
		if !r.ok {
			return nil
		}
		n += r.records
	}
	f := &File{Format: format, View: view, Entries: make([]Entry, n)}
	base, lines := 0, 1 // entries and newlines before the stretch: a good header has no newline
	bases, firstLines := make([]int, workers), make([]int, workers)
	for w, r := range runs {
		bases[w], firstLines[w] = base, lines
		base, lines = base+r.records, lines+r.lines
	}
	parallel(workers, func(w int) { runs[w].ok = runs[w].parse(f, data, str, bases[w], firstLines[w]) })
	var trailer *goodTrailer
	for w, r := range runs {
		if !r.ok || trailer != nil && (r.records > 0 || r.first != nil) {
			return nil
		}
		if r.first != nil && (bases[w] == 0 || !f.unsealGood(bases[w]-1, r.first, nil)) {
			return nil
		}
		if r.trailer != nil {
			trailer = r.trailer
		}
	}
	if trailer == nil || trailer.end+1 < len(str) || f.parseTrailer(trailer.first, trailer.rest, trailer.line) != nil {
		return nil
	}
	return f
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

// countStretch reads [a, b) of str once, eight bytes at a time: it counts the positions in
// it where str has "\n\ntype " (as strings.Count of the stretch would) and the newlines in it,
// and reports whether it holds a CR.
func countStretch(str string, a, b int) (records, lines int, cr bool) {
	p := a
	var crs uint64
	for ; p+8 <= b; p += 8 {
		x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(str[p:]), 8))
		crs |= bytesEqual8(x, '\r')
		m := bytesEqual8(x, '\n')
		if m == 0 {
			continue
		}
		lines += bits.OnesCount64(m)
		pairs := m & (m >> 8) // bytes j and j+1 both newlines: a flag at byte j
		if m>>56 != 0 && p+8 < len(str) && str[p+8] == '\n' {
			pairs |= 1 << 63 // the pair across the word's end
		}
		for ; pairs != 0; pairs &= pairs - 1 {
			if strings.HasPrefix(str[p+bits.TrailingZeros64(pairs)/8:], "\n\ntype ") {
				records++
			}
		}
	}
	for ; p < b; p++ {
		switch str[p] {
		case '\r':
			crs = 1
		case '\n':
			lines++
			if strings.HasPrefix(str[p:], "\n\ntype ") {
				records++
			}
		}
	}
	return records, lines, crs != 0
}

// bytesEqual8 returns a word with the high bit set in each byte of x that is c, and no
// other bit.
func bytesEqual8(x uint64, c byte) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	v := x ^ uint64(c)*0x0101010101010101 // a byte c becomes a zero byte
	return ^((v & lo7) + lo7 | v | lo7) & hi
}

// count counts the stretch's record blocks and newlines; ok is false where it has a CR.
func (r *goodRun) count(str string) {
	var cr bool
	// A record block starts right after "\n\n" at a position in the stretch.
	r.records, r.lines, cr = countStretch(str, r.a, r.b)
	r.ok = !cr
}

// parse parses the stretch's blocks into f.Entries[base:], the first of them starting at
// line firstLine + the newlines before it in the stretch; it reports whether they were all
// of a good export.
func (r *goodRun) parse(f *File, data []byte, str string, base, firstLine int) bool {
	if r.a >= r.b {
		return true
	}
	i := strings.Index(str[r.a:], "\n\n")
	if i < 0 || r.a+i >= r.b {
		return r.records == 0
	}
	p := r.a + i // an empty line ends at p+1; the block starts at p+2
	line := firstLine + strings.Count(str[r.a:p+2], "\n")
	next := base // the index of the next entry
	var arena []uint16
	var recs []Record
	var seals []sealCache
	h, sh := sha256.New(), newSealHasher()
	for p < r.b && p+2 < len(str) {
		start := p + 2
		if cap(arena)-len(arena) < 1024 {
			arena = make([]uint16, 0, max(16<<10, (r.b-start)/14)) // a field line in every 17 bytes or so
		}
		if len(recs) == cap(recs) {
			recs = make([]Record, 0, max(1024, (r.b-start)/100)) // a record in every 110 bytes or so
		}
		s := str[start:]
		var end, lines int
		switch {
		case strings.HasPrefix(s, "type "):
			recs = recs[:len(recs)+1] // the record is written in its place
			rec := &recs[len(recs)-1]
			e, ok := scanRecordInto(rec, data, str, start, &arena)
			if !ok || rec.Index != uint64(next) || next-base >= r.records {
				return false
			}
			en := &f.Entries[next] // zero: only the fields of a record entry are set
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
			if next == base {
				if r.first != nil {
					return false
				}
				first := u // only this one escapes
				r.first = &first
			} else if !f.unsealGood(next-1, &u, &seals) {
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
			return next-base == r.records
		default:
			return false
		}
		if r.trailer != nil {
			return false
		}
		line += lines + 1
		if end >= len(str) {
			break
		}
		p = end - 1
	}
	return next-base == r.records
}

// unsealGood opens entry i with u as parseUnseal does (u's nonce, its record the entry's
// Inner), where every check passes; it reports whether they did. A seal cache goes to
// *seals (nil: a new one).
func (f *File) unsealGood(i int, u *goodUnseal, seals *[]sealCache) bool {
	index, nonce, two := strings.Cut(u.rest, " ")
	var buf [20]byte
	if !two || strings.Contains(nonce, " ") || index != string(strconv.AppendUint(buf[:0], uint64(i), 10)) {
		return false
	}
	e := &f.Entries[i]
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
