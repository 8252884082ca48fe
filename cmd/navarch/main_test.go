package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/gamelog"
	"navarch/host"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	navmail "navarch/mail"
	"navarch/store"
	"navarch/test/racesplit"
	"navarch/webverify"
)

func navarch(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// fixture is a database with one scripted game, its public export and the verifier key.
type fixture struct {
	dir, db, log, key string
	game              ident.GameID
	ckpt              gamelog.Checkpoint
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	fx := fixture{dir: t.TempDir()}
	fx.db = filepath.Join(fx.dir, "navarch.db")
	s, err := store.Open(fx.db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if fx.game, err = ledgertest.Game(s, ledgertest.Small); err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, fx.game, ledger.View{})
	if err != nil {
		t.Fatal(err)
	}
	fx.log = filepath.Join(fx.dir, "game.log")
	os.WriteFile(fx.log, data, 0o644)
	s.View(func(tx *store.Tx) error {
		k, err := store.InstallationKey(tx)
		fx.key = hex.EncodeToString(k.Public().(ed25519.PublicKey))
		return err
	})
	f, _ := gamelog.ParseFile(data)
	for _, e := range f.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint {
			fx.ckpt = gamelog.CheckpointFromRecord(fx.game, e.Record)
		}
	}
	return fx
}

func TestVerifyHonest(t *testing.T) {
	fx := newFixture(t)
	mail := filepath.Join(fx.dir, "report.eml")
	os.WriteFile(mail, []byte("Subject: [navarch] T2 report\r\n\r\nYour checkpoint:\r\n"+strings.ReplaceAll(fx.ckpt.Block(), "\n", "\r\n")), 0o644)
	orders := filepath.Join(fx.dir, "orders.txt")
	os.WriteFile(orders, []byte("VEN-1 MOVE 1507 1407\nVEN-1 FIRE OTT-1\n"), 0o644)
	code, out, errs := navarch("verify", "--key", fx.key, "--checkpoint", mail, "--orders", orders, fx.log)
	if code != 0 || !strings.HasSuffix(out, "PASS\n") {
		t.Fatalf("honest log: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"pending      turn 3", "checkpoints  3 in the log, 1 from mail", "d6 ", "chi²", "orders       hash"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestVerifyTampered(t *testing.T) {
	fx := newFixture(t)
	data, _ := os.ReadFile(fx.log)
	i := bytes.Index(data, []byte("\nvalues "))
	bad := append([]byte(nil), data...)
	bad[i+8] = map[byte]byte{'1': '2', '2': '3', '3': '4', '4': '5', '5': '1', '6': '1'}[bad[i+8]]
	os.WriteFile(fx.log, bad, 0o644)
	code, out, _ := navarch("verify", "--key", fx.key, fx.log)
	if code != 1 || !strings.Contains(out, "FAIL         record ") || !strings.Contains(out, "(roll, line") {
		t.Errorf("tampered roll: exit %d\n%s", code, out)
	}
	os.WriteFile(fx.log, data[:len(data)/2], 0o644)
	code, out, _ = navarch("verify", fx.log)
	if code != 1 || !strings.Contains(out, "FAIL") {
		t.Errorf("truncated log: exit %d\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	fx := newFixture(t)
	for _, args := range [][]string{
		{"verify"}, {"verify", "--key", "abc", fx.log}, {"verify", "--checkpoint", fx.log, fx.log},
		{"verify", "--nope", fx.log}, {"backup"}, {"frobnicate"}, {},
	} {
		if code, out, errs := navarch(args...); code != 2 {
			t.Errorf("navarch %q: exit %d, want 2\n%s%s", args, code, out, errs)
		}
	}
	if code, _, _ := navarch("verify", filepath.Join(fx.dir, "missing.log")); code != 1 {
		t.Errorf("missing file: exit %d, want 1", code)
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands() {
		code, out, errs := navarch(c.name, "-h")
		if code != 0 || !strings.Contains(errs+out, "usage: navarch "+c.name) {
			t.Errorf("%s -h: exit %d\n%s%s", c.name, code, out, errs)
		}
	}
	if code, out, _ := navarch("help"); code != 0 || !strings.Contains(out, "verify") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

func TestBackupAndCheck(t *testing.T) {
	fx := newFixture(t)
	copyPath := filepath.Join(fx.dir, "backup.db")
	if code, out, errs := navarch("backup", "-db", fx.db, copyPath); code != 0 {
		t.Fatalf("backup: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := navarch("check", "-db", copyPath); code != 0 || !strings.Contains(out, "OK") || !strings.Contains(out, "1 games") {
		t.Errorf("check of the backup: exit %d\n%s%s", code, out, errs)
	}
	if code, _, _ := navarch("backup", "-db", fx.db, copyPath); code != 1 {
		t.Error("backup over an existing file accepted")
	}
	if code, out, _ := navarch("version"); code != 0 || !strings.Contains(out, "navarch/v1") {
		t.Errorf("version: %d %s", code, out)
	}
}

// TestCompactCommand: navarch compact rewrites a stopped daemon's database, which then
// checks with its games, and keeps the file as it was beside it.
func TestCompactCommand(t *testing.T) {
	fx := newFixture(t)
	code, out, errs := navarch("compact", "-db", fx.db)
	if code != 0 || !strings.Contains(out, "compacted") {
		t.Fatalf("compact: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(fx.db + ".before-compact"); err != nil {
		t.Errorf("the file as it was: %v", err)
	}
	if code, out, errs := navarch("check", "-db", fx.db); code != 0 || !strings.Contains(out, "1 games") {
		t.Errorf("check after compact: exit %d\n%s%s", code, out, errs)
	}
	none := filepath.Join(fx.dir, "none.db")
	if code, _, errs := navarch("compact", "-db", none); code != 1 || !strings.Contains(errs, "no such file") {
		t.Errorf("compact of no database: exit %d %s", code, errs)
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("compact of no database made one")
	}
}

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	s, err := store.Open(filepath.Join(dir, "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := selfPlayed(s)
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "game.log")
	os.WriteFile(logFile, data, 0o644)
	if code, out, errs := navarch("replay", logFile); code != 0 || !strings.HasSuffix(out, "PASS\n") {
		t.Fatalf("replay of a self-played game: exit %d\n%s%s", code, out, errs)
	}
	// A changed state hash is caught.
	i := bytes.LastIndex(data, []byte("\nstate-hash "))
	bad := append([]byte(nil), data...)
	bad[i+12] = map[bool]byte{true: '1', false: '0'}[bad[i+12] == '0']
	os.WriteFile(logFile, bad, 0o644)
	if code, out, _ := navarch("replay", logFile); code != 1 || !strings.Contains(out, "does not match the logged state hash") {
		t.Errorf("replay of a changed state hash: exit %d\n%s", code, out)
	}
}

func TestRenderCommand(t *testing.T) {
	racesplit.Long(t) // the command runs on one goroutine: the detector finds nothing
	dir := t.TempDir()
	db := filepath.Join(dir, "navarch.db")
	s, err := store.Open(db, slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	id, err := selfPlayed(s)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "map.png")
	prefix := hex.EncodeToString(id[:3])
	if code, o, e := navarch("render", "-db", db, "-side", "ottoman", "-o", out, prefix); code != 0 {
		t.Fatalf("render: exit %d\n%s%s", code, o, e)
	}
	data, _ := os.ReadFile(out)
	if _, err := png.Decode(bytes.NewReader(data)); err != nil || len(data) > 300<<10 {
		t.Errorf("map: %d bytes, %v", len(data), err)
	}
	if code, _, _ := navarch("render", "-db", db, "-o", out, "ffff"); code != 1 {
		t.Error("an unknown game was rendered")
	}
}

// testConfig writes a configuration for a database in a new directory (loopback servers that
// need not run) and returns the directory, the configuration's path and the database's.
func testConfig(t *testing.T) (dir, cfg, db string) {
	t.Helper()
	dir = t.TempDir()
	cfg, db = filepath.Join(dir, "navarch.json"), filepath.Join(dir, "navarch.db")
	err := os.WriteFile(cfg, []byte(`{"database": "`+db+`", "address": "navarch@host.example", "domain": "navarch.host.example",
 "imap": {"host": "127.0.0.1", "port": 1143, "tls": "none", "username": "navarch"},
 "smtp": {"host": "127.0.0.1", "port": 1025, "tls": "none"}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	return dir, cfg, db
}

func TestGameCommands(t *testing.T) {
	_, cfg, _ := testConfig(t)
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-referee", "ref@example.net",
		"-player", "alice:christian:alice@example.org:Europe/Rome", "-player", "bob:ottoman:bob@example.com")
	if code != 0 || !strings.Contains(out, "created game lep-") {
		t.Fatalf("game new: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	if code, out, _ := navarch("game", "list", "-config", cfg); code != 0 || !strings.Contains(out, tag+" ") || !strings.Contains(out, "joining") {
		t.Errorf("game list: %d %s", code, out)
	}
	if code, out, e := navarch("game", "show", "-config", cfg, tag); code != 0 || !strings.Contains(out, "player bob ottoman <bob@example.com> UTC") ||
		!strings.Contains(out, "deadlines 72h, reminder 12h before, without orders: default") {
		t.Errorf("game show: %d %s%s", code, out, e)
	}
	if code, out, e := navarch("game", "export", "-config", cfg, tag); code != 0 || !strings.HasPrefix(out, gamelog.FormatV5+" log full") {
		t.Errorf("game export: %d %.80s%s", code, out, e)
	}
	if code, out, e := navarch("game", "export", "-config", cfg, "-side", "ottoman", tag); code != 0 || !strings.HasPrefix(out, gamelog.FormatV5+" log side:ottoman") {
		t.Errorf("game export -side ottoman: %d %.80s%s", code, out, e)
	}
	if code, out, e := navarch("game", "export", "-config", cfg, "-side", "christain", tag); code != 1 || out != "" ||
		!strings.Contains(e, `has no side "christain": its sides are christian, ottoman`) {
		t.Errorf("game export -side christain (a typo): exit %d, want 1 naming the sides\n%s%s", code, out, e)
	}
	if code, _, _ := navarch("game", "new", "-config", cfg, "-scenario", "no-such", "-player", "a:christian:a@x.org"); code != 1 {
		t.Errorf("a game of an unknown scenario: exit %d", code)
	}
	if code, _, e := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-no-orders", "referee",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com"); code != 1 || !strings.Contains(e, "needs a referee") {
		t.Errorf("a referee's policy without a referee: exit %d %s", code, e)
	}
	if code, out, e := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-no-orders", "referee", "-referee", "ref@example.net",
		"-deadline-hours", "48", "-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com"); code != 0 {
		t.Errorf("a game with its own deadline policy: exit %d %s%s", code, out, e)
	} else if _, show, _ := navarch("game", "show", "-config", cfg, strings.TrimSuffix(strings.Fields(out)[2], ";")); !strings.Contains(show, "deadlines 48h, reminder 12h before, without orders: referee") {
		t.Errorf("the policy is not the game's:\n%s", show)
	}
	// A quick game in minutes without reminders; refusals repeat what was typed.
	if code, out, e := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-deadline", "90m", "-reminder", "off",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com"); code != 0 {
		t.Errorf("a quick game: exit %d %s%s", code, out, e)
	} else if _, show, _ := navarch("game", "show", "-config", cfg, strings.TrimSuffix(strings.Fields(out)[2], ";")); !strings.Contains(show, "deadlines 90m, no reminder, without orders: default") {
		t.Errorf("the quick game's policy:\n%s", show)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-deadline", "90x"}, `-deadline: want hours (48) or a duration in minutes or hours (90m, 1h30m), not "90x"`},
		{[]string{"-reminder", "soon"}, `-reminder: want hours (48) or a duration in minutes or hours (90m, 1h30m), or off, not "soon"`},
		{[]string{"-deadline-hours", "1"}, "reminder: 12h before the deadline (the installation's reminder_hours) must be less than the deadline, 1h (as given)"},
		{[]string{"-deadline", "30m", "-reminder", "45m"}, "reminder: 45m before the deadline (as given) must be less than the deadline, 30m (as given)"},
	} {
		args := append([]string{"game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com"}, c.args...)
		if code, _, e := navarch(args...); code != 1 || !strings.Contains(e, c.want) {
			t.Errorf("game new %v: exit %d %s, want 1 and %q", c.args, code, e, c.want)
		}
	}
	if code, _, _ := navarch("game", "show", "-config", cfg, "xyz-0000"); code != 1 {
		t.Errorf("an unknown game shown: exit %d", code)
	}
	operate := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"pause", tag, "48"}, 0, "by itself after 48 hours"},
		{[]string{"pause", tag}, 1, "paused already"},
		{[]string{"resume", tag}, 0, "resumes"},
		{[]string{"extend", tag, "24"}, 1, "no deadline is running"}, // the players have not joined
		{[]string{"proceed", tag}, 1, "no step waits for orders"},
		{[]string{"replace", tag, "bob", "carol@example.net"}, 0, "instead of bob@example.com"},
		{[]string{"replace", tag, "bob", "alice@example.org"}, 1, "already takes part"},
		{[]string{"end", tag, "a draw"}, 0, "over"},
		{[]string{"pause", tag}, 1, "is over"},
		{[]string{"resume", "xyz-0000"}, 1, "xyz-0000"},
	}
	for _, o := range operate {
		code, out, e := navarch(append([]string{"game", o.args[0], "-config", cfg}, o.args[1:]...)...)
		if code != o.code || !strings.Contains(out+e, o.want) {
			t.Errorf("game %v: exit %d, want %d and %q:\n%s%s", o.args, code, o.code, o.want, out, e)
		}
	}
	if _, out, _ := navarch("game", "export", "-config", cfg, tag); !strings.Contains(out, "ended by the operator: a draw") ||
		!strings.Contains(out, "by itself after 48 hours") {
		t.Errorf("the operator's commands are not in the log:\n%s", out)
	}
}

func TestRules(t *testing.T) {
	if code, out, e := navarch("rules"); code != 0 || !strings.Contains(out, "scenario lions-at-sea") || !strings.Contains(out, "option   wind") {
		t.Errorf("rules: exit %d\n%s%s", code, out, e)
	}
	if code, out, _ := navarch("rules", "-orders", "lepanto1571"); code != 0 || !strings.Contains(out, "UNIT DISENGAGE") {
		t.Errorf("rules -orders: exit %d, no order language:\n%s", code, out)
	}
	if code, out, e := navarch("rules", "medieval"); code != 0 || !strings.Contains(out, "scenario sluys-1340") || !strings.Contains(out, "scenario winchelsea-1350") {
		t.Errorf("rules medieval: exit %d\n%s%s", code, out, e)
	}
	if code, out, _ := navarch("rules", "-orders", "medieval"); code != 0 || !strings.Contains(out, "LION TURN P30 MOVE 1.5 TURN P30 MOVE 1.5") {
		t.Errorf("rules -orders medieval: exit %d, no order language:\n%s", code, out)
	}
	if code, _, e := navarch("rules", "nosuch"); code != 1 || !strings.Contains(e, `no ruleset "nosuch"`) {
		t.Errorf("an unknown ruleset: exit %d %s", code, e)
	}
}

func TestHealth(t *testing.T) {
	_, cfg, db := testConfig(t)
	if code, out, _ := navarch("health", "-config", cfg); code != 1 || !strings.Contains(out, "no heartbeat") {
		t.Errorf("no daemon ever ran: exit %d %s", code, out)
	}
	well := func() host.Health { return host.Health{} }
	heartbeat(db, slog.New(slog.DiscardHandler), well)(0)
	if code, out, _ := navarch("health", "-config", cfg); code != 0 || !strings.HasPrefix(out, "alive") || strings.Contains(out, "parked") {
		t.Errorf("a fresh heartbeat: exit %d %s", code, out)
	}
	heartbeat(db, slog.New(slog.DiscardHandler), well)(2)
	if code, out, _ := navarch("health", "-config", cfg); code != 0 || !strings.Contains(out, "; 2 mails parked after our own failures") {
		t.Errorf("a heartbeat with parked mail: exit %d %s", code, out)
	}
	// Without metrics, the heartbeat file carries each failing connection: a login refused
	// for 20 minutes fails health (past the default 10 minutes), naming the settings; a
	// connection failing for 2 minutes is a warning.
	failing := func() host.Health {
		return host.Health{
			Intake: navmail.HealthStatus{FailingSince: time.Now().Add(-20 * time.Minute), Kind: navmail.KindAuth, Err: "imap login as navarch: login refused:\nNO [AUTHENTICATIONFAILED]"},
			Send:   navmail.HealthStatus{FailingSince: time.Now().Add(-2 * time.Minute), Kind: navmail.KindConnection, Err: "dial tcp: connection refused"}}
	}
	heartbeat(db, slog.New(slog.DiscardHandler), failing)(0)
	code, out, _ := navarch("health", "-config", cfg)
	for _, want := range []string{"not healthy: the mailbox (IMAP) has failed for 20m", "(auth: imap login as navarch: login refused: NO [AUTHENTICATIONFAILED])",
		"check imap.username and imap.password", "but the sending (SMTP) has failed for 2m", "(connection: dial tcp: connection refused)"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("a login refused for 20 minutes: exit %d, no %q:\n%s", code, want, out)
		}
	}
	if code, out, _ := navarch("health", "-config", cfg, "-failing", "30m"); code != 0 || !strings.Contains(out, "alive") || !strings.Contains(out, "the mailbox (IMAP) has failed for 20m") {
		t.Errorf("the same within -failing 30m: exit %d, want 0 with a warning:\n%s", code, out)
	}
	heartbeat(db, slog.New(slog.DiscardHandler), well)(0)
	old := time.Now().Add(-10 * time.Minute)
	os.Chtimes(db+".alive", old, old)
	if code, out, _ := navarch("health", "-config", cfg); code != 1 || !strings.Contains(out, "10m0s old") {
		t.Errorf("a stale heartbeat: exit %d %s", code, out)
	}
}

func TestPrintDie(t *testing.T) {
	var few, enough bytes.Buffer
	printDie(&few, gamelog.DieStats{Sides: 6, Total: 3, Counts: []int{1, 1, 1, 0, 0, 0}})
	printDie(&enough, gamelog.DieStats{Sides: 6, Total: 30, Counts: []int{5, 5, 5, 5, 5, 5}})
	if !strings.Contains(few.String(), "too few rolls for a chi² test: it wants 30") || strings.Contains(few.String(), "chi²=") {
		t.Errorf("3 rolls of a d6: %q", few.String())
	}
	if !strings.Contains(enough.String(), "chi²=0.00 (5 dof") {
		t.Errorf("30 even rolls of a d6: %q", enough.String())
	}
}

// TestWebverifyCommand: navarch webverify writes the browser verifier, byte for byte the
// embedded page.
func TestWebverifyCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "verify.html")
	if code, out, errs := navarch("webverify", "-o", file); code != 0 || !strings.Contains(out, "wrote") {
		t.Fatalf("webverify: exit %d %s%s", code, out, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(data, webverify.Page) || !bytes.Contains(data, []byte("<html")) {
		t.Errorf("the written page is not the embedded one (%v)", err)
	}
}
