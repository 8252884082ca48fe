package ledger_test

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

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// The crash test re-runs this test binary as a child that plays a scripted game into a store
// and kills itself with SIGKILL right after its K-th store write (inside a transaction, or
// just after the previous one committed). The parent then opens the file and requires that
// the store checks clean and every game's log verifies.
const (
	envCrashDB = "NAVARCH_CRASH_DB"
	envCrashAt = "NAVARCH_CRASH_AT"
)

var crashScript = ledgertest.Script{Seed: "crash", Turns: 2, Activations: 2, Rolls: 3, Reveal: -1, End: true}

func TestMain(m *testing.M) {
	if path := os.Getenv(envCrashDB); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

func crashChild(path string) int {
	at, _ := strconv.Atoi(os.Getenv(envCrashAt))
	writes := 0
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{AfterWrite: func() {
		writes++
		if writes == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	if _, err := ledgertest.Game(s, crashScript); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 4
	}
	s.Close()
	fmt.Println(writes)
	return 0
}

func runChild(t *testing.T, path string, at int) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashDB+"="+path, envCrashAt+"="+strconv.Itoa(at))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func checkAfterCrash(t *testing.T, path, when string) int {
	t.Helper()
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatalf("%s: reopen: %v", when, err)
	}
	defer s.Close()
	records := 0
	s.View(func(tx *store.Tx) error {
		if p := store.Check(tx); len(p) > 0 {
			t.Errorf("%s: store check: %v", when, p)
		}
		for _, id := range store.Games(tx) {
			var buf bytes.Buffer
			if err := ledger.Export(tx, id, ledger.View{Full: true}, &buf); err != nil {
				t.Errorf("%s: export: %v", when, err)
				continue
			}
			f, err := gamelog.ParseFile(buf.Bytes())
			if err != nil {
				t.Errorf("%s: export does not parse: %v", when, err)
				continue
			}
			if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
				t.Errorf("%s: log fails: %v", when, rep.Failure)
			}
			records += len(f.Entries)
		}
		return nil
	})
	return records
}

func TestCrashBetweenAnyTwoWrites(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.db")
	cmd, out := runChild(t, full, 0)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("uncrashed child: %v\n%s", err, out)
	}
	total, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil || total < 50 {
		t.Fatalf("uncrashed child wrote %q times", out)
	}
	want := checkAfterCrash(t, full, "no crash")
	t.Logf("the game writes %d times, %d records", total, want)
	step := 1
	if testing.Short() {
		step = 7
	}
	prev := 0
	for at := 1; at <= total; at += step {
		path := filepath.Join(dir, fmt.Sprintf("crash-%d.db", at))
		cmd, out := runChild(t, path, at)
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("child meant to die at write %d: %v\n%s", at, err, out)
		}
		n := checkAfterCrash(t, path, fmt.Sprintf("killed after write %d of %d", at, total))
		if n < prev || n > want {
			t.Errorf("killed after write %d: %d records; earlier kills kept %d, the whole game has %d", at, n, prev, want)
		}
		prev = n
		os.Remove(path)
	}
}

// TestCrashAtRandomTimes kills the child from outside at moments that fall anywhere,
// including inside a commit's fsync.
func TestCrashAtRandomTimes(t *testing.T) {
	dir := t.TempDir()
	for i, delay := range []time.Duration{5, 13, 21, 34, 55, 89} {
		path := filepath.Join(dir, fmt.Sprintf("timed-%d.db", i))
		cmd, _ := runChild(t, path, 0)
		time.Sleep(delay * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if _, err := os.Stat(path); err == nil {
			checkAfterCrash(t, path, fmt.Sprintf("killed after %dms", delay))
		}
	}
}
