package gamelog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"navarch/dice"
	"navarch/ident"
)

// VerifyStream is how navarch verify reads a log: a stretch at a time, so that its memory
// does not grow with the log. Its report is Verify's of ParseFile of the same bytes, to the
// byte: the stretches are parsed the way ParseFile parses a good export (parseGood), and
// each entry goes through the verifier's own checks in log order, as it is read. What a
// stream cannot see at a record's place is waited for, never assumed:
//   - a roll's turn seed is revealed after the turn: the activation's rolls are kept until
//     the reveal that gives their key (or to the end, unchecked, as Verify leaves a turn
//     whose seed is not revealed);
//   - an end record makes every sealed record without its unseal block a failure, wherever
//     it stands;
//   - the head of a chain of n entries is kept for the stretches being checked and for
//     the sizes of the checkpoints from mail; a checkpoint record of a size further back
//     sends the log to the whole verifier;
//   - verify --sent reads the player's records once all are read: the join, orders,
//     standing and sender records are kept as they pass (keepSent).
//
// Where anything does not check — a record, a roll, the trailer, a stretch that is not
// that of a good export — and where the log is of format v1, VerifyStream reads r again
// from its start and gives Verify's report of the whole, which names the first failure as
// Verify does; a reader that cannot seek (a pipe) is read whole at once. An error reading r
// wraps ErrRead; a file that does not parse gives ParseFile's error.
func VerifyStream(r io.ReadSeeker, opts VerifyOptions) (*File, *Report, error) {
	if _, err := r.Seek(0, io.SeekCurrent); err == nil { // a pipe cannot be read again: whole
		if f, rep, why := verifyStream(r, opts, streamChunk); why == "" {
			return f, rep, nil
		}
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrRead, err)
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrRead, err)
	}
	f, err := ParseFile(data)
	if err != nil {
		return nil, nil, err
	}
	return f, Verify(f, opts), nil
}

// ErrRead wraps an error reading a log, as opposed to one of its content.
var ErrRead = errors.New("reading the log")

// streamChunk is the size of the stretches a stream is read in (a variable for the tests,
// which cut small logs into many stretches).
var streamChunk = 1 << 17

// streamState is what the verifier keeps while it reads a stream.
type streamState struct {
	n        int                // entries read so far
	lacking  bool               // a sealed record without its unseal block was read
	ended    bool               // the end record was read
	deferred []*rollBatch       // closes' rolls waiting for their turn's seed, in log order
	sent     []Entry            // verify --sent: the entries checkSent and sender read (keepSent)
	sentPrev map[uint64]*Record // and the record before each of them that has a sender record
	labels   []byte             // the arena of their labels (keep)
	heads    streamHeads
}

// keepSent keeps, for verify --sent, an entry that checkSent or sender reads (a join or
// orders record, a sealed standing or sender record), with its records copied out of the
// stretch's bytes, and the record before a sender record's entry, which it reads too.
func (s *streamState) keepSent(e, prev *Entry) {
	r, in := e.Record, e.Inner
	switch {
	case r.Type == TypeJoin || r.Type == TypeOrders || r.Type == TypeSender:
	case in != nil && (in.Type == TypeStanding || in.Type == TypeSender):
	default:
		return
	}
	k := Entry{Index: e.Index, Record: r.clone()}
	if in != nil {
		k.Inner = in.clone()
	}
	s.sent = append(s.sent, k)
	if in != nil && in.Type == TypeSender && prev != nil {
		if s.sentPrev == nil {
			s.sentPrev = map[uint64]*Record{}
		}
		s.sentPrev[prev.Index] = prev.Record.clone()
	}
}

// keep copies a waiting roll's label out of its stretch's bytes, into an arena whose blocks
// are never written again, so that the string stays what it was.
func (s *streamState) keep(label string) string {
	if cap(s.labels)-len(s.labels) < len(label) {
		s.labels = make([]byte, 0, max(64<<10, len(label)))
	}
	n := len(s.labels)
	s.labels = append(s.labels, label...)
	return unsafe.String(unsafe.SliceData(s.labels[n:]), len(label))
}

