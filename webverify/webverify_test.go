package webverify

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"navarch/gamelog"
	"navarch/ledger/ledgertest"
	"navarch/mail"
)

// chromium is Debian's package's browser; NAVARCH_CHROMIUM names another.
var chromium = cmp.Or(os.Getenv("NAVARCH_CHROMIUM"), "/usr/bin/chromium")

// pageReport is what the page reports of one log (NV.check in verify.html).
type pageReport struct {
	Parsed  bool `json:"parsed"`
	Failure *struct {
		Index  int64  `json:"index"`
		Type   string `json:"type"`
		Reason string `json:"reason"`
	} `json:"failure"`
	Records      int       `json:"records"`
	Redacted     int       `json:"redacted"`
	Withheld     int       `json:"withheld"`
	Rolls        int       `json:"rolls"`
	RollsChecked int       `json:"rollsChecked"`
	BeaconSteps  int       `json:"beaconSteps"`
	BeaconProven int       `json:"beaconProven"`
	Checkpoints  int       `json:"checkpoints"`
	External     int       `json:"external"`
	Pending      []uint32  `json:"pending"`
	Draws        int       `json:"draws"`
	Dice         []pageDie `json:"dice"`
	DrawDice     []pageDie `json:"drawDice"`
	Notes        []string  `json:"notes"`
	Orders       []struct {
		Hash    string   `json:"hash"`
		Records []uint64 `json:"records"`
		UsedBy  []uint64 `json:"usedBy"`
	} `json:"orders"`
	Unsent []struct {
		Index  uint64 `json:"index"`
		Reason string `json:"reason"`
	} `json:"unsent"`
	Error         string `json:"error"`
	ChainHashedIn string `json:"chainHashedIn"` // "worker" where the page hashed the chain on another thread
	// Later counts the rolls and seals whose hashes the page's first pass left to its worker;
	// Rechecked is set where the report is that of the second pass, on the page's thread alone.
	Later struct {
		Rolls int `json:"rolls"`
		Seals int `json:"seals"`
	} `json:"later"`
	Rechecked bool `json:"rechecked"`
}

type pageDie struct {
	Sides  int   `json:"sides"`
	Counts []int `json:"counts"`
	Total  int   `json:"total"`
}

type pageResults struct {
	Vectors struct{ V1, V2, V3, V5 string } `json:"vectors"`
	Results []struct {
		Name string     `json:"name"`
		Rep  pageReport `json:"rep"`
		Ms   float64    `json:"ms"` // the page's time to check it (NV.check)
		Dice []string   `json:"dice"`
	} `json:"results"`
	Ed               []bool `json:"ed"`
	BLS              []any  `json:"bls"` // the quicknet golden round: verifies, a changed one not, its randomness
	WebCryptoEd25519 *bool  `json:"webCryptoEd25519"`
	Error            string `json:"error"`
}

// edCase is a signature the page's own (BigInt) Ed25519 must judge as Go's crypto/ed25519
// does, for browsers whose WebCrypto lacks Ed25519.
type edCase struct {
	Pub  string `json:"pub"`
	Msg  string `json:"msg"`
	Sig  string `json:"sig"`
	Want bool   `json:"want"`
}

func edCases() []edCase {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	pub := key.Public().(ed25519.PublicKey)
	var out []edCase
	for i, msg := range []string{"", "navarch", strings.Repeat("x", 300)} {
		sig := ed25519.Sign(key, []byte(msg))
		out = append(out, edCase{hex.EncodeToString(pub), hex.EncodeToString([]byte(msg)), hex.EncodeToString(sig), true})
		bad := append([]byte(nil), sig...)
		bad[i*9] ^= 4
		out = append(out, edCase{hex.EncodeToString(pub), hex.EncodeToString([]byte(msg)), hex.EncodeToString(bad), ed25519.Verify(pub, []byte(msg), bad)})
	}
	other, _, _ := ed25519.GenerateKey(ledgertest.Rand("ed"))
	sig := ed25519.Sign(key, []byte("navarch"))
	return append(out, edCase{hex.EncodeToString(other), hex.EncodeToString([]byte("navarch")), hex.EncodeToString(sig), false})
}

