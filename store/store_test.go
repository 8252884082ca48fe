package store

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/gamelog"
	"navarch/ident"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tcheck(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

var testGame = ident.GameID{1, 2, 3}

func note(text string) *gamelog.Builder {
	return gamelog.New(gamelog.TypeNote).Add("by", "referee").Add("text", text)
}

func TestSecondOpenIsInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	open(t, path)
	_, err := Open(path, slog.New(slog.DiscardHandler), Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrInUse) {
		t.Errorf("second Open = %v, want ErrInUse", err)
	}
}

func TestSchemaVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion {
			t.Errorf("new store at schema %d, want %d", v, SchemaVersion)
		}
		return nil
	})
	// A file written by a newer navarch is refused, not misread.
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put([]byte("schema"), u64(SchemaVersion+1))
	}), "bump schema")
	s.Close()
	if _, err := Open(path, slog.New(slog.DiscardHandler), Options{}); err == nil {
		t.Error("a newer schema was opened")
	}
}

func TestAppendChainsAndChecks(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	var heads []ident.Hash
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		if err := CreateGame(tx, testGame); !errors.Is(err, ErrGameExists) {
			t.Errorf("second CreateGame = %v", err)
		}
		for _, text := range []string{"one", "two", "three"} {
			_, h, err := Append(tx, testGame, note(text))
			if err != nil {
				return err
			}
			heads = append(heads, h)
		}
		_, _, err := Append(tx, testGame, gamelog.New(gamelog.TypeNote).Add("by", "has space"))
		if !errors.Is(err, gamelog.ErrSyntax) {
			t.Errorf("bad record appended: %v", err)
		}
		return nil
	}), "append")
	s.View(func(tx *Tx) error {
		var leaves []ident.Hash
		Records(tx, testGame, func(i uint64, raw []byte, leaf ident.Hash) error {
			if leaf != gamelog.Leaf(raw) {
				t.Errorf("record %d: cached leaf wrong", i)
			}
			leaves = append(leaves, leaf)
			return nil
		})
		if n, _ := Len(tx, testGame); n != 3 || gamelog.Head(leaves) != heads[2] {
			t.Errorf("Len = %d, head mismatch %v", n, gamelog.Head(leaves) != heads[2])
		}
		if h, _ := HeadAt(tx, testGame, 2); h != heads[1] {
			t.Error("HeadAt(2) is not the second head")
		}
		if r, err := Record(tx, testGame, 1); err != nil || r.Get("text") != "two" || r.Index != 1 {
			t.Errorf("Record(1) = %+v, %v", r, err)
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("sound store: %v", p)
		}
		return nil
	})
	// Damage the stored bytes behind the chain's back: Check must say where.
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGLog).Put(gkey(testGame, u64(1)), []byte("type note\nindex 1\nby referee\ntext TWO\n"))
	}), "damage")
	s.View(func(tx *Tx) error {
		if p := Check(tx); len(p) != 1 || !bytes.Contains([]byte(p[0]), []byte("record 1")) {
			t.Errorf("damaged store: %v", p)
		}
		return nil
	})
}

// TestAppendKnowsItsTail: within a write transaction Len and HeadAt answer from the log's end
// as Append left it, which is what they read from the file (the answers compared with the
// cache put aside), after a refused record too; the next transaction chains on.
func TestAppendKnowsItsTail(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	fresh := func(tx *Tx, size uint64) (uint64, ident.Hash) {
		kept := tx.tails
		defer func() { tx.tails = kept }()
		tx.tails = nil
		n, _ := Len(tx, testGame)
		h, _ := HeadAt(tx, testGame, size)
		return n, h
	}
	for round := range 2 {
		tcheck(t, s.Update(func(tx *Tx) error {
			if round == 0 {
				if err := CreateGame(tx, testGame); err != nil {
					return err
				}
			}
			for i, text := range []string{"one", "two", "three"} {
				if i == 1 {
					if _, _, err := Append(tx, testGame, gamelog.New(gamelog.TypeNote).Add("by", "has space")); err == nil {
						t.Error("a bad record appended")
					}
				}
				_, head, err := Append(tx, testGame, note(text))
				if err != nil {
					return err
				}
				n, _ := Len(tx, testGame)
				h, _ := HeadAt(tx, testGame, n)
				prev, _ := HeadAt(tx, testGame, n-1)
				wantN, wantH := fresh(tx, n)
				_, wantPrev := fresh(tx, n-1)
				if n != uint64(3*round+i+1) || n != wantN || h != head || h != wantH || prev != wantPrev {
					t.Errorf("round %d record %d: Len %d (file %d), head %x (appended %x, file %x)", round, i, n, wantN, h[:4], head[:4], wantH[:4])
				}
			}
			return nil
		}), "append")
	}
	s.View(func(tx *Tx) error {
		if p := Check(tx); len(p) != 0 {
			t.Errorf("the chain across transactions: %v", p)
		}
		return nil
	})
}