// verifyStream verifies the log r holds a stretch at a time. why is "" where the log
// verified; otherwise the whole log must be verified (VerifyStream), and why says for what:
// "failed" (something did not check), or the reason the stream could not decide ("format":
// v1, "parse": not a good export as parseGood reads one, "head": a checkpoint of a size
// further back).
func verifyStream(r io.Reader, opts VerifyOptions, size int) (f *File, rep *Report, why string) {
	wanted := map[int]bool{}
	for _, c := range opts.Checkpoints {
		wanted[int(min(c.Size, 1<<40))] = true
	}
	p := startStream(r, size, wanted)
	defer p.stop()
	first, ok := p.next()
	if !ok || len(first.f.Entries) == 0 {
		return nil, nil, "parse"
	}
	f = &File{Format: p.format, View: p.view}
	v := newVerifier(f, opts)
	v.stream = &streamState{}
	v.hc = &v.stream.heads
	v.workers = startRollWorkers()
	err := v.runStream(p, first)
	v.flushBatch()
	rollsOK := v.workers.finish()
	var whole streamWhole
	switch {
	case errors.As(err, &whole):
		return nil, nil, string(whole)
	case v.stream.heads.missing:
		return nil, nil, "head"
	case err != nil || !rollsOK || v.rep.Failure != nil: // findOrders fails the report itself
		return nil, nil, "failed"
	}
	v.rep.Records = v.stream.n
	v.rep.Pending = v.pendingTurns()
	v.rep.Dice = v.stats.sorted()
	return f, v.rep, ""
}

// runStream checks the stream's entries in log order, then what the whole log shows.
func (v *verifier) runStream(p *stream, c *chunk) error {
	if err := v.readGenesis(&c.f.Entries[0]); err != nil {
		return err
	}
	if !v.v2 {
		return streamWhole("format") // v1: its withheld entries and orders texts are read whole
	}
	var prev *Entry
	for ; c != nil; c = p.nextOrNil() {
		v.stream.heads.add(c)
		for i := range c.f.Entries {
			e := &c.f.Entries[i]
			if e.Record.Type == TypeEnd {
				v.stream.ended = true
			}
			if err := v.checkEntry(e); err != nil {
				return err
			}
			if len(v.opts.Sent) > 0 {
				v.stream.keepSent(e, prev)
			}
			prev = e
		}
		v.stream.n = c.end
		if c.last {
			v.f.Size, v.f.Head, v.f.Signature, v.f.Private = c.f.Size, c.f.Head, c.f.Signature, c.f.Private
		}
	}
	if p.failed.Load() {
		return streamWhole("parse")
	}
	if v.stream.ended && v.stream.lacking {
		return errors.New("the game is over, and this copy lacks a sealed record") // docs/LOG-FORMAT.md 4
	}
	return v.finish()
}

// streamWhole: the stream cannot decide, for the reason it holds; the whole log is verified.
type streamWhole string

func (w streamWhole) Error() string { return "verified whole: " + string(w) }

// errStreamWhole ends a stretch that is not of a good export.
var errStreamWhole = streamWhole("parse")

// streamReveal checks a reveal as collectSeeds and checkReveal do together: its seed hashes
// down to the last seed revealed (the first to C), and gives the seeds of the turns between;
// the rolls waiting for them are sent to the workers.
func (v *verifier) streamReveal(e *Entry, t uint32) error {
	prevX := v.commitment
	if v.revealed > 0 {
		prevX = v.seeds[v.revealed]
	}
	x := e.Record.Hash32("seed")
	if down, err := dice.ChainSeed(v.game, t, x, v.revealed); err != nil || down != prevX {
		return v.fail(e, "seed of turn %d does not hash down to the commitment C", t)
	}
	for i := t; i > v.revealed; i-- {
		v.seeds[i] = x
		x = dice.ChainStep(v.game, i, x)
	}
	v.revealed = t
	kept := v.stream.deferred[:0]
	for _, b := range v.stream.deferred {
		if !v.sendLater(b) {
			kept = append(kept, b)
		}
	}
	clear(v.stream.deferred[len(kept):])
	v.stream.deferred = kept
	return nil
}