// TestPageAgreesWithVerify runs verify.html in headless Chromium on every log of the Go
// verifier's tests (honest views, tamper and attack cases, the README's example) and on the
// golden vectors, and requires the verdicts of gamelog.Verify: pass or fail, and the record
// the failure names; for a log that passes, the same counts and dice.
func TestPageAgreesWithVerify(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("NAVARCH_BROWSER") == "1" {
			t.Fatalf("NAVARCH_BROWSER=1 but %s is missing (apt-get install chromium): %v", chromium, err)
		}
		t.Skipf("%s not installed (apt-get install chromium); set NAVARCH_BROWSER=1 to require it", chromium)
	}
	var cases []logCase
	cases = append(cases, honestCases(t)...)
	cases = append(cases, exampleCases(t)...)
	real, sources := realGameCases(t)
	cases = append(cases, real...)
	cases = append(cases, tamperCases(t)...)
	cases = append(cases, attackCases(t)...)
	cases = append(cases, secrecyCases(t)...)
	team, teamSources := teamCases(t)
	cases = append(cases, team...)
	cases = append(cases, beaconCases(t)...)
	cases = append(cases, standingCases(t)...)
	mutations := 30 // per log; NAVARCH_MUTATIONS=N for a longer run
	if n, err := strconv.Atoi(os.Getenv("NAVARCH_MUTATIONS")); err == nil {
		mutations = n
	}
	cases = append(cases, mutationCases(t, mutations, append(sources, teamSources...)...)...)
	// The page's own Ed25519 (for browsers without WebCrypto's) on every signature of a few.
	for _, c := range slices.Clone(cases) {
		if c.Name == "honest full view, game over" || c.Name == "tamper: bad checkpoint signature" ||
			c.Name == "attack: cut after a checkpoint" || c.Name == "tamper: forgery against a kept checkpoint" {
			c.Name += " (the page's own Ed25519)"
			c.JSEd = true
			cases = append(cases, c)
		}
	}
	slices.SortStableFunc(cases, func(a, b logCase) int { return strings.Compare(a.Name, b.Name) })

	start := time.Now()
	res := runPage(t, cases, 50*time.Second+time.Duration(len(cases))*50*time.Millisecond)
	webEd := "never asked"
	if res.WebCryptoEd25519 != nil {
		webEd = fmt.Sprint(*res.WebCryptoEd25519)
	}
	t.Logf("%d logs checked in the page in %v; WebCrypto's Ed25519 used: %s", len(cases), time.Since(start).Round(time.Millisecond), webEd)
	if res.Error != "" {
		t.Fatalf("the page failed: %s", res.Error)
	}
	t.Run("golden vectors", func(t *testing.T) {
		for file, got := range map[string]string{"../dice/testdata/vectors.golden": res.Vectors.V1, "../gamelog/testdata/vectors_v2.golden": res.Vectors.V2,
			"../gamelog/testdata/vectors_v3.golden": res.Vectors.V3, "../gamelog/testdata/vectors_v5.golden": res.Vectors.V5} {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("the page's derivations differ from %s:\npage:\n%s\ngolden:\n%s", file, got, want)
			}
		}
	})
	t.Run("quicknet golden round", func(t *testing.T) {
		want := []any{true, false, "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"}
		if fmt.Sprint(res.BLS) != fmt.Sprint(want) {
			t.Errorf("the page's BLS on quicknet round 657413: %v, want %v", res.BLS, want)
		}
	})
	t.Run("ed25519 without WebCrypto", func(t *testing.T) {
		want := edCases()
		if len(res.Ed) != len(want) {
			t.Fatalf("%d Ed25519 answers for %d cases", len(res.Ed), len(want))
		}
		for i, c := range want {
			if res.Ed[i] != c.Want {
				t.Errorf("case %d: page says %v, crypto/ed25519 %v", i, res.Ed[i], c.Want)
			}
		}
	})
	if len(res.Results) != len(cases) {
		t.Fatalf("the page answered %d of %d logs", len(res.Results), len(cases))
	}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) { compare(t, c, res.Results[i].Rep, res.Results[i].Dice) })
	}
}

