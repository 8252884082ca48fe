package webverify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// TestPageOffline opens verify.html as a user who saved it does, from a file:// URL with no
// server, and checks a game of some 5,000 records in it: the page must pass it as navarch
// verify does, with the same counts, and hash the chain of heads in its worker (a Blob URL
// of its own script, which the page's Content-Security-Policy allows and a file:// page may
// start), not fall back to hashing on the page's own thread. A script appended to a copy of the page holds the log
// and prints the report on the console, which Chromium writes to its standard error.
func TestPageOffline(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("NAVARCH_BROWSER") == "1" {
			t.Fatalf("NAVARCH_BROWSER=1 but %s is missing (apt-get install chromium): %v", chromium, err)
		}
		t.Skipf("%s not installed (apt-get install chromium); set NAVARCH_BROWSER=1 to require it", chromium)
	}
	s, err := store.Open(filepath.Join(t.TempDir(), "offline.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "offline", Turns: 1, Activations: 20, Rolls: 100, Reveal: -1, End: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("verify.html")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "OFFLINE-REPORT "
	script := `<script>
(async () => {
  const bytes = Uint8Array.from(atob("` + base64.StdEncoding.EncodeToString(data) + `"), (c) => c.charCodeAt(0));
  let out;
  try { const rep = await NV.check(bytes, { trustLogKey: true }); out = { failure: rep.failure, rolls: rep.rollsChecked, records: rep.records, chain: rep.chainHashedIn }; }
  catch (e) { out = { error: String(e && e.stack || e) }; }
  console.log("` + marker + `" + JSON.stringify(out));
})();
</script>
</body>`
	dir := t.TempDir()
	file := filepath.Join(dir, "verify.html")
	if err := os.WriteFile(file, bytes.Replace(page, []byte("</body>"), []byte(script), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--enable-logging=stderr", "--v=0", "--user-data-dir="+filepath.Join(dir, "profile"), "file://"+file)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // chromium and its helpers, which it started
		cmd.Wait()
	}()
	var got struct {
		Failure *struct{ Reason string } `json:"failure"`
		Rolls   int                      `json:"rolls"`
		Records int                      `json:"records"`
		Chain   string                   `json:"chain"`
		Error   string                   `json:"error"`
	}
	sc := bufio.NewScanner(stderr)
	sc.Buffer(nil, 1<<20)
	found := false
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, marker)
		if i < 0 {
			continue
		}
		js := line[i+len(marker):]
		if j := strings.LastIndex(js, `}", source:`); j >= 0 {
			js = js[:j+1]
		}
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatalf("the page's report %q: %v", js, err)
		}
		found = true
		break
	}
	if !found {
		t.Fatalf("the page opened from a file printed no report (chromium: %v)", sc.Err())
	}
	if got.Error != "" || got.Failure != nil {
		t.Fatalf("the page opened from a file: error %q, failure %+v", got.Error, got.Failure)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true})
	if !rep.OK() {
		t.Fatal(rep.Failure)
	}
	if got.Rolls != rep.RollsChecked || got.Records != rep.Records || got.Chain != "worker" {
		t.Errorf("the page opened from a file checked %d rolls of %d records, its chain hashed in %q; navarch verify %d rolls of %d records; want them in a worker",
			got.Rolls, got.Records, got.Chain, rep.RollsChecked, rep.Records)
	}
}
