package store

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
)

// OutboxAdd queues an outgoing mail; it is sent after the transaction commits. A mail of
// more than compressAbove bytes is kept deflated (queued welcome mails, text and
// HTML of much the same words, were most of a store with many games).
func OutboxAdd(tx *Tx, mail []byte) (uint64, error) { return OutboxAddAs(tx, mail, "") }

// OutboxAddAs is OutboxAdd for a mail of a class that is queued many times over in much the
// same words (the host's welcome mails: 10,000 games, 20,000 welcomes). Such mail is bulk:
// OutboxNextDue gives every mail queued without a class (an answer, a report) before it,
// so that a player's answer does not wait behind thousands of welcomes (OutboxFirstNow). A large one is
// deflated against a dictionary, an earlier mail of its class kept once (outdict/), so that
// only what differs is stored (about 0.5 KB of a 12 KB welcome, 3.5 KB deflated alone). A
// class keeps its few most recent dictionaries; a mail like none of them becomes one. The
// class "" is OutboxAdd's: deflated alone.
func OutboxAddAs(tx *Tx, mail []byte, class string) (uint64, error) {
	b := tx.tx.Bucket(bucketOutbox)
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("outbox: %w", err)
	}
	v := mail
	switch {
	case len(mail) <= compressAbove:
	case class == "":
		v, err = tx.s.deflate(mail)
	default:
		v, err = deflateAs(tx, seq, mail, class)
	}
	if err != nil {
		return 0, fmt.Errorf("outbox: %w", err)
	}
	b.FillPercent = 0.9 // keys only ever grow: fuller pages than the half-full ones of a split
	if err := tx.put(b, u64(seq), v); err != nil {
		return 0, err
	}
	if class != "" {
		return seq, nil
	}
	now := tx.tx.Bucket(bucketOutboxNow)
	now.FillPercent = 0.9
	return seq, tx.put(now, u64(seq), nil)
}

// bucketOutboxNow holds the seqs of the queued mails that are not bulk (OutboxAddAs), keys
// only: the mails OutboxNextDue gives first.
var bucketOutboxNow = []byte("outboxnow")

// Outbox values: the mail as given; deflatedMark and the mail deflated (RFC 1951); or
// dictMark, the u64 id of a dictionary in outdict/, and the mail deflated with it as preset
// dictionary. No mail starts with a mark: the host's are JSON.
const (
	compressAbove = 1 << 10
	deflatedMark  = 0x01
	dictMark      = 0x02
)

// Dictionaries of the outbox (OutboxAddAs):
//
//	outdict/      u64(id) → the dictionary (a mail as queued)
//	outdictuse/   u64(id) → u64: the last outbox seq deflated with it
//	outdictclass/ class → u64 ids of the class's dictionaries, newest first
//
// A dictionary leaves when it is no class's and no queued mail's (dropDicts).
var (
	bucketOutDict      = []byte("outdict")
	bucketOutDictUse   = []byte("outdictuse")
	bucketOutDictClass = []byte("outdictclass")
)

const (
	// dictsPerClass bounds the dictionaries a class keeps, and the compressions a mail tries.
	dictsPerClass = 4
	// dictGood: a mail deflated against a dictionary to at most 1/dictGood of its size is
	// like it; otherwise it becomes a dictionary of its class.
	dictGood = 5
	// maxDict is deflate's window: a longer dictionary's start would not be used.
	maxDict = 32 << 10
)

