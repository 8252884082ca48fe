package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/emersion/go-imap/v2/imapclient"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// TestE2EOperator runs the navarch binary as an operator does (navarch serve with a
// configuration file, navarch game new and navarch health beside it) against the servers of
// mailservers.sh, with TLS by the test CA on both sides and DKIM required as
// docs/deploy/README.md ("DKIM") sets it up: OpenDKIM signing on submission, verifying on the
// receiving port with the authserv-id of require_dkim_authserv_id, Postfix dropping forged
// Authentication-Results fields. It shows, in order:
//   - without imap.ca_file (then smtp.ca_file) the daemon refuses to start, naming the field;
//   - with both, it starts, health passes, and the welcomes arrive through submission;
//   - a player's mail with his key but unsigned is refused and he is told his key is known
//     to someone else; one carrying a forged Authentication-Results field arrives without it
//     and is refused as unsigned; signed ones (by submission) are applied;
//   - the refusals counted in navarch_mails_rejected_total by reason, scraped;
//   - health fails, naming the mailbox and the login, while the IMAP password is refused,
//     and the sending and the login while the SMTP server refuses navarch's; both recover,
//     and the mail queued meanwhile goes out.
func TestE2EOperator(t *testing.T) {
	if os.Getenv("NAVARCH_E2E") != "1" {
		t.Skip("set NAVARCH_E2E=1 with the servers of test/e2e/mailservers.sh running")
	}
	bin := buildNavarch(t)
	// navarch is ops@test.example here: a mailbox of its own, which TestE2E's mail never
	// reaches.
	dir := t.TempDir()
	metrics := freeAddr(t)
	conf := filepath.Join(dir, "navarch.json")
	server := func(port int, tls string) map[string]any {
		return map[string]any{"host": "127.0.0.1", "port": port, "tls": tls, "username": "ops@test.example",
			"password": "ops-secret", "ca_file": srv.caFile}
	}
	cfg := map[string]any{"database": filepath.Join(dir, "navarch.db"), "address": "ops@test.example", "domain": "test.example",
		"require_dkim_authserv_id": srv.authservID, "metrics_listen": metrics,
		"imap": server(srv.imapsPort, "tls"), "smtp": server(srv.submitPort, "starttls")}
	cfg["imap"].(map[string]any)["poll_seconds"] = 1

	// Without a CA file the server's certificate is refused at start, and the error names
	// the field to set.
	for _, name := range []string{"imap", "smtp"} {
		delete(cfg[name].(map[string]any), "ca_file")
		writeJSON(t, conf, cfg)
		out, code := navarch(t, bin, 2*time.Minute, "serve", "-config", conf)
		if want := "config: " + name + ".ca_file: the certificate of 127.0.0.1 is signed by an authority the system does not trust"; code != 2 || !strings.Contains(out, want) {
			t.Fatalf("serve without %s.ca_file: exit %d, want 2 and %q:\n%s", name, code, want, out)
		}
		t.Logf("navarch serve without %s.ca_file, exit %d: %s", name, code, strings.TrimSpace(out))
		cfg[name].(map[string]any)["ca_file"] = srv.caFile
	}
	writeJSON(t, conf, cfg)
	stopDaemon := startDaemon(t, bin, conf)
	defer stopDaemon()
	waitHealth(t, bin, conf, 0, "alive")

	out, code := navarch(t, bin, time.Minute, "game", "new", "-config", conf, "-ruleset", "lepanto1571", "-scenario", "lions-at-sea",
		"-player", "alice:christian:alice@test.example:Europe/Rome", "-player", "bob:ottoman:bob@test.example:America/New_York")
	m := regexp.MustCompile(`created game (\S+);`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("game new: exit %d:\n%s", code, out)
	}
	tag := m[1]
	alice := &mailbox{t: t, user: "alice@test.example", tag: tag, seen: map[imap.UID]bool{}}
	bob := &mailbox{t: t, user: "bob@test.example", tag: tag, seen: map[imap.UID]bool{}}
	welcome := alice.waitFor("] welcome")
	if !strings.Contains(string(welcome.raw), "DKIM-Signature:") {
		t.Errorf("navarch's welcome, sent by submission, is not signed:\n%s", welcome.raw)
	}
	aliceKey := keyRE.FindStringSubmatch(welcome.Text)[1]
	bobKey := keyRE.FindStringSubmatch(bob.waitFor("] welcome").Text)[1]
	subject := "Re: [navarch " + tag + "]"

	// Unsigned with the key: refused, and alice told that her key is known.
	send(t, "alice@test.example", "ops", subject, "KEY "+aliceKey+"\nJOIN")
	alice.waitText("Your key is known to someone else")
	// A forged verdict, without the key: Postfix drops the field, and the mail is refused as
	// unsigned.
	forgedID := fmt.Sprintf("<forged%d@test.example>", time.Now().UnixNano())
	sendRaw(t, "alice@test.example", "ops@test.example", "Authentication-Results: "+srv.authservID+"; dkim=pass header.d=test.example\r\n"+
		"From: alice@test.example\r\nTo: ops@test.example\r\nSubject: "+subject+"\r\nMessage-ID: "+forgedID+"\r\n\r\nJOIN\r\n")
	alice.waitText("this game requires mail signed (DKIM) by your mail domain")
	opsBox := &mailbox{t: t, user: "ops@test.example", seen: map[imap.UID]bool{}}
	found := false
	for _, in := range opsBox.fetch() {
		found = found || in.MessageID == strings.Trim(forgedID, "<>")
		if in.MessageID == strings.Trim(forgedID, "<>") && strings.Contains(string(in.raw), "Authentication-Results: "+srv.authservID) {
			t.Errorf("the forged Authentication-Results field reached navarch's mailbox:\n%s", in.raw)
		}
	}
	if !found {
		t.Errorf("the mail with the forged field is not in navarch's mailbox")
	}
	// Signed by submission: applied.
	submit(t, "alice@test.example", "KEY "+aliceKey+"\nJOIN", subject)
	submit(t, "bob@test.example", "KEY "+bobKey+"\nJOIN", subject)
	alice.waitFor("your move")
	bob.waitFor("your move")
	v := scrape(t, metrics)
	for _, reason := range []string{"dkim", "forged"} {
		if n := v[`navarch_mails_rejected_total{reason="`+reason+`"}`]; n < 1 {
			t.Errorf("navarch_mails_rejected_total{reason=%q} = %v, want 1 or more", reason, n)
		}
	}

	// The IMAP password refused while the daemon runs.
	// Dovecot ends navarch's session (as a server does when the password changes), and
	// the next login is refused.
	restore := breakPassword(t, srv.usersIMAP)
	refusedNow(t, "ops@test.example", "ops-secret")
	if out, err := exec.Command("doveadm", "-c", filepath.Join(srv.dir, "dovecot.conf"), "kick", "ops@test.example").CombinedOutput(); err != nil {
		t.Fatalf("doveadm kick: %v\n%s", err, out)
	}
	// (first, for a moment, the session's end: a connection failure)
	waitHealth(t, bin, conf, 1, "the mailbox (IMAP) has failed", "(auth: ", "AUTHENTICATIONFAILED", "check imap.username and imap.password")
	restore()
	waitHealth(t, bin, conf, 0, "alive")

	// The SMTP login refused while the daemon has mail to send: bob's orders (the set-up
	// of the hidden deployment, rule 3) need a receipt.
	restore = breakPassword(t, srv.usersSMTP)
	submit(t, "bob@test.example", "KEY "+bobKey+"\nNONE", subject)
	waitHealth(t, bin, conf, 1, "the sending (SMTP) has failed", "(auth: ", "535", "check smtp.username and smtp.password")
	restore()
	bob.waitFor(" orders accepted") // queued while refused, sent once mended
	waitHealth(t, bin, conf, 0, "alive")
}

