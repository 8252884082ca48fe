package store

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"navarch/test/racesplit"
)

// welcomeLike is a large mail of a class: the same words but for a key and a hash of its
// own; shape picks one of several different texts (words drawn with the shape as seed).
func welcomeLike(shape int) []byte {
	key := make([]byte, 40)
	rand.Read(key)
	words := []string{"order", "galley", "wind", "squadron", "ram", "board", "fire", "turn", "deadline", "referee", "key", "line", "the", "of", "a", "to"}
	rng := mrand.New(mrand.NewPCG(uint64(shape), 7))
	var b strings.Builder
	for b.Len() < 10000 {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteString([]string{" ", " ", ", ", ". ", "\n"}[rng.IntN(5)])
		fmt.Fprint(&b, rng.IntN(1000))
	}
	return []byte(fmt.Sprintf(`{"Text":"Dear player %x, your key %s. %s"}`, key[:4], hex.EncodeToString(key), b.String()))
}

// TestOutboxDictionaries: mails of a class are deflated against an earlier one kept as a
// dictionary and read back byte for byte; each is a small part of the size it would be
// deflated alone; a mail like none of the class's dictionaries becomes one, a class keeping
// at most dictsPerClass; a dictionary no class keeps leaves with the last mail that needs
// it; a rolled-back dictionary leaves nothing behind.
func TestOutboxDictionaries(t *testing.T) {
	racesplit.Long(t) // on one goroutine: the detector finds nothing (the store's lock is raced by host's Serve tests)
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	mails := map[uint64][]byte{}
	add := func(m []byte, class string) uint64 {
		t.Helper()
		var seq uint64
		tcheck(t, s.Update(func(tx *Tx) (err error) { seq, err = OutboxAddAs(tx, m, class); return err }), "add")
		mails[seq] = m
		return seq
	}
	var seqs []uint64
	for range 20 {
		seqs = append(seqs, add(welcomeLike(0), "welcome"))
	}
	s.View(func(tx *Tx) error {
		for i, seq := range seqs {
			stored := tx.tx.Bucket(bucketOutbox).Get(u64(seq))
			alone, _ := s.deflate(mails[seq])
			if stored[0] != dictMark || i > 0 && len(stored)*4 > len(alone) {
				t.Errorf("mail %d: %d bytes stored, %d deflated alone, of %d", i, len(stored), len(alone), len(mails[seq]))
			}
		}
		if n := tx.tx.Bucket(bucketOutDict).Stats().KeyN; n != 1 {
			t.Errorf("%d dictionaries for one shape of mail", n)
		}
		return nil
	})
	for shape := 1; shape <= dictsPerClass+2; shape++ {
		add(welcomeLike(shape), "welcome")
	}
	add(welcomeLike(0), "other")
	small := add([]byte(`{"Text":"hi"}`), "welcome")
	s.View(func(tx *Tx) error {
		if ids := dictIDs(tx.tx.Bucket(bucketOutDictClass).Get([]byte("welcome"))); len(ids) != dictsPerClass {
			t.Errorf("the class keeps %d dictionaries, want %d", len(ids), dictsPerClass)
		}
		if v := tx.tx.Bucket(bucketOutbox).Get(u64(small)); string(v) != `{"Text":"hi"}` {
			t.Errorf("a small mail is stored as %q", v)
		}
		n := 0
		seqs := OutboxSeqs(tx)
		for e, ok := OutboxNext(tx, 0); ok; e, ok = OutboxNext(tx, e.Seq) {
			if !bytes.Equal(e.Mail, mails[e.Seq]) {
				t.Errorf("mail %d does not read back as queued", e.Seq)
			}
			if n >= len(seqs) || seqs[n] != e.Seq {
				t.Errorf("OutboxSeqs %v does not list mail %d in place %d", seqs, e.Seq, n)
			}
			n++
		}
		if n != len(mails) {
			t.Errorf("%d mails read of %d", n, len(mails))
		}
		return nil
	})
	// Sent, every mail: only the dictionaries the classes keep stay.
	for seq := range mails {
		tcheck(t, s.Update(func(tx *Tx) error { return OutboxDone(tx, seq) }), "done")
	}
	s.View(func(tx *Tx) error {
		if n := tx.tx.Bucket(bucketOutDict).Stats().KeyN; n != dictsPerClass+1 {
			t.Errorf("%d dictionaries left, want the %d the classes keep", n, dictsPerClass+1)
		}
		return nil
	})
	// A dictionary made in a transaction rolled back is gone with it, and its id is given
	// again to another mail's dictionary, which reads back as its own.
	m := welcomeLike(99)
	err := s.Update(func(tx *Tx) error {
		if _, err := OutboxAddAs(tx, m, "third"); err != nil {
			return err
		}
		return errors.New("roll back")
	})
	if err == nil {
		t.Fatal("no rollback")
	}
	m2 := welcomeLike(98)
	seq := add(m2, "third")
	s.View(func(tx *Tx) error {
		if e, ok := OutboxNext(tx, 0); !ok || e.Seq != seq || !bytes.Equal(e.Mail, m2) {
			t.Error("the mail after a rollback does not read back as queued")
		}
		return nil
	})
}