// deflateAs deflates a mail against the best dictionary of its class, or makes it one.
func deflateAs(tx *Tx, seq uint64, mail []byte, class string) ([]byte, error) {
	classes := tx.tx.Bucket(bucketOutDictClass)
	ids := dictIDs(classes.Get([]byte(class)))
	var best []byte
	var bestID uint64
	for _, id := range ids { // the first that is good enough, else the best
		d, err := tx.s.deflateWith(mail, tx.tx.Bucket(bucketOutDict).Get(u64(id)))
		if err != nil {
			return nil, err
		}
		if best == nil || len(d) < len(best) {
			best, bestID = d, id
		}
		if len(best)*dictGood <= len(mail) {
			break
		}
	}
	if best == nil || len(best)*dictGood > len(mail) {
		id, err := tx.tx.Bucket(bucketOutDict).NextSequence()
		if err != nil {
			return nil, err
		}
		dict := mail[max(0, len(mail)-maxDict):]
		if err := tx.put(tx.tx.Bucket(bucketOutDict), u64(id), dict); err != nil {
			return nil, err
		}
		ids = append([]uint64{id}, ids...)
		if len(ids) > dictsPerClass {
			ids = ids[:dictsPerClass]
		}
		var v []byte
		for _, id := range ids {
			v = append(v, u64(id)...)
		}
		if err := tx.put(classes, []byte(class), v); err != nil {
			return nil, err
		}
		if best, err = tx.s.deflateWith(mail, dict); err != nil {
			return nil, err
		}
		bestID = id
	}
	if err := tx.put(tx.tx.Bucket(bucketOutDictUse), u64(bestID), u64(seq)); err != nil {
		return nil, err
	}
	return append(append([]byte{dictMark}, u64(bestID)...), best...), nil
}

func dictIDs(v []byte) []uint64 {
	var ids []uint64
	for ; len(v) >= 8; v = v[8:] {
		ids = append(ids, binary.BigEndian.Uint64(v))
	}
	return ids
}

// deflate deflates a mail queued alone (an answer, a report: queued for seconds) at
// BestSpeed, with a writer the store keeps (deflateWith with no dictionary: new
// writers, a sync.Pool losing them at every collection, and the default level's search were
// a third of an order mail's write lock). The welcomes, which may stay queued by the
// thousand, are deflated against a dictionary at the default level.
func (s *Store) deflate(b []byte) ([]byte, error) {
	d, err := s.deflateWith(b, nil)
	if err != nil {
		return nil, err
	}
	return append([]byte{deflatedMark}, d...), nil
}

