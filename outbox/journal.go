package outbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// journal is the record of mails the server has taken that the store may not yet know of:
// a file beside the database (DATABASE.sent), one line "seq message-id" a mail, appended and
// synced as soon as the server's 250 comes in. It needs no write transaction, so a send is
// recorded in the time of one fsync, not behind the mail handling that holds the store's
// write lock; fold takes its mails out of the store's queue later and empties it. A line
// cut short by a kill names no queued mail by its Message-ID, so it is ignored (that mail
// is sent again, with the same Message-ID).
type journal struct {
	path string
	f    *os.File
	// write appends and syncs (the file's; tests put a full disk in its place).
	write func(f *os.File, line []byte) error
}

// sentMail is a journal line.
type sentMail struct {
	seq uint64
	id  string
}

func openJournal(path string) (*journal, []sentMail, error) {
	j := &journal{path: path, write: appendSync}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("sent journal: %w", err)
	}
	return j, parseJournal(data), nil
}

func parseJournal(data []byte) []sentMail {
	var out []sentMail
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		seq, id, ok := strings.Cut(line, " ")
		n, err := strconv.ParseUint(seq, 10, 64)
		if !ok || err != nil || id == "" {
			continue
		}
		out = append(out, sentMail{n, id})
	}
	return out
}

// add records a mail sent.
func (j *journal) add(m sentMail) error {
	if j.f == nil {
		f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("sent journal: %w", err)
		}
		j.f = f
	}
	line := fmt.Appendf(nil, "%d %s\n", m.seq, m.id)
	if err := j.write(j.f, line); err != nil {
		return fmt.Errorf("sent journal: %w", err)
	}
	return nil
}

func appendSync(f *os.File, line []byte) error {
	if _, err := f.Write(line); err != nil {
		return err
	}
	return f.Sync()
}

// clear empties the journal once the store holds what it said. The file is kept open and
// cut to nothing, so that the next send's record is one write and one fsync. A cut lost to
// a crash leaves lines that name mails no longer queued: the next fold passes them over.
func (j *journal) clear() error {
	var err error
	if j.f != nil {
		err = j.f.Truncate(0)
	} else {
		err = os.Truncate(j.path, 0)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sent journal: %w", err)
	}
	return nil
}

func (j *journal) close() {
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
}