// A mail whose dictionary is missing (a damaged file) is returned as stored, for its reader
// to find unreadable, not a panic.
func TestOutboxMissingDictionary(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	tcheck(t, s.Update(func(tx *Tx) error {
		seq, err := OutboxAddAs(tx, welcomeLike(0), "welcome")
		if err != nil {
			return err
		}
		stored := bytes.Clone(tx.tx.Bucket(bucketOutbox).Get(u64(seq)))
		if err := tx.tx.Bucket(bucketOutDict).Delete(stored[1:9]); err != nil {
			return err
		}
		if e, ok := OutboxNext(tx, 0); !ok || !bytes.Equal(e.Mail, stored) {
			t.Error("a mail without its dictionary is not returned as stored")
		}
		return nil
	}), "damage")
}

// TestOutboxBulkLast: a sender that takes OutboxFirstNow before OutboxNextAfter, as the
// host's Flush does, sends every mail queued without a class before the bulk mail (a
// class's), each kind in the order queued, and a mail queued without a class while bulk
// mail is being sent goes next; nothing is sent twice or left out.
func TestOutboxBulkLast(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	add := func(text, class string) {
		t.Helper()
		tcheck(t, s.Update(func(tx *Tx) error { _, err := OutboxAddAs(tx, []byte(text), class); return err }), "add")
	}
	for i := range 5 {
		add(fmt.Sprintf("welcome %d", i), "welcome")
		add(fmt.Sprintf("answer %d", i), "")
	}
	var sent []string
	var after uint64
	var held []uint64 // the mail taken and not yet sent: one at a time here
	isHeld := func(seq uint64) bool { return len(held) > 0 && held[0] == seq }
	for n := 0; ; n++ {
		var e OutboxEntry
		var ok bool
		s.View(func(tx *Tx) error {
			if e, ok = OutboxFirstNow(tx, isHeld); !ok {
				if e, ok = OutboxNextAfter(tx, after, isHeld); ok {
					after = e.Seq
				}
			}
			return nil
		})
		if !ok {
			break
		}
		held = []uint64{e.Seq}
		sent = append(sent, string(e.Mail))
		tcheck(t, s.Update(func(tx *Tx) error { return OutboxDone(tx, e.Seq) }), "done")
		held = nil
		if n == 6 { // while the welcomes go out, a player's mail is answered
			add("answer late", "")
		}
	}
	want := []string{"answer 0", "answer 1", "answer 2", "answer 3", "answer 4", "welcome 0", "welcome 1",
		"answer late", "welcome 2", "welcome 3", "welcome 4"}
	if strings.Join(sent, ", ") != strings.Join(want, ", ") {
		t.Errorf("sent %q,\nwant %q", sent, want)
	}
	s.View(func(tx *Tx) error {
		if n := OutboxLen(tx) + tx.tx.Bucket(bucketOutboxNow).Stats().KeyN; n != 0 {
			t.Errorf("%d entries left", n)
		}
		return nil
	})
}
