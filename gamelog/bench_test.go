package gamelog_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"navarch/dice"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// longGame is 10 turns of 100 activations with 100 rolls each: 100,000 rolls of the
// activations plus one draw per turn, every seed revealed.
var longGame = sync.OnceValues(func() ([]byte, error) { return benchGame(10) })

// longerGame is longGame played for twice as many turns.
var longerGame = sync.OnceValues(func() ([]byte, error) { return benchGame(20) })

func benchGame(turns int) ([]byte, error) {
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	s, err := store.Open(filepath.Join(dir, "bench.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "bench", Turns: turns, Activations: 100, Rolls: 100, Reveal: -1, End: true})
	if err != nil {
		return nil, err
	}
	return ledgertest.Export(s, id, ledger.View{Full: true})
}

func loadLong(b *testing.B) ([]byte, *gamelog.Report) {
	b.Helper()
	return loadGame(b, longGame)
}

func loadGame(b *testing.B, game func() ([]byte, error)) ([]byte, *gamelog.Report) {
	b.Helper()
	data, err := game()
	if err != nil {
		b.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		b.Fatal(err)
	}
	rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true})
	if !rep.OK() || rep.RollsChecked < 100_000 {
		b.Fatalf("long game: %v, %d rolls checked", rep.Failure, rep.RollsChecked)
	}
	return data, rep
}

// BenchmarkVerify100kRolls parses and verifies the whole long game's export: chain, every
// record, every roll recomputed. In the same loop (timer stopped) it computes the hashing
// the format requires of any verifier of this file, on one core (hashFloor); it reports the
// rolls verified per second beside the rolls per second of that floor, and the ratio of the
// two times (x-floor: 1 is a verifier that costs only its hashing on one core).
func BenchmarkVerify100kRolls(b *testing.B) {
	data, rep := loadLong(b)
	fl := newHashFloor(b, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var verify, floor, verifyCPU, floorCPU time.Duration
	n := 0
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		f, err := gamelog.ParseFile(data)
		if err != nil {
			b.Fatal(err)
		}
		if r := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !r.OK() || r.RollsChecked != rep.RollsChecked {
			b.Fatal(r.Failure)
		}
		verify, verifyCPU = verify+time.Since(t0), verifyCPU+cpuTime()-c0
		b.StopTimer()
		t1, c1 := time.Now(), cpuTime()
		fl.run()
		floor, floorCPU = floor+time.Since(t1), floorCPU+cpuTime()-c1
		b.StartTimer()
		n++
	}
	rolls := float64(rep.RollsChecked * n)
	b.ReportMetric(float64(rep.RollsChecked), "rolls/op")
	b.ReportMetric(rolls/verify.Seconds(), "rolls/s")
	b.ReportMetric(rolls/floor.Seconds(), "floor-rolls/s")
	b.ReportMetric(verify.Seconds()/floor.Seconds(), "x-floor")
	// The same ratio in CPU time of the whole process (every goroutine, the collector too):
	// what verify costs the machine, and steadier than wall time on a shared machine.
	b.ReportMetric(verifyCPU.Seconds()/floorCPU.Seconds(), "cpu-x-floor")
}

// cpuTime is the CPU time (user and system) this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseLong parses the long game's export (every record checked, every leaf
// hashed), beside the SHA-256 of the file's bytes measured in the same loop.
func BenchmarkParseLong(b *testing.B) {
	data, _ := loadLong(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var parse, floor time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := gamelog.ParseFile(data); err != nil {
			b.Fatal(err)
		}
		parse += time.Since(t0)
		b.StopTimer()
		t1 := time.Now()
		_ = sha256.Sum256(data)
		floor += time.Since(t1)
		b.StartTimer()
	}
	b.ReportMetric(parse.Seconds()/floor.Seconds(), "x-sha256")
}

// hashFloor is the hashing that docs/LOG-FORMAT.md requires of a verifier of one file, with
// its inputs laid out ahead: every record's leaf and head, every unsealed record's
// commitment, and per activation its key and the HMAC blocks of its rolls (one block per
// eight values, the key state set once per activation). The few hashes of orders texts,
// inputs and reveals are left out.
type hashFloor struct {
	records [][]byte
	sealed  [][]byte // nonce ‖ record
	acts    [][][]byte
}

func newHashFloor(b *testing.B, data []byte) *hashFloor {
	b.Helper()
	f, err := gamelog.ParseFile(data)
	if err != nil {
		b.Fatal(err)
	}
	fl := &hashFloor{}
	for _, e := range f.Entries {
		r := e.Record
		fl.records = append(fl.records, r.Raw)
		if e.Inner != nil {
			fl.sealed = append(fl.sealed, append(e.Nonce[:], e.Inner.Raw...))
		}
		switch r.Type {
		case gamelog.TypeClose:
			fl.acts = append(fl.acts, nil)
		case gamelog.TypeRoll:
			count, sides, _ := gamelog.ParseDice(r.Get("dice"))
			msg := append(dice.Tag(dice.TagRoll), dice.LP([]byte(r.Get("label")))...)
			msg = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(msg, uint32(sides)), uint32(count))
			for j := 0; j < (count+7)/8; j++ {
				fl.acts[len(fl.acts)-1] = append(fl.acts[len(fl.acts)-1], binary.BigEndian.AppendUint32(slices.Clip(msg), uint32(j)))
			}
		}
	}
	return fl
}

