package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"navarch/beacon"
	"navarch/host"
	navmail "navarch/mail"
	"navarch/store"
)

// fileConfig is the daemon's configuration file (docs/navarch.example.json). Passwords may
// instead come from the environment: NAVARCH_IMAP_PASSWORD, NAVARCH_SMTP_PASSWORD.
type fileConfig struct {
	Database      string `json:"database"`
	Address       string `json:"address"`
	Domain        string `json:"domain"`
	DeadlineHours int    `json:"deadline_hours"`
	ReminderHours int    `json:"reminder_hours"`
	RateLimit     int    `json:"rate_limit_per_hour"` // mails one sender may send in an hour
	// DKIMAuthServID: require a DKIM pass aligned with the From domain, as reported in the
	// Authentication-Results field of the receiving server with this authserv-id.
	DKIMAuthServID string `json:"require_dkim_authserv_id"`
	// ReplyTokens: mail to players carries a tokenized reply address (navarch+TOKEN@...), so
	// that their replies need no KEY line; the mail server must deliver subaddressed mail.
	ReplyTokens bool `json:"reply_tokens"`
	// GameMasters may create games by mail (NEWGAME): each address with its secret key, which
	// a NEWGAME mail must carry on a KEY line (a From address alone can be forged).
	GameMasters map[string]string `json:"game_masters"`
	// The daemon's own backups: every so many hours (0: none) into a directory (default:
	// "backups" beside the database), keeping the newest few.
	BackupDir        string `json:"backup_dir"`
	BackupEveryHours int    `json:"backup_every_hours"`
	BackupKeep       int    `json:"backup_keep"`
	// MetricsListen, if set, is the address (host:port) where the daemon serves Prometheus
	// metrics at /metrics, such as 127.0.0.1:9464; navarch health reads them there too.
	MetricsListen string `json:"metrics_listen"`
	// Beacon keys every new game's dice with drand quicknet's rounds as well, fetched over
	// HTTPS from these relays (docs/DICE.md 3); none: no beacon.
	Beacon *beaconConf `json:"beacon"`
	IMAP   serverConf  `json:"imap"`
	SMTP   serverConf  `json:"smtp"`
}

// beaconConf is the beacon of new games: drand quicknet, from these relays.
type beaconConf struct {
	Relays       []string `json:"relays"`
	DelaySeconds int      `json:"delay_seconds"` // from a step's inputs to its round; 0: host.DefaultBeaconDelay
}

func isLoopback(h string) bool {
	ip := net.ParseIP(h)
	return h == "localhost" || ip != nil && ip.IsLoopback()
}

type serverConf struct {
	Host        string `json:"host"`
	Port        int    `json:"port"`
	TLS         string `json:"tls"`
	Username    string `json:"username"`
	Password    string `json:"password"`
	Mailbox     string `json:"mailbox"`
	PollSeconds int    `json:"poll_seconds"`
	// CAFile, if set, is a PEM file of the certificate authorities trusted for this server,
	// in place of the system's (a private CA); the server's name is always verified.
	CAFile string `json:"ca_file"`

	roots *x509.CertPool // CAFile's, read by credentials; nil: the system's
}

// loadConfig reads and checks a configuration; a mistake is refused naming the field.
func loadConfig(path string) (*fileConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseConfig(data, os.Getenv)
}

