package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testCA is a private certificate authority made for a test, and a server certificate it
// signed for 127.0.0.1 (and no name).
type testCA struct {
	pemFile string // the CA's certificate, PEM, for ca_file
	server  *tls.Config
}

func newTestCA(t *testing.T, expired ...bool) testCA {
	t.Helper()
	notAfter := time.Now().Add(24 * time.Hour)
	if len(expired) > 0 && expired[0] {
		notAfter = time.Now().Add(-time.Minute)
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "navarch test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: notAfter,
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	return testCA{pemFile: path, server: &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}}
}

// tlsConfig sets the test servers' configuration to IMAP over TLS and SMTP with STARTTLS,
// at host, with the CA file (none if "").
func tlsConfig(host, caFile string) func(string) string {
	return func(c string) string {
		ca := ""
		if caFile != "" {
			ca = fmt.Sprintf(`, "ca_file": %q`, caFile)
		}
		c = strings.Replace(c, `"imap": {"host": "127.0.0.1"`, `"imap": {"host": "`+host+`"`, 1)
		c = strings.Replace(c, `"smtp": {"host": "127.0.0.1"`, `"smtp": {"host": "`+host+`"`, 1)
		c = strings.Replace(c, `"tls": "none", "username"`, `"tls": "tls"`+ca+`, "username"`, 1)
		return strings.Replace(c, `"tls": "none"}}`, `"tls": "starttls"`+ca+`}}`, 1)
	}
}

// TestPrivateCA: with ca_file naming a private CA, the daemon reads its mailbox over TLS and
// sends by STARTTLS, verifying both servers' certificates by it: a stranger's mail is
// answered, and the check at start passes. Without the CA file, the check names ca_file; with
// the name the certificate is not for, or a certificate that has expired, it names the host;
// a CA file that holds no certificate is refused; the daemon itself, started without the CA
// file, retries and health says why.
func TestPrivateCA(t *testing.T) {
	ca := newTestCA(t)
	ts := startTestServers(t, ca.server)
	check := func(edit func(string) string) error {
		t.Helper()
		path := filepath.Join(t.TempDir(), "navarch.json")
		text := fmt.Sprintf(`{"database": %q, "address": "navarch@host.example", "domain": "navarch.host.example",
 "imap": {"host": "127.0.0.1", "port": %d, "tls": "none", "username": "navarch@host.example", "password": %q},
 "smtp": {"host": "127.0.0.1", "port": %d, "tls": "none"}}`, filepath.Join(t.TempDir(), "navarch.db"), ts.imapPort, testPassword, ts.smtpPort)
		os.WriteFile(path, []byte(edit(text)), 0o600)
		c, err := loadConfig(path)
		if err == nil {
			err = c.credentials()
		}
		if err != nil {
			return err
		}
		return checkServers(context.Background(), c, slog.New(slog.DiscardHandler))
	}
	if err := check(tlsConfig("127.0.0.1", ca.pemFile)); err != nil {
		t.Errorf("the check at start with the private CA: %v", err)
	}
	// A CA file that is no certificate is refused with the configuration.
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate\n"), 0o644)
	if err := check(tlsConfig("127.0.0.1", notPEM)); err == nil || !strings.Contains(err.Error(), "config: imap.ca_file: "+notPEM+" holds no PEM certificate") {
		t.Errorf("a CA file without a certificate: %v", err)
	}
	err := check(tlsConfig("127.0.0.1", ""))
	if err == nil || !strings.Contains(err.Error(), "config: imap.ca_file: the certificate of 127.0.0.1 is signed by an authority the system does not trust") {
		t.Errorf("the check at start without the CA file: %v, want imap.ca_file named", err)
	}
	err = check(func(c string) string {
		c = tlsConfig("127.0.0.1", ca.pemFile)(c)
		return strings.Replace(c, `"tls": "tls", "ca_file"`, `"tls": "tls", "ca_flie"`, 1)
	})
	if err == nil || !strings.Contains(err.Error(), `unknown field "ca_flie"`) {
		t.Errorf("a mistyped ca_file: %v, want the configuration refused", err)
	}
	err = check(tlsConfig("localhost", ca.pemFile))
	if err == nil || !strings.Contains(err.Error(), "config: imap.host: the server's certificate is not for localhost") {
		t.Errorf("the check at start by another name: %v, want imap.host named", err)
	}
	// SMTP's own: the IMAP server by its right settings, SMTP without the CA file.
	err = check(func(c string) string {
		c = tlsConfig("127.0.0.1", ca.pemFile)(c)
		return strings.Replace(c, `"tls": "starttls", "ca_file": "`+ca.pemFile+`"`, `"tls": "starttls"`, 1)
	})
	if err == nil || !strings.Contains(err.Error(), "config: smtp.ca_file: the certificate of 127.0.0.1 is signed by an authority the system does not trust") {
		t.Errorf("the check at start, SMTP without the CA file: %v, want smtp.ca_file named", err)
	}

	// A server whose certificate has expired: the host's certificate is named, not the CA file.
	old := newTestCA(t, true)
	expired := startTestServers(t, old.server)
	path := filepath.Join(t.TempDir(), "navarch.json")
	os.WriteFile(path, []byte(tlsConfig("127.0.0.1", old.pemFile)(fmt.Sprintf(`{"database": %q, "address": "navarch@host.example", "domain": "navarch.host.example",
 "imap": {"host": "127.0.0.1", "port": %d, "tls": "none", "username": "navarch@host.example", "password": %q},
 "smtp": {"host": "127.0.0.1", "port": %d, "tls": "none"}}`, filepath.Join(t.TempDir(), "navarch.db"), expired.imapPort, testPassword, expired.smtpPort))), 0o600)
	if code, _, e := navarch("serve", "-config", path); code != 2 || !strings.Contains(e, "config: imap.host: the certificate of 127.0.0.1 has expired or is not yet valid") {
		t.Errorf("navarch serve with an expired certificate: exit %d, want 2 naming imap.host:\n%s", code, e)
	}

	_, _, addr, _ := daemon(t, ts, tlsConfig("127.0.0.1", ca.pemFile))
	ts.mail(t, "stranger@example.com", "hello", "is this the wargame club?")
	waitFor(t, 20*time.Second, "the stranger answered over STARTTLS", func() bool { return len(ts.taken()) == 1 })
	text := get(t, "http://"+addr+"/metrics")
	for _, want := range []string{"navarch_intake_failing_seconds 0\n", "navarch_send_failing_seconds 0\n", "navarch_intake_last_success_age_seconds "} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the metrics with the private CA", want)
		}
	}

	cfg, _, _, _ := daemon(t, ts, tlsConfig("127.0.0.1", ""))
	var out string
	waitFor(t, 20*time.Second, "health failing for the certificate", func() bool {
		var code int
		code, out, _ = navarch("health", "-config", cfg, "-failing", "1ms")
		return code == 1 && strings.Contains(out, "the mailbox (IMAP) has failed")
	}, func() string { return out })
	for _, want := range []string{"(tls: ", "certificate signed by unknown authority", "check imap.host, imap.tls and imap.ca_file"} {
		if !strings.Contains(out, want) {
			t.Errorf("health without the CA file: no %q:\n%s", want, out)
		}
	}
}
