package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"navarch/host"
	"navarch/store"
)

// The control socket lets the database commands (game, parked, dropped, check, render, backup) run while the daemon
// holds the database: a command that finds the file locked sends its command line to the
// daemon's socket, DATABASE.sock, and the daemon runs it on its open store and sends back
// what it printed and its exit status. The socket is a file of mode 0600: whoever may
// connect may already write the database.

// controlled are the commands the daemon runs for the command line.
var controlled = []string{"game", "parked", "dropped", "check", "render", "backup"}

// maxRequest bounds a request on the socket (a command line, with its working directory).
const maxRequest = 1 << 20

// request is a command line sent to the daemon.
type request struct {
	Args []string `json:"args"` // the command and its arguments, as typed
	Dir  string   `json:"dir"`  // the caller's working directory, for relative paths
}

// response is what the command printed and its exit status.
type response struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// cli is where a database command runs: on the command line, or inside the daemon for a
// command line sent to its socket.
type cli struct {
	stdout, stderr io.Writer
	args           []string // the whole command line, to forward
	dir            string   // the caller's working directory; "" for this process's
	daemon         *daemonStore
}

// daemonStore is the daemon's open database, lent to the commands it runs.
type daemonStore struct {
	path string
	s    *store.Store
	wake chan struct{} // the outbox's wake-up call (host.Config.Wake), or nil
}

// wakeOutbox has the daemon send at once what a command queued.
func (ds *daemonStore) wakeOutbox() {
	if ds.wake == nil {
		return
	}
	select {
	case ds.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// path resolves a file name given by the caller.
func (c *cli) path(p string) string {
	if c.dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, p)
}

// forwarded is returned by open when the daemon ran the command: Code is its exit status.
type forwarded struct{ Code int }

func (f *forwarded) Error() string { return fmt.Sprintf("run by the daemon (exit %d)", f.Code) }

// open opens the database, or lends the daemon's. On the command line, when a daemon
// answers on the database's control socket, open forwards the command to it and returns
// *forwarded.
func (c *cli) open(path string, opts store.Options) (*store.Store, func(), error) {
	path = c.path(path)
	if c.daemon != nil {
		a, errA := os.Stat(path)
		b, errB := os.Stat(c.daemon.path)
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			return nil, nil, fmt.Errorf("this daemon serves %s, not %s", c.daemon.path, path)
		}
		return c.daemon.s, func() {}, nil
	}
	if conn, err := net.DialTimeout("unix", path+".sock", 5*time.Second); err == nil {
		code, err := c.forward(conn)
		if err != nil {
			return nil, nil, fmt.Errorf("the daemon of %s did not answer: %w", path, err)
		}
		return nil, nil, &forwarded{Code: code}
	}
	s, err := store.Open(path, slog.New(slog.NewTextHandler(c.stderr, nil)), opts)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { s.Close() }, nil
}

// openOr runs open and, when it did not give a store, says why and returns the exit status.
func (c *cli) openOr(name, path string, opts store.Options) (*store.Store, func(), int, bool) {
	s, done, err := c.open(path, opts)
	var f *forwarded
	if errors.As(err, &f) {
		return nil, nil, f.Code, false
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "navarch %s: %v\n", name, err)
		return nil, nil, 1, false
	}
	return s, done, 0, true
}

// dbFlags adds -config and -db to a database command's flags; the function it returns, called
// after parsing, gives the database file: the configuration's when -config is given, else -db.
func (c *cli) dbFlags(fs *flag.FlagSet) func() (string, error) {
	config := fs.String("config", "", "the configuration file, whose database to use")
	db := fs.String("db", "navarch.db", "the database file (without -config)")
	return func() (string, error) {
		if *config == "" {
			return *db, nil
		}
		cfg, err := loadConfig(c.path(*config))
		if err != nil {
			return "", err
		}
		return cfg.Database, nil
	}
}

// host loads the configuration and opens its database (or has the daemon run the command)
// for the commands that act through the host; it returns the exit status when it did not.
func (c *cli) host(name, config string) (*host.Host, func(), int, bool) {
	cfg, err := loadConfig(c.path(config))
	if err != nil {
		fmt.Fprintf(c.stderr, "navarch %s: %v\n", name, err)
		return nil, nil, 2, false
	}
	s, done, code, ok := c.openOr(name, cfg.Database, store.Options{})
	if !ok {
		return nil, nil, code, false
	}
	return host.New(s, rulesets, cfg.host(), slog.New(slog.NewTextHandler(c.stderr, nil))), done, 0, true
}

// forward sends the command line to the daemon and prints what it answers.
func (c *cli) forward(conn net.Conn) (int, error) {
	defer conn.Close()
	dir, _ := os.Getwd()
	if err := json.NewEncoder(conn).Encode(request{Args: c.args, Dir: dir}); err != nil {
		return 0, err
	}
	var resp response
	if err := json.NewDecoder(conn).Decode(&resp); err != nil {
		return 0, fmt.Errorf("reading the answer: %w", err)
	}
	io.WriteString(c.stdout, resp.Stdout)
	io.WriteString(c.stderr, resp.Stderr)
	return resp.Code, nil
}

// readRequest reads and checks one request: a controlled command, a bounded size, an
// absolute working directory.
func readRequest(r io.Reader) (request, error) {
	var req request
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxRequest), 4096).ReadBytes('\n')
	if err != nil {
		return req, fmt.Errorf("control: read request: %w", err)
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return req, fmt.Errorf("control: request: %w", err)
	}
	if len(req.Args) == 0 || !slices.Contains(controlled, req.Args[0]) {
		return req, fmt.Errorf("control: the daemon runs only %s", strings.Join(controlled, ", "))
	}
	if !filepath.IsAbs(req.Dir) {
		return req, fmt.Errorf("control: the working directory %q is not absolute", req.Dir)
	}
	return req, nil
}

// serveControl answers the control socket until ctx ends. Each connection is one command,
// run on the daemon's store; a panic in it is answered as a failure and logged.
func serveControl(ctx context.Context, sock string, ds *daemonStore, log *slog.Logger) error {
	os.Remove(sock) // left by a daemon that died: this one holds the database now
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("control socket: %w", err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go func() {
		defer os.Remove(sock)
		for {
			conn, err := ln.Accept()
			if err != nil {
				if ctx.Err() == nil {
					log.Error("control socket", "err", err)
				}
				return
			}
			go answer(conn, ds, log)
		}
	}()
	return nil
}

func answer(conn net.Conn, ds *daemonStore, log *slog.Logger) {
	defer conn.Close()
	var resp response
	defer func() {
		if p := recover(); p != nil {
			log.Error("panic in a control command", "panic", p, "stack", string(debug.Stack()))
			resp = response{Code: 1, Stderr: fmt.Sprintf("navarch: the daemon failed on this command: %v\n", p)}
		}
		json.NewEncoder(conn).Encode(resp)
	}()
	conn.SetDeadline(time.Now().Add(10 * time.Minute))
	req, err := readRequest(conn)
	if err != nil {
		resp = response{Code: 2, Stderr: err.Error() + "\n"}
		return
	}
	log.Info("control command", "args", strings.Join(req.Args, " "))
	var out, errb strings.Builder
	c := &cli{stdout: &out, stderr: &errb, dir: req.Dir, daemon: ds}
	resp.Code = runIn(c, req.Args)
	ds.wakeOutbox()
	resp.Stdout, resp.Stderr = out.String(), errb.String()
}