func TestUnknownGame(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	s.Update(func(tx *Tx) error {
		if _, _, err := Append(tx, testGame, note("x")); !errors.Is(err, ErrNoGame) {
			t.Errorf("Append to no game = %v", err)
		}
		if _, err := Secret(tx, testGame, "x"); !errors.Is(err, ErrNoGame) {
			t.Errorf("Secret of no game = %v", err)
		}
		return nil
	})
}

// TestTransactionIsAtomic: a transaction that fails half-way leaves nothing behind.
func TestTransactionIsAtomic(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	tcheck(t, s.Update(func(tx *Tx) error { return CreateGame(tx, testGame) }), "create")
	boom := errors.New("boom")
	err := s.Update(func(tx *Tx) error {
		Append(tx, testGame, note("a"))
		OutboxAdd(tx, []byte("mail"))
		MarkProcessed(tx, "a@x", "<m1@x>", nil)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		n, _ := Len(tx, testGame)
		_, done := Processed(tx, "a@x", "<m1@x>")
		if n != 0 || len(Outbox(tx)) != 0 || done {
			t.Errorf("rolled-back tx left %d records, %d mails, processed %v", n, len(Outbox(tx)), done)
		}
		return nil
	})
}

func TestProcessedAndOutbox(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	s.Update(func(tx *Tx) error {
		if fresh, err := MarkProcessed(tx, "alice@x", "<a@x>", []byte("17")); !fresh || err != nil {
			t.Errorf("first MarkProcessed = %v, %v", fresh, err)
		}
		if fresh, _ := MarkProcessed(tx, "Alice@X", "<a@x>", []byte("18")); fresh {
			t.Error("a message was processed twice")
		}
		// Another sender's mail with the same Message-ID is another mail.
		if fresh, err := MarkProcessed(tx, "bob@y", "<a@x>", []byte("19")); !fresh || err != nil {
			t.Errorf("another sender's mail with the same Message-ID: MarkProcessed = %v, %v", fresh, err)
		}
		if _, err := MarkProcessed(tx, "alice@x", "", nil); err == nil {
			t.Error("empty Message-ID accepted")
		}
		if v, ok := Processed(tx, "alice@x", "<a@x>"); !ok || string(v) != "17" {
			t.Errorf("Processed = %q, %v", v, ok)
		}
		if v, ok := Processed(tx, "bob@y", "<a@x>"); !ok || string(v) != "19" {
			t.Errorf("Processed(bob) = %q, %v", v, ok)
		}
		if _, ok := Processed(tx, "carol@z", "<a@x>"); ok {
			t.Error("a third sender's mail counts as processed")
		}
		for _, m := range []string{"m1", "m2", "m3"} {
			OutboxAdd(tx, []byte(m))
		}
		return nil
	})
	s.Update(func(tx *Tx) error {
		out := Outbox(tx)
		if len(out) != 3 || string(out[0].Mail) != "m1" || string(out[2].Mail) != "m3" {
			t.Fatalf("outbox %v", out)
		}
		return OutboxDone(tx, out[1].Seq)
	})
	s.View(func(tx *Tx) error {
		if out := Outbox(tx); len(out) != 2 || string(out[1].Mail) != "m3" {
			t.Errorf("after sending m2: %v", out)
		}
		return nil
	})
}

func TestBackupWhileOpen(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "navarch.db"))
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		_, _, err := Append(tx, testGame, note("before backup"))
		return err
	}), "write")
	backup := filepath.Join(dir, "copy.db")
	if _, err := s.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BackupFile(backup); err == nil {
		t.Error("backup over an existing file accepted")
	}
	tcheck(t, s.Update(func(tx *Tx) error { _, _, err := Append(tx, testGame, note("after")); return err }), "write after")
	c := open(t, backup)
	c.View(func(tx *Tx) error {
		if n, _ := Len(tx, testGame); n != 1 {
			t.Errorf("backup has %d records, want the 1 before it", n)
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("backup check: %v", p)
		}
		return nil
	})
}

func TestInstallationKeyIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	var k1 []byte
	s.Update(func(tx *Tx) error { k, err := InstallationKey(tx); k1 = k; return err })
	s.Close()
	s = open(t, path)
	s.View(func(tx *Tx) error {
		k2, err := InstallationKey(tx)
		if err != nil || !bytes.Equal(k1, k2) {
			t.Errorf("installation key changed across opens: %v", err)
		}
		return nil
	})
}