// goVerdict verifies a case with the Go verifier (gamelog.Verify, and navarch verify's
// gamelog.VerifyStream, which must agree with it); a parse
// error names its record as navarch verify prints it ("record N ..."), or none (-1).
func goVerdict(t *testing.T, c logCase) (*gamelog.Report, int64, string) {
	t.Helper()
	f, err := gamelog.ParseFile(c.Log)
	if err != nil {
		var n int64 = -1
		fmt.Sscanf(err.Error(), "record %d", &n)
		return nil, n, err.Error()
	}
	opts := gamelog.VerifyOptions{TrustLogKey: c.Trust, AllowV1: c.AllowV1, AllowUndeclared: c.AllowUndeclared, Format: c.Format}
	if c.Key != "" {
		opts.Key, _ = hex.DecodeString(c.Key)
	}
	if c.BeaconKey != "" {
		opts.BeaconKey, _ = hex.DecodeString(c.BeaconKey)
	}
	mails := c.Mails
	if c.GoMails != nil {
		mails = c.GoMails
	}
	for i, m := range mails {
		cs, err := gamelog.ParseBlocks([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		for j := range cs { // as navarch verify reads a saved mail: its time from its headers
			cs[j].Mailed = gamelog.MailTime([]byte(c.Mails[i]))
		}
		opts.Checkpoints = append(opts.Checkpoints, cs...)
	}
	for _, o := range c.Orders {
		opts.Orders = append(opts.Orders, gamelog.CanonicalOrders(o))
	}
	opts.Player = c.Player
	for _, raw := range c.Sent {
		opts.Sent = append(opts.Sent, sentMails(t, raw)...)
	}
	rep := gamelog.Verify(f, opts)
	// navarch verify reads the log as it streams (gamelog.VerifyStream): the same report.
	if _, srep, err := gamelog.VerifyStream(bytes.NewReader(c.Log), opts); err != nil || !reflect.DeepEqual(srep, rep) {
		t.Fatalf("gamelog.VerifyStream gives %v %+v; Verify %+v", err, srep, rep)
	}
	if rep.Failure != nil {
		return rep, rep.Failure.Index, rep.Failure.Error()
	}
	return rep, 0, ""
}

func compare(t *testing.T, c logCase, page pageReport, dice []string) {
	rep, idx, why := goVerdict(t, c)
	goFails := why != ""
	if c.MustFail && !goFails {
		t.Fatalf("navarch verify passes a case built to fail (the case is wrong)")
	}
	if page.Error != "" {
		t.Fatalf("the page threw: %s", page.Error)
	}
	if page.Parsed && page.ChainHashedIn != "worker" {
		t.Errorf("the page hashed the chain in %q, not in its worker", page.ChainHashedIn)
	}
	if (page.Failure != nil) != goFails {
		t.Fatalf("verdicts differ: navarch verify %s; page %s", verdict(goFails, idx, why), pageVerdict(page))
	}
	checkLater(t, c, page, goFails)
	if goFails {
		if page.Failure.Index != idx {
			t.Errorf("failing record differs: navarch verify %s; page %s", verdict(true, idx, why), pageVerdict(page))
		}
		if rep != nil && len(page.Unsent) != len(rep.Unsent) {
			t.Errorf("records not accounted for by the sent mail: page %v, verify %v", page.Unsent, rep.Unsent)
		}
		return
	}
	got := fmt.Sprintf("records %d, withheld %d, rolls %d, checked %d, checkpoints %d+%d, pending %v, beacon steps %d, proven %d",
		page.Records, page.Redacted+page.Withheld, page.Rolls, page.RollsChecked, page.Checkpoints, page.External, page.Pending, page.BeaconSteps, page.BeaconProven)
	want := fmt.Sprintf("records %d, withheld %d, rolls %d, checked %d, checkpoints %d+%d, pending %v, beacon steps %d, proven %d",
		rep.Records, rep.Redacted+rep.Withheld, rep.Rolls, rep.RollsChecked, rep.Checkpoints, rep.External, rep.Pending, rep.BeaconSteps, rep.BeaconProven)
	if got != want {
		t.Errorf("counts differ:\npage:   %s\nverify: %s", got, want)
	}
	compareDice(t, rep, page, dice)
	if len(page.Orders) != len(rep.Orders) {
		t.Fatalf("page found %d of the orders, verify %d", len(page.Orders), len(rep.Orders))
	}
	for i, o := range rep.Orders {
		p := page.Orders[i]
		if p.Hash != hex.EncodeToString(o.Hash[:]) || !slices.Equal(p.Records, o.Records) || !slices.Equal(p.UsedBy, o.UsedBy) {
			t.Errorf("orders %d: page %+v, verify %x in %v used by %v", i, p, o.Hash[:], o.Records, o.UsedBy)
		}
	}
	if len(page.Unsent) != len(rep.Unsent) {
		t.Errorf("unsent: page %v, verify %v", page.Unsent, rep.Unsent)
	}
	if !slices.Equal(page.Notes, rep.Notes) {
		t.Errorf("notes: page %q, verify %q", page.Notes, rep.Notes)
	}
}

// checkLater requires the page's first pass to leave every roll it checks and every seal it
// opens to its worker, and a log that fails to be decided by the second pass, on the page's
// thread alone: a worker that let a roll or a seal through would pass a tamper case.
func checkLater(t *testing.T, c logCase, page pageReport, goFails bool) {
	t.Helper()
	if !page.Parsed {
		return
	}
	if goFails {
		if page.Later.Rolls+page.Later.Seals > 0 && !page.Rechecked {
			t.Errorf("the page failed the log in its first pass, with %d rolls and %d seals left to its worker, not in the second", page.Later.Rolls, page.Later.Seals)
		}
		return
	}
	if page.Rechecked {
		t.Errorf("the page checked a log that passes a second time")
	}
	f, err := gamelog.ParseFile(c.Log)
	if err != nil {
		t.Fatal(err)
	}
	seals := 0
	for _, e := range f.Entries {
		if e.Inner != nil {
			seals++
		}
	}
	if page.Later.Rolls != page.RollsChecked || page.Later.Seals != seals {
		t.Errorf("the worker checked %d rolls and %d seals; the page checked %d rolls, the log unseals %d records", page.Later.Rolls, page.Later.Seals, page.RollsChecked, seals)
	}
}

// dieLine is navarch verify's line for a die (cmd/navarch printDie, which package main keeps
// to itself).
func dieLine(d gamelog.DieStats) string {
	var b strings.Builder
	chi, dof := d.ChiSquare()
	fmt.Fprintf(&b, "d%-4d        n=%d", d.Sides, d.Total)
	if d.Sides <= 20 {
		for v, c := range d.Counts {
			fmt.Fprintf(&b, " %d:%d", v+1, c)
		}
	}
	switch {
	case dof > 0 && d.Total >= 5*d.Sides:
		fmt.Fprintf(&b, "  chi²=%.2f (%d dof; a fair die exceeds %.2f one time in 1000)", chi, dof, gamelog.Critical999(dof))
	case dof > 0:
		fmt.Fprintf(&b, "  (too few rolls for a chi² test: it wants %d)", 5*d.Sides)
	}
	return b.String()
}

func verdict(fails bool, idx int64, why string) string {
	if !fails {
		return "PASS"
	}
	return fmt.Sprintf("FAIL at record %d: %s", idx, why)
}

func pageVerdict(p pageReport) string {
	if p.Failure == nil {
		return "PASS"
	}
	return fmt.Sprintf("FAIL at record %d (%s): %s", p.Failure.Index, p.Failure.Type, p.Failure.Reason)
}

// runPage serves verify.html and the cases on loopback, opens the page in headless Chromium
// with ?selftest, and returns what the page posts back.
func runPage(t testing.TB, cases []logCase, timeout time.Duration) pageResults {
	t.Helper()
	page, err := os.ReadFile(cmp.Or(os.Getenv("NAVARCH_VERIFY_PAGE"), "verify.html")) // another page, to compare
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan []byte, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /verify.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	// A log of over 1 MiB is served apart, as bytes (logCase.LogURL).
	sent := slices.Clone(cases)
	for i, c := range sent {
		if len(c.Log) > 1<<20 {
			sent[i].Log, sent[i].LogURL = nil, fmt.Sprintf("log/%d", i)
		}
	}
	mux.HandleFunc("GET /log/{i}", func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.PathValue("i"))
		if err != nil || i < 0 || i >= len(cases) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(cases[i].Log)
	})
	mux.HandleFunc("GET /cases", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(struct {
			Cases []logCase `json:"cases"`
			Ed    []edCase  `json:"ed"`
		}{sent, edCases()})
	})
	mux.HandleFunc("POST /results", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case results <- b:
		default:
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--user-data-dir="+t.TempDir(), srv.URL+"/verify.html?selftest")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var werr error
	go func() { werr = cmd.Wait(); close(exited) }()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // chromium and its helpers, which it started
		<-exited
	}()
	select {
	case b := <-results:
		var res pageResults
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatalf("page results: %v", err)
		}
		return res
	case <-exited:
		t.Fatalf("chromium exited before the page answered: %v\n%s", werr, tail(stderr.String()))
	case <-ctx.Done():
		t.Fatalf("the page did not answer in %v\n%s", timeout, tail(stderr.String()))
	}
	return pageResults{}
}