// buildNavarch builds the navarch command into a temporary directory.
func buildNavarch(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "navarch")
	if out, err := exec.Command("go", "build", "-o", bin, "navarch/cmd/navarch").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// navarch runs the command with args and returns its output (stdout and stderr) and exit code.
func navarch(t *testing.T, bin string, timeout time.Duration, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case ctx.Err() != nil:
		t.Fatalf("navarch %s: no answer within %v:\n%s", strings.Join(args, " "), timeout, out)
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	default:
		t.Fatalf("navarch %s: %v", strings.Join(args, " "), err)
	}
	return "", 0
}

// startDaemon runs navarch serve; the returned function stops it (SIGTERM) and, if the test
// failed, prints its log.
func startDaemon(t *testing.T, bin, conf string) func() {
	t.Helper()
	var log bytes.Buffer
	cmd := exec.Command(bin, "serve", "-config", conf)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := false
	return func() {
		if done {
			return
		}
		done = true
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		if t.Failed() || err != nil {
			t.Logf("navarch serve (%v):\n%s", err, log.String())
		}
	}
}

// waitHealth runs navarch health (-failing 1s: any failure that lasts counts) until it exits
// with code and prints each of want, within two minutes.
func waitHealth(t *testing.T, bin, conf string, code int, want ...string) {
	t.Helper()
	var out string
	var got int
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		out, got = navarch(t, bin, time.Minute, "health", "-config", conf, "-failing", "1s")
		if got == code && !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(out, w) }) {
			t.Logf("navarch health, exit %d: %s", got, out)
			return
		}
	}
	t.Fatalf("navarch health: exit %d, want %d and %q:\n%s", got, code, want, out)
}

