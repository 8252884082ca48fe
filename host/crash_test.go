package host

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/store"
	"navarch/test/racesplit"
)

// The crash test runs this test binary as a daemon that creates a game and handles a
// scripted series of mails, killing itself with SIGKILL right after its k-th store write.
// Then it runs it again, as after a restart, with the mailbox delivering every mail once
// more (as IMAP does for mail not yet flagged). The store must end exactly as in a run that
// never crashed: the same log, the same mails queued, once each.
const (
	envCrashDB = "NAVARCH_HOST_CRASH_DB"
	envCrashAt = "NAVARCH_HOST_CRASH_AT"
)

func TestMain(m *testing.M) {
	if os.Getenv(envDaemonDB) != "" {
		os.Exit(daemonMain())
	}
	if os.Getenv(envLoadDB) != "" {
		os.Exit(loadDaemonMain())
	}
	if path := os.Getenv(envCrashDB); path != "" {
		at, _ := strconv.Atoi(os.Getenv(envCrashAt))
		if err := daemonRun(path, at); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func daemonRun(path string, at int) error {
	writes := 0
	_, err := playScript(path, 0, func() {
		if writes++; writes == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	})
	fmt.Println(writes)
	return err
}

// playScript creates the game (unless the store has it) and hands the script's mails to a
// host with the given engine cache; it returns the host.
func playScript(path string, cache int, afterWrite func()) (*Host, error) {
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{AfterWrite: afterWrite})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return ledgertest.Clock }, Rand: ledgertest.Rand("crash"), EngineCache: cache}, slog.New(slog.DiscardHandler))
	var games int
	s.View(func(tx *store.Tx) error { games = len(store.Games(tx)); return nil })
	if games == 0 {
		if err := s.Update(func(tx *store.Tx) error {
			if err := store.PutMessageIDKey(tx, make([]byte, 32)); err != nil { // the same Message-IDs in every run
				return err
			}
			return store.PutInstallationKey(tx, make([]byte, 32))
		}); err != nil {
			return nil, err
		}
		if _, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
			Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}}); err != nil {
			return nil, err
		}
	}
	for i, m := range script(s) {
		raw := fmt.Sprintf("From: %s\r\nSubject: [navarch lep-%s]\r\nMessage-ID: <%d.crash@example.org>\r\n\r\n%s\r\n", m[0], tagOf(s), i, m[1])
		if err := h.Handle([]byte(raw)); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func tagOf(s *store.Store) string {
	var tag string
	s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, store.Games(tx)[0])
		tag = strings.TrimPrefix(g.Tag, "lep-")
		return nil
	})
	return tag
}

// script is the mails the players send: JOINs, the set-up, then NONE to every request, with
// one order mail refused; it reads the keys from the welcome mails in the outbox.
func script(s *store.Store) [][2]string {
	keys := map[string]string{}
	s.View(func(tx *store.Tx) error {
		for _, e := range store.Outbox(tx) {
			o, _ := mail.UnmarshalOutgoing(e.Mail)
			if k := keyRE.FindStringSubmatch(o.Text); k != nil {
				keys[o.To[0]] = k[1]
			}
		}
		return nil
	})
	a, b := "alice@example.org", "bob@example.com"
	out := [][2]string{{a, "JOIN\r\nKEY " + keys[a]}, {b, "JOIN\r\nKEY " + keys[b]}, {a, "KEY " + keys[a] + "\r\nNONE"}, {b, "KEY " + keys[b] + "\r\nNONE"}}
	for i := 0; i < 3; i++ {
		out = append(out, [2]string{a, "KEY " + keys[a] + "\r\nBAR-VEN1 MOVE 9999"}, [2]string{a, "KEY " + keys[a] + "\r\nNONE"}, [2]string{b, "KEY " + keys[b] + "\r\nNONE"})
	}
	return out
}

func runDaemon(t *testing.T, path string, at int) bool {
	t.Helper()
	crashed, _ := runDaemonOut(t, path, at)
	return crashed
}

func runDaemonOut(t *testing.T, path string, at int) (bool, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashDB+"="+path, envCrashAt+"="+strconv.Itoa(at))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return true, out.String()
	}
	if err != nil {
		t.Fatalf("daemon: %v\n%s", err, out.String())
	}
	return false, out.String()
}

// snapshot is what must come out the same: the log export and the outbox, in order.
func snapshot(t *testing.T, path string) (string, []string, int) {
	t.Helper()
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var log string
	var mails []string
	var processed int
	s.View(func(tx *store.Tx) error {
		if p := store.Check(tx); len(p) > 0 {
			t.Errorf("store check: %v", p)
		}
		id := store.Games(tx)[0]
		data, err := exportData(tx, id)
		if err != nil {
			t.Fatal(err)
		}
		log = string(data)
		for _, e := range store.Outbox(tx) {
			mails = append(mails, string(e.Mail))
		}
		for i := 0; i < 100; i++ {
			for _, from := range []string{"alice@example.org", "bob@example.com"} {
				if _, ok := store.Processed(tx, from, fmt.Sprintf("%d.crash@example.org", i)); ok {
					processed++
				}
			}
		}
		return nil
	})
	return log, mails, processed
}

func TestCrashLosesNothingAndAnswersOnce(t *testing.T) {
	racesplit.Long(t) // the daemons it runs handle mail on one goroutine: the detector finds nothing
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.db")
	crashed, out := runDaemonOut(t, ref, 0)
	total, err := strconv.Atoi(strings.TrimSpace(out))
	if crashed || err != nil {
		t.Fatalf("the reference run: crashed %t, %q", crashed, out)
	}
	wantLog, wantMails, wantProcessed := snapshot(t, ref)
	if wantProcessed != 13 {
		t.Fatalf("reference run processed %d mails", wantProcessed)
	}
	// Kill runs at points spread over the whole run's writes.
	step := max(1, total/8)
	if testing.Short() {
		step = max(1, total/4)
	}
	for at := 1; at <= total; at += step {
		path := filepath.Join(dir, fmt.Sprintf("crash-%d.db", at))
		crashed := runDaemon(t, path, at)
		if crashed && runDaemon(t, path, 0) {
			t.Fatalf("the restarted daemon crashed")
		}
		log, mails, processed := snapshot(t, path)
		if log != wantLog {
			t.Errorf("killed after write %d: the log differs from a run without a crash", at)
		}
		if strings.Join(mails, "\n") != strings.Join(wantMails, "\n") {
			t.Errorf("killed after write %d: %d mails queued, want the same %d as without a crash", at, len(mails), len(wantMails))
		}
		if processed != wantProcessed {
			t.Errorf("killed after write %d: %d mails processed, want %d", at, processed, wantProcessed)
		}
		os.Remove(path)
	}
	t.Logf("a run makes %d store writes; killed after every %dth", total, step)
}
