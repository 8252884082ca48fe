package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// servers are the mail servers mailservers.sh started, as its DIR/servers.env names them.
type servers struct {
	dir                                       string
	imapPort, imapsPort, smtpPort, submitPort int
	caFile, authservID                        string
	usersIMAP, usersSMTP                      string // the passwords each service takes
}

// srv is read by TestMain when NAVARCH_E2E=1; imapAddr and smtpAddr are its clear-text ports
// (IMAP, and the receiving SMTP port that takes mail from loopback without a login).
var (
	srv                servers
	imapAddr, smtpAddr string
)

func TestMain(m *testing.M) {
	if os.Getenv("NAVARCH_E2E") == "1" {
		var err error
		if srv, err = readServers(os.Getenv("NAVARCH_E2E_SERVERS")); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
			os.Exit(1)
		}
		imapAddr = "127.0.0.1:" + strconv.Itoa(srv.imapPort)
		smtpAddr = "127.0.0.1:" + strconv.Itoa(srv.smtpPort)
	}
	os.Exit(m.Run())
}

// readServers reads DIR/servers.env, the NAME=VALUE lines mailservers.sh writes.
func readServers(dir string) (servers, error) {
	if dir == "" {
		return servers{}, fmt.Errorf("NAVARCH_E2E_SERVERS is not set: start the servers with test/e2e/mailservers.sh start DIR and set it to DIR (make e2e does both)")
	}
	f, err := os.Open(filepath.Join(dir, "servers.env"))
	if err != nil {
		return servers{}, fmt.Errorf("the mail servers' ports: %w", err)
	}
	defer f.Close()
	v := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, value, ok := strings.Cut(sc.Text(), "="); ok {
			v[name] = value
		}
	}
	if err := sc.Err(); err != nil {
		return servers{}, err
	}
	s := servers{dir: dir, caFile: v["CA_FILE"], authservID: v["AUTHSERV_ID"], usersIMAP: v["USERS_IMAP"], usersSMTP: v["USERS_SMTP"]}
	for name, p := range map[string]*int{"IMAP_PORT": &s.imapPort, "IMAPS_PORT": &s.imapsPort, "SMTP_PORT": &s.smtpPort, "SUBMISSION_PORT": &s.submitPort} {
		if *p, err = strconv.Atoi(v[name]); err != nil {
			return servers{}, fmt.Errorf("%s/servers.env: %s: %w", dir, name, err)
		}
	}
	return s, nil
}
