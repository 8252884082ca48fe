package gamelog

import (
	"crypto/sha256"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"navarch/dice"
	"navarch/ident"
)

// Verify spends its time on hashing that does not depend on the order of the checks: the
// chain of heads, and the rolls of each activation once its key is known. The verifier's
// fast mode hands both to other goroutines and checks the records in order meanwhile; any
// failure, of a record or of a roll, sends the whole file through the serial mode, which
// derives every roll in its place, so that the report (its first failure, its counts) is
// exactly the serial one.

// heads gives the verifier head_{n−1}, the head of a chain of n entries.
type heads interface {
	headAt(n int) ident.Hash
	finish()
}

// headChain computes head_i of every entry on its own goroutine (docs/LOG-FORMAT.md 2,
// chain of records), keeping those of the chain lengths the verifier will ask for (the
// trailer's, each checkpoint's); headAt waits until the head asked for exists.
type headChain struct {
	sizes []int        // the lengths of chain whose head is kept, ascending
	kept  []ident.Hash // kept[j] is head_{sizes[j]−1}
	mu    sync.Mutex
	cond  *sync.Cond
	done  int
	stop  atomic.Bool
	ended sync.WaitGroup

	entries []Entry
}

// startHeads starts the chain of entries, keeping the heads of the given lengths (in any
// order, repeated or not).
func startHeads(entries []Entry, sizes []int) *headChain {
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	c := &headChain{sizes: sizes, kept: make([]ident.Hash, len(sizes)), entries: entries}
	c.cond = sync.NewCond(&c.mu)
	c.ended.Add(1)
	go func() {
		defer c.ended.Done()
		c.compute(entries)
	}()
	return c
}

// finish stops the computation and waits for it, so that nothing reads the entries after
// Verify returns.
func (c *headChain) finish() {
	c.stop.Store(true)
	c.ended.Wait()
}

func (c *headChain) compute(entries []Entry) {
	var hh headHasher
	var head ident.Hash
	j := 0 // the next kept length
	for j < len(c.sizes) && c.sizes[j] < 1 {
		j++
	}
	for i := range entries {
		head = hh.next(entries[i].Index, head, entries[i].Leaf)
		for ; j < len(c.sizes) && c.sizes[j] == i+1; j++ {
			c.kept[j] = head
		}
		if i%1024 == 1023 || i == len(entries)-1 {
			c.mu.Lock()
			c.done = i + 1
			c.cond.Broadcast()
			c.mu.Unlock()
			if c.stop.Load() {
				return
			}
		}
	}
}

// headAt returns head_{n−1}, the head of a chain of n entries (1 ≤ n ≤ the entries),
// waiting for it; a length it was not told to keep is computed again from the start.
func (c *headChain) headAt(n int) ident.Hash {
	c.mu.Lock()
	for c.done < n {
		c.cond.Wait()
	}
	c.mu.Unlock()
	if j, ok := slices.BinarySearch(c.sizes, n); ok {
		return c.kept[j]
	}
	var head ident.Hash
	for i := range n {
		head = NextHead(c.entries[i].Index, head, c.entries[i].Leaf)
	}
	return head
}

// headHasher computes heads without an allocation: its message buffer holds the tag.
type headHasher struct{ msg []byte }

var headTag = dice.Tag(dice.TagHead)

// next returns H(tag "head" ‖ u64(i) ‖ prev ‖ leaf), as NextHead does.
func (h *headHasher) next(i uint64, prev, leaf ident.Hash) ident.Hash {
	if h.msg == nil {
		h.msg = make([]byte, len(headTag)+8+32+32)
		copy(h.msg, headTag)
	}
	m := h.msg[len(headTag):]
	for k := 7; k >= 0; k-- {
		m[k] = byte(i)
		i >>= 8
	}
	copy(m[8:], prev[:])
	copy(m[40:], leaf[:])
	return sha256.Sum256(h.msg)
}

// rollBatch is the rolls of one activation whose key is known, derived by a worker.
type rollBatch struct {
	key  ident.Hash
	jobs []rollJob
	bad  bool // a roll's values differ from the derivation, or the request is invalid

	// later (streaming) gives the key from the turn's seed, where the seed is revealed
	// after the close (stream.go); nil once the key is known.
	later func(seed ident.Hash) ident.Hash
	turn  uint32
}

type rollJob struct {
	label        string
	sides, count int
	values       []int
}

// derive derives the batch's rolls into buf, which it returns for the next batch.
func (b *rollBatch) derive(buf []int) []int {
	d := dice.NewDeriver(b.key)
	for _, j := range b.jobs {
		var err error
		buf, err = d.AppendDerive(buf[:0], j.label, j.sides, j.count)
		if err != nil || !slices.Equal(buf, j.values) {
			b.bad = true
			break
		}
	}
	return buf
}

// rollWorkers derives batches on every core while the records are checked.
type rollWorkers struct {
	ch      chan *rollBatch
	wg      sync.WaitGroup
	batches []*rollBatch
	// free takes the jobs of derived batches back for new batches (their rolls' values
	// are never written again, so that a job that still refers to them is harmless).
	free chan []rollJob
}

func startRollWorkers() *rollWorkers {
	w := &rollWorkers{ch: make(chan *rollBatch, 64), free: make(chan []rollJob, 128)}
	for range runtime.GOMAXPROCS(0) {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			var buf []int
			for b := range w.ch {
				buf = b.derive(buf)
				select {
				case w.free <- b.jobs[:0]:
				default:
				}
				b.jobs = nil
			}
		}()
	}
	return w
}

// jobs returns an empty slice for a batch's jobs with room for at least size.
func (w *rollWorkers) jobs(size int) []rollJob {
	select {
	case j := <-w.free:
		if cap(j) >= size {
			return j
		}
	default:
	}
	return make([]rollJob, 0, size)
}

func (w *rollWorkers) send(b *rollBatch) {
	w.batches = append(w.batches, b)
	w.ch <- b
}

// finish waits for every batch and reports whether all of them matched.
func (w *rollWorkers) finish() bool {
	close(w.ch)
	w.wg.Wait()
	for _, b := range w.batches {
		if b.bad {
			return false
		}
	}
	return true
}