// refusedNow waits until Dovecot refuses user's old password (it rereads its passwords file
// when it notices the change), so that the daemon's next login after the kick is refused and
// not taken with the old password.
func refusedNow(t *testing.T, user, old string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		c, err := imapclient.DialInsecure(imapAddr, nil)
		if err != nil {
			continue
		}
		err = c.Login(user, old).Wait()
		c.Close()
		if err != nil {
			return
		}
	}
	t.Fatalf("Dovecot still takes %s's old password", user)
}

// breakPassword makes the service whose passwords file is path refuse navarch's (ops@)
// password
// (Dovecot reads the file again when it changes); restore puts it back.
func breakPassword(t *testing.T, path string) (restore func()) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(old), "ops@test.example:{PLAIN}ops-secret:", "ops@test.example:{PLAIN}changed-by-the-test:", 1)
	if broken == string(old) {
		t.Fatalf("%s has no line for ops@test.example", path)
	}
	write := func(text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(broken)
	restored := false
	t.Cleanup(func() {
		if !restored {
			write(string(old))
		}
	})
	return func() { restored = true; write(string(old)) }
}

// submit sends a player's mail as his client does: by submission, STARTTLS (the test CA),
// his login; the provider signs it.
func submit(t *testing.T, from, body, subject string) {
	t.Helper()
	pem, err := os.ReadFile(srv.caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	c, err := smtp.Dial(net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.submitPort)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.StartTLS(&tls.Config{ServerName: "127.0.0.1", RootCAs: roots}); err != nil {
		t.Fatal(err)
	}
	if err := c.Auth(smtp.PlainAuth("", from, strings.Split(from, "@")[0]+"-secret", "127.0.0.1")); err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("From: %s\r\nTo: ops@test.example\r\nSubject: %s\r\nMessage-ID: <%d@test.example>\r\n\r\n%s\r\n",
		from, subject, time.Now().UnixNano(), strings.ReplaceAll(body, "\n", "\r\n"))
	if err := c.Mail(from); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("ops@test.example"); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(); err != nil {
		t.Fatal(err)
	}
}

// sendRaw sends msg as it is to the receiving port, as another server would.
func sendRaw(t *testing.T, from, to, msg string) {
	t.Helper()
	if err := smtp.SendMail(smtpAddr, nil, from, []string{to}, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// waitText is waitFor by the text of the mail (its words, however the mail wraps them).
func (m *mailbox) waitText(s string) received {
	m.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		m.take("\x01") // reads new mail into kept
		for i, in := range m.kept {
			if strings.Contains(strings.Join(strings.Fields(in.Text), " "), s) {
				m.kept = append(m.kept[:i], m.kept[i+1:]...)
				return in
			}
		}
	}
	m.t.Fatalf("%s: no mail saying %q within a minute", m.user, s)
	return received{}
}

// freeAddr is a loopback address free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// scrape reads the daemon's metrics: each sample's name with its labels, and its value.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	v := map[string]float64{}
	for _, line := range strings.Split(buf.String(), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if f, err := strconv.ParseFloat(value, 64); ok && err == nil && !strings.HasPrefix(line, "#") {
			v[name] = f
		}
	}
	return v
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