func parseConfig(data []byte, env func(string) string) (*fileConfig, error) {
	c := &fileConfig{Database: "navarch.db", DeadlineHours: 72, ReminderHours: 12, RateLimit: host.RateLimit,
		BackupEveryHours: 24, BackupKeep: 7}
	dec := json.NewDecoder(bytes.NewReader(withoutComments(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("config: %v", err)
	}
	if c.BackupDir == "" {
		c.BackupDir = filepath.Join(filepath.Dir(c.Database), "backups")
	}
	if v := env("NAVARCH_IMAP_PASSWORD"); v != "" {
		c.IMAP.Password = v
	}
	if v := env("NAVARCH_SMTP_PASSWORD"); v != "" {
		c.SMTP.Password = v
	}
	return c, c.check()
}

func (c *fileConfig) check() error {
	bad := func(field, why string) error { return fmt.Errorf("config: %s: %s", field, why) }
	if a, err := mail.ParseAddress(c.Address); err != nil || a.Address != c.Address {
		return bad("address", "want navarch's own mail address, like navarch@example.org")
	}
	if local, _, _ := strings.Cut(c.Address, "@"); strings.Contains(local, "+") {
		return bad("address", "want navarch's address without a +subaddress: navarch knows mail from itself by the address without one, and adds its own for reply_tokens")
	}
	if c.Domain == "" || strings.ContainsAny(c.Domain, " @<>") {
		return bad("domain", "want the domain for navarch's Message-IDs (and nothing else: it may be the players' own domain), like navarch.example.org")
	}
	if c.Database == "" {
		return bad("database", "want the database file's path")
	}
	if c.DeadlineHours < 1 || c.DeadlineHours > host.MaxDeadlineHours {
		return bad("deadline_hours", fmt.Sprintf("want 1 to %d hours, not %d", host.MaxDeadlineHours, c.DeadlineHours))
	}
	if c.ReminderHours < 1 || c.ReminderHours >= c.DeadlineHours {
		return bad("reminder_hours", fmt.Sprintf("want 1 or more hours, fewer than deadline_hours (%d), not %d (a game may turn its reminders off: game new -reminder off)",
			c.DeadlineHours, c.ReminderHours))
	}
	if c.RateLimit < 1 {
		return bad("rate_limit_per_hour", "want 1 or more mails a sender may send in an hour")
	}
	gms := map[string]string{}
	for a, key := range c.GameMasters {
		if addr, err := mail.ParseAddress(a); err != nil || !strings.EqualFold(addr.Address, a) {
			return bad("game_masters", fmt.Sprintf("%q is not a mail address", a))
		}
		if len(key) < minGameMasterKey || strings.ContainsAny(key, " \t") {
			return bad("game_masters", fmt.Sprintf("%s: want a secret key of %d or more characters without spaces", a, minGameMasterKey))
		}
		if host.IsOwnAddress(c.Address, a) {
			return bad("game_masters", fmt.Sprintf("%s is navarch's own address (or a subaddress of it): navarch never reads mail from its own address, so the game master's mail would be dropped", a))
		}
		gms[strings.ToLower(a)] = key
	}
	c.GameMasters = gms
	if c.BackupEveryHours < 0 || c.BackupKeep < 1 {
		return bad("backup_every_hours", "want 0 (no backups) or more hours, and backup_keep 1 or more")
	}
	if c.MetricsListen != "" {
		if _, port, err := net.SplitHostPort(c.MetricsListen); err != nil || port == "" {
			return bad("metrics_listen", "want host:port, like 127.0.0.1:9464")
		}
	}
	if b := c.Beacon; b != nil {
		if len(b.Relays) == 0 || b.DelaySeconds < 0 {
			return bad("beacon", "want relays (HTTPS base URLs, like https://api.drand.sh) and delay_seconds of 0 (the default, 300) or more")
		}
		for _, r := range b.Relays {
			if u, err := url.Parse(r); err != nil || u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) || u.Host == "" {
				return bad("beacon.relays", fmt.Sprintf("%q: want an https:// URL (http:// only on loopback)", r))
			}
		}
	}
	if err := c.IMAP.check("imap"); err != nil {
		return err
	}
	if err := c.SMTP.check("smtp"); err != nil {
		return err
	}
	return nil
}

// withoutComments takes out the configuration's top-level keys that begin with "_": they are
// comments (docs/navarch.example.json explains its fields with them).
func withoutComments(data []byte) []byte {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		return data // the strict decoder says what is wrong
	}
	n := len(fields)
	for k := range fields {
		if strings.HasPrefix(k, "_") {
			delete(fields, k)
		}
	}
	if len(fields) == n {
		return data
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return data
	}
	return out
}

// minGameMasterKey is the shortest game master's key accepted: it stands between a forged
// From address and a new game.
const minGameMasterKey = 12

func (s serverConf) check(name string) error {
	switch {
	case s.Host == "":
		return fmt.Errorf("config: %s.host: missing", name)
	case s.Port < 1 || s.Port > 65535:
		return fmt.Errorf("config: %s.port: %d is not a port", name, s.Port)
	case s.TLS != navmail.TLSImplicit && s.TLS != navmail.TLSStart && s.TLS != navmail.TLSNone:
		return fmt.Errorf("config: %s.tls: want %q, %q or %q (none only on loopback)", name, navmail.TLSImplicit, navmail.TLSStart, navmail.TLSNone)
	case s.TLS == navmail.TLSNone && s.Host != "127.0.0.1" && s.Host != "localhost" && s.Host != "::1":
		return fmt.Errorf("config: %s.tls: none is for loopback tests only, not %s", name, s.Host)
	case s.PollSeconds < 0:
		return fmt.Errorf("config: %s.poll_seconds: negative", name)
	}
	return nil
}