// tail is the end of chromium's chatter, which is mostly about the missing D-Bus.
func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// sentMails reads a file of sent mail as navarch verify --sent does (cmd/navarch readSent,
// which package main keeps to itself): mbox split, then each mail read by the daemon's own
// mail.Parse and mail.ReadRequest.
func sentMails(t *testing.T, file string) []gamelog.SentMail {
	t.Helper()
	raws := []string{file}
	if strings.HasPrefix(file, "From ") {
		raws = nil
		for _, part := range strings.Split(file, "\nFrom ") {
			_, body, _ := strings.Cut(part, "\n")
			if body = strings.ReplaceAll(body, "\n>From ", "\nFrom "); strings.TrimSpace(body) != "" {
				raws = append(raws, body)
			}
		}
	}
	var out []gamelog.SentMail
	for _, raw := range raws {
		in, err := mail.Parse([]byte(raw), mail.Options{MaxSize: 1 << 26})
		if in == nil || in.MessageID == "" {
			t.Fatalf("sent mail: %v", err)
		}
		req, _ := mail.ReadRequest(in.Subject, in.Text)
		out = append(out, gamelog.SentMail{MessageID: in.MessageID, Entropy: []byte(req.Entropy), Join: req.Command == mail.CmdJoin})
	}
	return out
}