// deflateWith deflates b with dict as preset dictionary (none: at BestSpeed). Its writers
// are kept by the dictionary's content (an id may come again with other content after a
// rollback): a new one allocates and clears about a megabyte.
func (s *Store) deflateWith(b, dict []byte) ([]byte, error) {
	sum := sha256.Sum256(dict)
	s.mu.Lock()
	var w *flate.Writer
	if list := s.writers[sum]; len(list) > 0 {
		w, s.writers[sum] = list[len(list)-1], list[:len(list)-1]
	}
	s.mu.Unlock()
	var buf bytes.Buffer
	if w == nil {
		level := flate.DefaultCompression
		if dict == nil {
			level = flate.BestSpeed
		}
		var err error
		if w, err = flate.NewWriterDict(&buf, level, dict); err != nil {
			return nil, err
		}
	} else {
		w.Reset(&buf)
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.writers == nil || len(s.writers) >= maxWriterDicts {
		s.writers = map[[32]byte][]*flate.Writer{}
	}
	s.writers[sum] = append(s.writers[sum], w)
	s.mu.Unlock()
	return buf.Bytes(), nil
}

// maxWriterDicts bounds the dictionaries whose writers are kept (a class's few, of a few
// classes).
const maxWriterDicts = 16

// outboxMail returns a queued mail as it was given to OutboxAdd. A value that does not
// inflate is returned as it is stored (its reader then finds it unreadable).
func outboxMail(tx *Tx, v []byte) []byte {
	var r io.ReadCloser
	switch {
	case len(v) > 0 && v[0] == deflatedMark:
		r = flate.NewReader(bytes.NewReader(v[1:]))
	case len(v) > 9 && v[0] == dictMark:
		dict := tx.tx.Bucket(bucketOutDict).Get(v[1:9])
		if dict == nil {
			return bytes.Clone(v)
		}
		r = flate.NewReaderDict(bytes.NewReader(v[9:]), dict)
	default:
		return bytes.Clone(v)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return bytes.Clone(v)
	}
	return out
}

// dropDicts deletes the dictionaries no class keeps and no queued mail needs (none queued at
// or before the last seq deflated with it).
func dropDicts(tx *Tx) error {
	uses := tx.tx.Bucket(bucketOutDictUse)
	first := ^uint64(0)
	if k, _ := tx.tx.Bucket(bucketOutbox).Cursor().First(); k != nil {
		first = binary.BigEndian.Uint64(k)
	}
	kept := map[uint64]bool{}
	tx.tx.Bucket(bucketOutDictClass).ForEach(func(_, v []byte) error {
		for _, id := range dictIDs(v) {
			kept[id] = true
		}
		return nil
	})
	var drop [][]byte
	uses.ForEach(func(k, v []byte) error {
		if !kept[binary.BigEndian.Uint64(k)] && len(v) == 8 && binary.BigEndian.Uint64(v) < first {
			drop = append(drop, bytes.Clone(k))
		}
		return nil
	})
	for _, k := range drop {
		if err := uses.Delete(k); err != nil {
			return err
		}
		if err := tx.tx.Bucket(bucketOutDict).Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// OutboxEntry is a queued mail.
type OutboxEntry struct {
	Seq  uint64
	Mail []byte
}

// Outbox returns the queued mails in the order they were queued. It loads them all: the
// daemon reads one at a time (OutboxNext).
func Outbox(tx *Tx) []OutboxEntry {
	var out []OutboxEntry
	tx.tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		out = append(out, OutboxEntry{binary.BigEndian.Uint64(k), outboxMail(tx, v)})
		return nil
	})
	return out
}

// OutboxNext returns the first queued mail after seq (0: the first of all), and whether
// there is one: the outbox is read one mail at a time, never loaded whole.
func OutboxNext(tx *Tx, after uint64) (OutboxEntry, bool) {
	k, v := tx.tx.Bucket(bucketOutbox).Cursor().Seek(u64(after + 1))
	if k == nil || after == ^uint64(0) {
		return OutboxEntry{}, false
	}
	return OutboxEntry{binary.BigEndian.Uint64(k), outboxMail(tx, v)}, true
}

// OutboxFirstNow returns the first mail queued without a class (an answer, a report: not
// bulk, OutboxAddAs) among those held is false for (the mails the caller has taken and not
// yet sent), and whether there is one. A sender takes these before the mail after its place
// in the queue (OutboxNextAfter): mails without a class go in the order they were queued,
// bulk mails in theirs, after them.
func OutboxFirstNow(tx *Tx, held func(seq uint64) bool) (OutboxEntry, bool) {
	c := tx.tx.Bucket(bucketOutboxNow).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if seq := binary.BigEndian.Uint64(k); !held(seq) {
			if v := tx.tx.Bucket(bucketOutbox).Get(k); v != nil {
				return OutboxEntry{seq, outboxMail(tx, v)}, true
			}
		}
	}
	return OutboxEntry{}, false
}

// OutboxNextAfter is OutboxNext passing over the mails held says the caller has taken.
func OutboxNextAfter(tx *Tx, after uint64, held func(seq uint64) bool) (OutboxEntry, bool) {
	if after == ^uint64(0) {
		return OutboxEntry{}, false
	}
	c := tx.tx.Bucket(bucketOutbox).Cursor()
	for k, v := c.Seek(u64(after + 1)); k != nil; k, v = c.Next() {
		if seq := binary.BigEndian.Uint64(k); !held(seq) {
			return OutboxEntry{seq, outboxMail(tx, v)}, true
		}
	}
	return OutboxEntry{}, false
}

// OutboxLen is how many mails are queued.
func OutboxLen(tx *Tx) int { return tx.tx.Bucket(bucketOutbox).Stats().KeyN }

// OutboxDone removes a mail that was sent, and the dictionaries no mail needs any more.
func OutboxDone(tx *Tx, seq uint64) error {
	if err := tx.tx.Bucket(bucketOutbox).Delete(u64(seq)); err != nil {
		return err
	}
	if err := tx.tx.Bucket(bucketOutboxNow).Delete(u64(seq)); err != nil {
		return err
	}
	return dropDicts(tx)
}

// OutboxSeqs returns the seqs of the queued mails, in order, reading no mail.
func OutboxSeqs(tx *Tx) []uint64 {
	var out []uint64
	c := tx.tx.Bucket(bucketOutbox).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		out = append(out, binary.BigEndian.Uint64(k))
	}
	return out
}