// keyedLater gives close c a batch whose key its turn's seed will give.
func (v *verifier) keyedLater(c *closeRec, key func(ident.Hash) ident.Hash) {
	v.flushBatch()
	c.batch = &rollBatch{later: key, turn: c.ta.t, jobs: v.workers.jobs(16)}
	v.batch = c.batch
}

// sendLater keys a waiting batch whose seed is known now and sends it; it reports whether
// it did.
func (v *verifier) sendLater(b *rollBatch) bool {
	x, ok := v.seeds[b.turn]
	if !ok {
		return false
	}
	b.key, b.later = b.later(x), nil
	v.rep.RollsChecked += len(b.jobs)
	if len(b.jobs) > 0 {
		v.workers.send(b)
	}
	return true
}

// streamHeads gives the heads of the stretches being checked, and those of the sizes kept
// for the checkpoints from mail; any other it cannot give (missing), and the whole log is
// verified.
type streamHeads struct {
	recent  [2]recentHeads
	kept    map[int]ident.Hash
	missing bool
}

// recentHeads are the heads of one stretch's entries, from base.
type recentHeads struct {
	base  int
	heads []ident.Hash
}

func (h *streamHeads) add(c *chunk) {
	h.recent[0], h.recent[1] = h.recent[1], recentHeads{c.base, c.heads}
	for _, k := range c.kept {
		if h.kept == nil {
			h.kept = map[int]ident.Hash{}
		}
		h.kept[k.n] = k.head
	}
}

func (h *streamHeads) headAt(n int) ident.Hash {
	for _, r := range h.recent {
		if i := n - 1 - r.base; i >= 0 && i < len(r.heads) {
			return r.heads[i]
		}
	}
	if head, ok := h.kept[n]; ok {
		return head
	}
	h.missing = true
	return ident.Hash{}
}

func (h *streamHeads) finish() {}

// chunk is one stretch of a stream: its bytes start with the empty line before its first
// record block ("\n\n") and end with the last line of its last entry (a record block and
// the unseal block after it are never cut apart); the last stretch ends the file.
type chunk struct {
	data      []byte
	base, end int  // its entries' indices: [base, end)
	last      bool // it holds the trailer
	f         *File
	ok        bool
	heads     []ident.Hash // head_i of its entries
	kept      []keptHead   // the heads of wanted sizes among them
	parsed    chan struct{}
}

type keptHead struct {
	n    int
	head ident.Hash
}

// stream reads, parses and chains a log's stretches on goroutines of their own, a few
// stretches ahead of the verifier: one reads the file, every core parses, one computes the
// heads in order.
type stream struct {
	format, view string // from the header, set before the first stretch is given
	out          chan *chunk
	quit         chan struct{}
	failed       atomic.Bool    // the file could not be read, or a stretch is not of a good export
	done         sync.WaitGroup // the reading and the chaining goroutines
}

func startStream(r io.Reader, size int, wanted map[int]bool) *stream {
	// At most five stretches are held at a time: one being checked, one chained and waiting,
	// two parsed or being parsed, and the one being read.
	s := &stream{out: make(chan *chunk), quit: make(chan struct{})}
	jobs, order := make(chan *chunk, 2), make(chan *chunk, 1)
	workers := runtime.GOMAXPROCS(0)
	for range workers {
		go s.parseChunks(jobs)
	}
	s.done.Add(2)
	go s.read(r, size, jobs, order)
	go s.chain(order, wanted)
	return s
}

// next gives the next stretch, parsed and chained; ok is false at the end or where the
// stream failed.
func (s *stream) next() (*chunk, bool) {
	c, ok := <-s.out
	return c, ok
}

func (s *stream) nextOrNil() *chunk {
	c, _ := s.next()
	return c
}

// stop ends the goroutines (the verifier may stop before the end) and waits for those that
// read r, which the whole verifier reads next, and chain.
func (s *stream) stop() {
	close(s.quit)
	for range s.out { // the chain goroutine closes out when it ends
	}
	s.done.Wait()
}

// send sends c on ch unless the stream is stopping.
func (s *stream) send(ch chan<- *chunk, c *chunk) bool {
	select {
	case ch <- c:
		return true
	case <-s.quit:
		return false
	}
}