func (fl *hashFloor) run() {
	h := sha256.New()
	var leaf, head [32]byte
	headMsg := append(dice.Tag(dice.TagHead), make([]byte, 8+32+32)...)
	at := len(headMsg) - 72
	for i, raw := range fl.records {
		h.Reset()
		h.Write([]byte{0})
		h.Write(raw)
		h.Sum(leaf[:0])
		binary.BigEndian.PutUint64(headMsg[at:], uint64(i))
		copy(headMsg[at+8:], head[:])
		copy(headMsg[at+40:], leaf[:])
		head = sha256.Sum256(headMsg)
	}
	sealedTag := dice.Tag(dice.TagSealed)
	for _, s := range fl.sealed {
		h.Reset()
		h.Write(sealedTag)
		h.Write(s)
		h.Sum(leaf[:0])
	}
	keyMsg := make([]byte, 4+15+16+32+4+4+32)
	var out []byte
	for _, msgs := range fl.acts {
		k := hmac.New(sha256.New, head[:])
		k.Write(keyMsg)
		m := hmac.New(sha256.New, k.Sum(nil))
		for _, msg := range msgs {
			m.Reset()
			m.Write(msg)
			out = m.Sum(out[:0])
		}
	}
}

// BenchmarkVerifyProcess runs `navarch verify` as a user does: a fresh process (the command
// built once, before the loop) on the long game's export written to a file, beside the
// one-core hashing floor of BenchmarkVerify100kRolls computed in the same loop. It reports
// the rolls per second of the whole process (start to exit), the ratios of its wall and CPU
// time (user and system, every thread) to the floor's, and its peak resident memory per MB
// of log. The file is in the page cache (it was just written), as after a download. The
// sub-benchmark "20turns" runs the same on a log twice as long (not with -short), to show
// how the process's time and memory grow with the log.
func BenchmarkVerifyProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "navarch")
	if other := os.Getenv("NAVARCH_VERIFY_BIN"); other != "" { // another build, to compare
		bin = other
	} else if out, err := exec.Command("go", "build", "-o", bin, "navarch/cmd/navarch").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	b.Run("10turns", func(b *testing.B) { benchVerifyProcess(b, bin, longGame) })
	b.Run("20turns", func(b *testing.B) {
		if testing.Short() {
			b.Skip("a log of 77 MB")
		}
		benchVerifyProcess(b, bin, longerGame)
	})
}

func benchVerifyProcess(b *testing.B, bin string, game func() ([]byte, error)) {
	data, rep := loadGame(b, game)
	fl := newHashFloor(b, data)
	log := filepath.Join(b.TempDir(), "long.log")
	if err := os.WriteFile(log, data, 0o644); err != nil {
		b.Fatal(err)
	}
	want := fmt.Sprintf("rolls        %d, %d checked", rep.Rolls, rep.RollsChecked)
	var verify, floor, verifyCPU, floorCPU time.Duration
	var rss int64
	n := 0
	for b.Loop() {
		wall, cpu, peak, out, err := timeProcess(bin, "verify", "--trust-log-key", log)
		if err != nil || !strings.Contains(out, want) || !strings.HasSuffix(out, "PASS\n") {
			b.Fatalf("navarch verify: %v\n%s", err, out)
		}
		verify, verifyCPU, rss = verify+wall, verifyCPU+cpu, max(rss, peak)
		b.StopTimer()
		t1, c1 := time.Now(), cpuTime()
		fl.run()
		floor, floorCPU = floor+time.Since(t1), floorCPU+cpuTime()-c1
		b.StartTimer()
		n++
	}
	rolls := float64(rep.RollsChecked * n)
	b.ReportMetric(rolls/verify.Seconds(), "rolls/s")
	b.ReportMetric(rolls/floor.Seconds(), "floor-rolls/s")
	b.ReportMetric(verify.Seconds()/floor.Seconds(), "x-floor")
	b.ReportMetric(verifyCPU.Seconds()/floorCPU.Seconds(), "cpu-x-floor")
	b.ReportMetric(float64(rss)/(1<<20)/(float64(len(data))/1e6), "peak-MiB/MB")
	b.ReportMetric(float64(rss)/(1<<20), "peak-MiB")
}

// timeChildEnv makes the test binary timeChild instead of running tests.
const timeChildEnv = "NAVARCH_BENCH_TIME_CHILD"

// timeProcess runs a command through this test binary started afresh (timeChild), so that
// the peak resident memory measured is the command's own: a process started straight from
// the benchmark's, whose memory holds the long game several times over, would count the
// benchmark's pages too (the child shares them until it execs). It returns the command's
// wall time, its CPU time (user and system), its peak resident set and its output.
func timeProcess(name string, args ...string) (wall, cpu time.Duration, peak int64, out string, err error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, 0, "", err
	}
	cmd := exec.Command(self, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), timeChildEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, stdout.String(), fmt.Errorf("%w: %s", err, stderr.String())
	}
	var w, c int64
	if _, err := fmt.Sscanf(stderr.String(), "%d %d %d", &w, &c, &peak); err != nil {
		return 0, 0, 0, stdout.String(), fmt.Errorf("timing %q: %w", stderr.String(), err)
	}
	return time.Duration(w), time.Duration(c), peak, stdout.String(), nil
}

// timeChild runs args as a command, its output to this process's standard output, and
// writes its wall time, CPU time (ns) and peak resident set (bytes) to standard error.
func timeChild(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = os.Stdout
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var peak int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss * 1024 // kilobytes on Linux
	}
	fmt.Fprintf(os.Stderr, "%d %d %d\n", wall.Nanoseconds(), (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds(), peak)
	return 0
}