// credentials checks what only the daemon needs: each server's user name and password
// (SMTP without a user name submits without logging in, for a relay that takes navarch's
// mail so) and the CA files. The commands that act on the database run without them.
func (c *fileConfig) credentials() error {
	switch {
	case c.IMAP.Username == "":
		return fmt.Errorf("config: imap.username: missing")
	case c.IMAP.Password == "":
		return fmt.Errorf("config: imap.password: missing (it may come from NAVARCH_IMAP_PASSWORD)")
	case c.SMTP.Username != "" && c.SMTP.Password == "":
		return fmt.Errorf("config: smtp.password: missing for smtp.username %s (it may come from NAVARCH_SMTP_PASSWORD)", c.SMTP.Username)
	case c.SMTP.Password != "" && c.SMTP.Username == "":
		return fmt.Errorf("config: smtp.username: missing (smtp.password is set)")
	}
	for _, s := range []struct {
		name string
		conf *serverConf
	}{{"imap", &c.IMAP}, {"smtp", &c.SMTP}} {
		if err := s.conf.readCA(s.name); err != nil {
			return err
		}
	}
	return nil
}

// readCA reads the server's CA file, if it has one.
func (s *serverConf) readCA(name string) error {
	if s.CAFile == "" {
		return nil
	}
	if s.TLS == navmail.TLSNone {
		return fmt.Errorf("config: %s.ca_file: set, but %s.tls is none", name, name)
	}
	data, err := os.ReadFile(s.CAFile)
	if err != nil {
		return fmt.Errorf("config: %s.ca_file: %w", name, err)
	}
	s.roots = x509.NewCertPool()
	if !s.roots.AppendCertsFromPEM(data) {
		return fmt.Errorf("config: %s.ca_file: %s holds no PEM certificate", name, s.CAFile)
	}
	return nil
}

// tlsConfig is how navarch verifies the server: its name, by the CA file's authorities or
// the system's. There is no way to turn verification off.
func (s serverConf) tlsConfig() *tls.Config {
	if s.TLS == navmail.TLSNone {
		return nil
	}
	return &tls.Config{ServerName: s.Host, RootCAs: s.roots, MinVersion: tls.VersionTLS12}
}

func (c *fileConfig) intake() *navmail.Intake {
	return &navmail.Intake{IMAP: navmail.IMAP{Host: c.IMAP.Host, Port: c.IMAP.Port, TLS: c.IMAP.TLS, Username: c.IMAP.Username,
		Password: c.IMAP.Password, Mailbox: c.IMAP.Mailbox, Poll: time.Duration(c.IMAP.PollSeconds) * time.Second, TLSConfig: c.IMAP.tlsConfig()}}
}

// host is the host's configuration, the same for the daemon and the database commands
// (deadlines, rate limit and DKIM requirement included).
func (c *fileConfig) host() host.Config {
	return host.Config{Address: c.Address, Domain: c.Domain, DeadlineHours: c.DeadlineHours, ReminderHours: c.ReminderHours,
		RateLimit: c.RateLimit, DKIMAuthServID: c.DKIMAuthServID, GameMasters: c.GameMasters, ReplyTokens: c.ReplyTokens, Maps: maps,
		Backups: store.Rotation{Dir: c.BackupDir, Every: time.Duration(c.BackupEveryHours) * time.Hour, Keep: c.BackupKeep},
		Beacon:  c.beacon()}
}

// beacon is the host's beacon: quicknet from the configured relays, each fetch bounded.
func (c *fileConfig) beacon() *host.BeaconConfig {
	if c.Beacon == nil {
		return nil
	}
	return &host.BeaconConfig{Client: &beacon.Client{Chain: beacon.Quicknet, Relays: c.Beacon.Relays, HTTP: &http.Client{Timeout: 20 * time.Second}},
		Delay: time.Duration(c.Beacon.DelaySeconds) * time.Second}
}

func (c *fileConfig) smtp() navmail.SMTP {
	return navmail.SMTP{Host: c.SMTP.Host, Port: c.SMTP.Port, TLS: c.SMTP.TLS, Username: c.SMTP.Username,
		Password: c.SMTP.Password, From: c.Address, TLSConfig: c.SMTP.tlsConfig()}
}