// read cuts r into stretches and hands each to the parsers and, in order, to the chain.
func (s *stream) read(r io.Reader, size int, jobs, order chan<- *chunk) {
	defer s.done.Done()
	defer close(order)
	defer close(jobs)
	defer s.recoverFail()
	cr := chunker{r: r, size: size}
	data, last, err := cr.next()
	i := bytes.Index(data, []byte("\n\n"))
	if err != nil || i < 0 {
		s.failed.Store(true)
		return
	}
	hf := &File{}
	if hf.parseHeader(string(data[:i])) != nil {
		s.failed.Store(true)
		return
	}
	s.format, s.view = hf.Format, hf.View
	data = data[i:]
	var prev *chunk
	for {
		c := &chunk{data: data, last: last, parsed: make(chan struct{})}
		c.base, c.end, err = chunkRange(c, prev)
		if err == nil && prev != nil {
			prev.end = c.base
			if !s.send(jobs, prev) || !s.send(order, prev) {
				return
			}
		}
		if err != nil {
			s.failed.Store(true)
			return
		}
		if last {
			_ = s.send(jobs, c) && s.send(order, c)
			return
		}
		prev = c
		if data, last, err = cr.next(); err != nil {
			s.failed.Store(true)
			return
		}
	}
}

// chunkRange reads the index of c's first record and, for the last stretch, the trailer's
// count, which ends its range; a stretch's end is otherwise the next one's base.
func chunkRange(c *chunk, prev *chunk) (base, end int, err error) {
	str := unsafe.String(unsafe.SliceData(c.data), len(c.data))
	if !strings.HasPrefix(str, "\n\ntype ") || c.last && !strings.HasSuffix(str, "\n") {
		return 0, 0, errStreamWhole
	}
	rest := str[2+len("type "):]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return 0, 0, errStreamWhole
	}
	idx, ok := strings.CutPrefix(rest[nl+1:], "index ")
	if nl = strings.IndexByte(idx, '\n'); !ok || nl < 0 || nl > 12 || !isUint(idx[:nl]) {
		return 0, 0, errStreamWhole
	}
	base = int(parseUint(idx[:nl]))
	if prev == nil && base != 0 || prev != nil && base <= prev.base {
		return 0, 0, errStreamWhole
	}
	if !c.last {
		return base, -1, nil // set from the next stretch
	}
	end, err = trailerOf(str, base)
	return base, end, err
}

// trailerOf reads the trailer's record count from the last stretch (of entries from base).
func trailerOf(str string, base int) (int, error) {
	i := strings.LastIndex(str, "\n\nend-of-log ")
	if i < 0 {
		return 0, errStreamWhole
	}
	count, _, _ := strings.Cut(str[i+2+len("end-of-log "):], " ")
	if !isUint(count) || len(count) > 12 {
		return 0, errStreamWhole
	}
	n := int(parseUint(count))
	if n < base || n > base+len(str)/16 { // a record block takes more than 16 bytes
		return 0, errStreamWhole
	}
	return n, nil
}

// parseChunks parses the stretches it is given as parseGood parses one stretch of a file.
func (s *stream) parseChunks(jobs <-chan *chunk) {
	for c := range jobs {
		func() {
			defer close(c.parsed)
			defer func() {
				if recover() != nil {
					c.ok = false
				}
			}()
			c.ok = parseChunk(c, s.format, s.view)
		}()
	}
}

// parseChunk parses c's blocks into c.f, hashing each leaf and opening each seal; the last
// stretch's private blocks go into c.f.Private, its trailer into c.f's Size, Head and
// Signature. It reports whether c is all of a good export.
func parseChunk(c *chunk, format, view string) bool {
	if c.end < c.base {
		return false
	}
	str := unsafe.String(unsafe.SliceData(c.data), len(c.data))
	c.f = &File{Format: format, View: view, Entries: make([]Entry, c.end-c.base)}
	if !c.last {
		r, ok := parseRecords(c, str)
		return ok && r.trailer == nil
	}
	if i := strings.Index(str, "\n\nprivate "); i >= 0 { // a side's copy: its own hidden set-up
		r, ok := parseRecords(c, str[:i+1])
		return ok && r.trailer == nil && c.f.parseTail(str[i+2:], c.end)
	}
	r, ok := parseRecords(c, str)
	t := r.trailer
	return ok && t != nil && t.end == len(str) && c.f.parseTrailer(t.first, t.rest, t.line) == nil && c.f.Size == uint64(c.end)
}