func TestCommitHooks(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	var got []string
	err := s.Update(func(tx *Tx) error {
		tx.BeforeCommit(func() {
			got = append(got, fmt.Sprintf("before:%d", Cursor(tx, "k").LastUID))
			tx.AfterCommit(func() { got = append(got, "after") })
		})
		return PutCursor(tx, "k", IMAPCursor{1, 7})
	})
	tcheck(t, err, "update")
	failed := errors.New("refused")
	err = s.Update(func(tx *Tx) error {
		tx.BeforeCommit(func() { got = append(got, "before a rollback") })
		tx.AfterCommit(func() { got = append(got, "after a rollback") })
		return failed
	})
	if !errors.Is(err, failed) || strings.Join(got, " ") != "before:7 after" {
		t.Errorf("hooks ran %q (err %v); want before:7 after, and none for the rollback", got, err)
	}
}

// Large queued mails are kept deflated and read back as given; small ones, and entries
// written before, are kept and read as they are.
func TestOutboxDeflatesLargeMails(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	big := []byte(`{"Text":"` + strings.Repeat("Dear alice, welcome to the game. ", 400) + `"}`)
	var seqBig, seqSmall uint64
	err := s.Update(func(tx *Tx) error {
		var err error
		if seqBig, err = OutboxAdd(tx, big); err != nil {
			return err
		}
		seqSmall, err = OutboxAdd(tx, []byte(`{"Text":"hi"}`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		stored := tx.tx.Bucket(bucketOutbox).Get(u64(seqBig))
		if len(stored)*4 > len(big) {
			t.Errorf("a %d-byte mail is stored in %d bytes", len(big), len(stored))
		}
		if e, ok := OutboxNext(tx, 0); !ok || e.Seq != seqBig || !bytes.Equal(e.Mail, big) {
			t.Errorf("the large mail does not read back as given")
		}
		if e, ok := OutboxNext(tx, seqBig); !ok || e.Seq != seqSmall || string(e.Mail) != `{"Text":"hi"}` ||
			string(tx.tx.Bucket(bucketOutbox).Get(u64(seqSmall))) != `{"Text":"hi"}` {
			t.Errorf("the small mail is not kept as it is")
		}
		if _, ok := OutboxNext(tx, seqSmall); ok {
			t.Error("a third mail in the outbox")
		}
		return nil
	})
}

// TestRecordAppendedInTx: a record read in the transaction that appended it is the record
// parsed from the file after the commit, and an unknown game is refused in a transaction
// that has looked up another.
func TestRecordAppendedInTx(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	var inTx []gamelog.Record
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		for _, text := range []string{"one", "two", "three"} {
			if _, _, err := Append(tx, testGame, note(text)); err != nil {
				return err
			}
		}
		for i := range uint64(3) {
			rec, err := Record(tx, testGame, i)
			if err != nil {
				return err
			}
			inTx = append(inTx, rec)
		}
		if _, err := Record(tx, ident.GameID{1}, 0); !errors.Is(err, ErrNoGame) {
			t.Errorf("a record of an unknown game: %v", err)
		}
		return nil
	}), "append")
	tcheck(t, s.View(func(tx *Tx) error {
		for i, want := range inTx {
			got, err := Record(tx, testGame, uint64(i))
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("record %d read in its transaction %+v, after %+v", i, want, got)
			}
		}
		return nil
	}), "read")
}

// TestMetaInTx: a game's values read and written in one transaction are those the file holds
// after its commit, however often each is read and written (Meta keeps them a transaction).
func TestMetaInTx(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	writes := [][]byte{[]byte("one"), nil, []byte("two"), []byte("two"), {}, []byte("three")}
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		for i, v := range writes {
			name := fmt.Sprint("k", i%3)
			if err := PutMeta(tx, testGame, name, v); err != nil {
				return err
			}
			got, err := Meta(tx, testGame, name)
			if err != nil || !bytes.Equal(got, v) {
				t.Errorf("%s after writing %q: %q, %v", name, v, got, err)
			}
			if len(got) > 0 {
				got[0] = 'x' // the copy is the caller's
			}
			if again, _ := Meta(tx, testGame, name); !bytes.Equal(again, v) {
				t.Errorf("%s read again: %q, want %q", name, again, v)
			}
		}
		return nil
	}), "write")
	tcheck(t, s.View(func(tx *Tx) error {
		for i := range 3 {
			want := writes[len(writes)-3+i]
			if got, _ := Meta(tx, testGame, fmt.Sprint("k", i)); !bytes.Equal(got, want) {
				t.Errorf("k%d after the commit: %q, want %q", i, got, want)
			}
		}
		return nil
	}), "read")
}
