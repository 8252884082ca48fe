package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"navarch/store"
)

// daemonFixture is a configuration and a database held open by a "daemon" that answers on
// the control socket, as navarch serve does.
func daemonFixture(t *testing.T) (dir, cfg, db string, s *store.Store) {
	t.Helper()
	dir, cfg, db = testConfig(t)
	s, err := store.Open(db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); s.Close() })
	if err := serveControl(ctx, db+".sock", &daemonStore{path: db, s: s}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	return dir, cfg, db, s
}

func TestControlSocket(t *testing.T) {
	dir, cfg, db, s := daemonFixture(t)
	if st, err := os.Stat(db + ".sock"); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("control socket: %v, %v; want mode 0600", st, err)
	}
	// Relative file names are the caller's, not the daemon's (whose directory is elsewhere).
	req, _ := json.Marshal(request{Args: []string{"check", "-db", "navarch.db"}, Dir: dir})
	if r := ask(t, db+".sock", string(req)+"\n"); r.Code != 0 || !strings.Contains(r.Stdout, "OK: navarch.db, 0 games") {
		t.Errorf("check of a relative path: %+v", r)
	}
	t.Chdir(dir)
	tables := filepath.Join(dir, "none.txt") // a relative file name the daemon must find
	code, _, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-tables", "none.txt",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 1 || !strings.Contains(errs, tables) {
		t.Errorf("game new with a missing relative table file: exit %d, %q; want the file named in the caller's directory", code, errs)
	}
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 0 || !strings.Contains(out, "created game lep-") {
		t.Fatalf("game new while the daemon runs: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	var games, queued int
	s.View(func(tx *store.Tx) error { games, queued = len(store.Games(tx)), len(store.Outbox(tx)); return nil })
	if games != 1 || queued != 2 {
		t.Errorf("the daemon's store has %d games and %d queued mails, want the new game and its 2 welcomes", games, queued)
	}
	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"game", "list", "-config", "navarch.json"}, 0, " lions-at-sea joining"},
		{[]string{"game", "pause", "-config", "navarch.json", tag, "12"}, 0, "by itself after 12 hours"},
		{[]string{"game", "show", "-config", cfg, "xyz-0000"}, 1, "xyz-0000"},
		{[]string{"parked", "-config", "navarch.json"}, 0, "no parked mail"},
		{[]string{"check", "-db", "navarch.db"}, 0, "OK: navarch.db, 1 games"},
		{[]string{"game", "-h"}, 0, "usage: navarch game new"},
	}
	for _, st := range steps {
		code, out, e := navarch(st.args...)
		if code != st.code || !strings.Contains(out+e, st.want) {
			t.Errorf("%v: exit %d, want %d and %q:\n%s%s", st.args, code, st.code, st.want, out, e)
		}
	}
}

// ask sends one raw request to the control socket and returns the answer.
func ask(t *testing.T, sock, raw string) response {
	t.Helper()
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte(raw))
	var r response
	if err := json.NewDecoder(conn).Decode(&r); err != nil {
		t.Fatalf("no answer to %q: %v", raw, err)
	}
	return r
}

func TestControlRefusals(t *testing.T) {
	dir, _, db, _ := daemonFixture(t)
	other := filepath.Join(dir, "other.db")
	os.WriteFile(other, nil, 0o600)
	cases := []struct{ raw, want string }{
		{`{"args": ["serve", "-config", "x"], "dir": "/"}` + "\n", "runs only game, parked, dropped, check"},
		{`{"args": [], "dir": "/"}` + "\n", "runs only"},
		{`{"args": ["check"], "dir": "relative"}` + "\n", "not absolute"},
		{`{"args": ["check"` + "\n", "request"},
		{`{"args": ["check", "-db", "` + other + `"], "dir": "/"}` + "\n", "this daemon serves " + db},
	}
	for _, c := range cases {
		if r := ask(t, db+".sock", c.raw); r.Code == 0 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%q: %+v, want a refusal with %q", c.raw, r, c.want)
		}
	}
}

// A socket left by a daemon that died does not stop the commands: they open the database.
func TestStaleControlSocket(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "navarch.db")
	s, err := store.Open(db, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ln, err := net.Listen("unix", db+".sock")
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(db + ".sock"); err != nil {
		t.Fatalf("no stale socket to test with: %v", err)
	}
	if code, out, e := navarch("check", "-db", db); code != 0 || !strings.Contains(out, "OK") {
		t.Errorf("check beside a stale socket: exit %d %s%s", code, out, e)
	}
}

func FuzzReadRequest(f *testing.F) {
	f.Add([]byte(`{"args": ["game", "list", "-config", "/etc/navarch.json"], "dir": "/root"}` + "\n"))
	f.Add([]byte(`{"args": ["serve"], "dir": "/"}` + "\n"))
	f.Add([]byte("\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := readRequest(bytes.NewReader(data))
		if err == nil && (len(req.Args) == 0 || (req.Args[0] != "game" && req.Args[0] != "parked" && req.Args[0] != "check") || !filepath.IsAbs(req.Dir)) {
			t.Fatalf("accepted %+v", req)
		}
	})
}