// compareDice requires verify's per-die table of the page; cup and deck draws are counted
// apart by both (Report.Draws).
func compareDice(t *testing.T, rep *gamelog.Report, page pageReport, lines []string) {
	t.Helper()
	pageDice := page.Dice
	if rep.Draws != page.Draws {
		t.Errorf("draws: page %d, verify %d", page.Draws, rep.Draws)
	}
	drawn := 0
	for _, d := range page.DrawDice {
		drawn += d.Total
	}
	if drawn != page.Draws {
		t.Errorf("the page's draw table counts %d draws, its total %d", drawn, page.Draws)
	}
	if len(pageDice) != len(rep.Dice) {
		t.Fatalf("page has %d dice, verify %d", len(pageDice), len(rep.Dice))
	}
	for i, d := range rep.Dice {
		p := pageDice[i]
		if p.Sides != d.Sides || p.Total != d.Total || !slices.Equal(p.Counts, d.Counts) {
			t.Errorf("d%d: page %v (n=%d), verify %v (n=%d)", d.Sides, p.Counts, p.Total, d.Counts, d.Total)
		}
	}
	j := 0
	for _, d := range rep.Dice {
		for j < len(page.Dice) && page.Dice[j].Sides != d.Sides {
			j++
		}
		if want := dieLine(d); j == len(lines) || lines[j] != want {
			t.Errorf("die line of d%d differs from verify's %q", d.Sides, want)
		}
	}
}
