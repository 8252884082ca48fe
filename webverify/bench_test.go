package webverify

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// BenchmarkPageLongGame checks gamelog's long game (10 turns of 100 activations of 100 rolls,
// every seed revealed: 149,860 rolls, 38.7 MB; BenchmarkVerify100kRolls; with -short, one
// turn of it) in the page in headless Chromium, beside gamelog's ParseFile and Verify of the
// same bytes in this process, one after the other in each iteration. It reports the page's
// time (NV.check, the log's bytes already in the page), Go's, and their ratio. Each
// iteration starts a new browser; NAVARCH_VERIFY_PAGE names another page to compare.
func BenchmarkPageLongGame(b *testing.B) {
	if _, err := os.Stat(chromium); err != nil {
		b.Skipf("%s not installed (apt-get install chromium)", chromium)
	}
	s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	turns := 10
	if testing.Short() { // make bench-smoke: a game of a tenth the size
		turns = 1
	}
	id, err := ledgertest.Game(s, ledgertest.Script{Seed: "bench", Turns: turns, Activations: 100, Rolls: 100, Reveal: -1, End: true})
	if err != nil {
		b.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		b.Fatal(err)
	}
	var page, native time.Duration
	var rolls int
	for b.Loop() {
		t0 := time.Now()
		f, err := gamelog.ParseFile(data)
		if err != nil {
			b.Fatal(err)
		}
		rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true})
		native += time.Since(t0)
		if !rep.OK() {
			b.Fatal(rep.Failure)
		}
		res := runPage(b, []logCase{{Name: "long game", Log: data, Trust: true}}, 10*time.Minute)
		if res.Error != "" || len(res.Results) != 1 {
			b.Fatalf("page: %s", res.Error)
		}
		r := res.Results[0]
		if pageVerdict(r.Rep) != "PASS" || r.Rep.RollsChecked != rep.RollsChecked || r.Rep.Records != rep.Records {
			b.Fatalf("page: %s, %d rolls checked, %d records; verify: %d rolls, %d records", pageVerdict(r.Rep), r.Rep.RollsChecked, r.Rep.Records, rep.RollsChecked, rep.Records)
		}
		page += time.Duration(r.Ms * float64(time.Millisecond))
		rolls += rep.RollsChecked
	}
	b.ReportMetric(page.Seconds()/float64(b.N), "page-s/op")
	b.ReportMetric(native.Seconds()/float64(b.N), "go-s/op")
	b.ReportMetric(float64(rolls)/page.Seconds(), "page-rolls/s")
	b.ReportMetric(page.Seconds()/native.Seconds(), "x-go")
}