// parseRecords parses the blocks of str, c's bytes or the part of them before its private
// blocks, into c.f's entries, as a stretch of parseGood.
func parseRecords(c *chunk, str string) (goodRun, bool) {
	r := goodRun{a: 0, b: len(str), base: c.base, end: c.end, off: c.base}
	ok := r.parse(c.f, c.data[:len(str)], str) && r.first == nil && r.start == 2 && r.stop == len(str)
	return r, ok
}

// parseTail parses what follows the records of a side's copy: its private blocks, then the
// trailer, each block one line (docs/LOG-FORMAT.md 4), as takeBlock reads them; n is the
// number of records.
func (f *File) parseTail(s string, n int) bool {
	for {
		block, rest, more := strings.Cut(s, "\n\n")
		if !more {
			block = strings.TrimSuffix(s, "\n")
		}
		if strings.Contains(block, "\n") || !more && len(block)+1 != len(s) {
			return false
		}
		word, args, _ := strings.Cut(block, " ")
		switch {
		case word == "private" && more:
			p, err := parsePrivate(block, args)
			if err != nil {
				return false
			}
			f.Private = append(f.Private, p)
		case word == "end-of-log" && !more:
			return f.parseTrailer(block, args, 0) == nil && f.Size == uint64(n)
		default:
			return false
		}
		s = rest
	}
}

// chain computes the heads of the stretches in order and gives them to the verifier.
func (s *stream) chain(order <-chan *chunk, wanted map[int]bool) {
	defer s.done.Done()
	defer close(s.out)
	defer s.recoverFail()
	var hh headHasher
	var head ident.Hash
	for c := range order {
		select {
		case <-c.parsed:
		case <-s.quit:
			return
		}
		if !c.ok {
			s.failed.Store(true)
			return
		}
		c.heads = make([]ident.Hash, len(c.f.Entries))
		for i := range c.f.Entries {
			e := &c.f.Entries[i]
			head = hh.next(e.Index, head, e.Leaf)
			c.heads[i] = head
			if wanted[int(e.Index)+1] {
				c.kept = append(c.kept, keptHead{int(e.Index) + 1, head})
			}
		}
		if !s.send(s.out, c) {
			return
		}
	}
}

// recoverFail ends a goroutine of the stream that panicked as a failed stream: the whole
// log is then verified, by code that runs on the caller's goroutine.
func (s *stream) recoverFail() {
	if recover() != nil {
		s.failed.Store(true)
	}
}

// chunker cuts what r holds into stretches of about size bytes, each in memory of its own.
type chunker struct {
	r       io.Reader
	size    int
	carry   []byte // the start of the next stretch, read with the one before
	eof     bool
	started bool // a stretch was given
}

var blockType = []byte("\n\ntype ")

// next returns the next stretch; last is set for the one that ends the file.
func (c *chunker) next() (data []byte, last bool, err error) {
	for {
		buf := make([]byte, len(c.carry), len(c.carry)+c.size)
		copy(buf, c.carry)
		for len(buf) < cap(buf) && !c.eof {
			n, err := c.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if errors.Is(err, io.EOF) {
				c.eof = true
			} else if err != nil {
				return nil, false, err
			}
		}
		if c.eof {
			c.carry = nil
			return buf, true, nil
		}
		// The stretch ends before the last record block that starts in it, after its first
		// (the first stretch: after the header).
		from := 1
		if !c.started {
			if from = bytes.Index(buf, []byte("\n\n")) + 1; from == 0 {
				from = len(buf)
			}
		}
		if cut := bytes.LastIndex(buf, blockType); cut >= from {
			c.carry, c.started = buf[cut:], true
			return buf[: cut+1 : cut+1], false, nil
		}
		c.carry, c.size = buf, 2*c.size // a record longer than a stretch
		if c.size > 1<<30 {
			return nil, false, errors.New("a block of over 1 GiB")
		}
	}
}
