package main

import (
	"strings"
	"testing"
	"time"
)

const goodConfig = `{"database": "/var/lib/navarch/navarch.db", "address": "navarch@example.org", "domain": "navarch.example.org",
 "imap": {"host": "imap.example.org", "port": 993, "tls": "tls", "username": "navarch"},
 "smtp": {"host": "smtp.example.org", "port": 587, "tls": "starttls", "username": "navarch"}}`

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfig(t *testing.T) {
	c, err := parseConfig([]byte(strings.Replace(goodConfig, `"database"`, `"game_masters": {"GM@example.org": "gm-secret-key-1"}, "database"`, 1)),
		env(map[string]string{"NAVARCH_IMAP_PASSWORD": "s3cret"}))
	if err != nil || c.IMAP.Password != "s3cret" || c.DeadlineHours != 72 || c.BackupDir != "/var/lib/navarch/backups" ||
		c.host().Backups.Every != 24*time.Hour || c.BackupKeep != 7 || len(c.host().GameMasters) != 1 || c.host().GameMasters["gm@example.org"] != "gm-secret-key-1" {
		t.Fatalf("good config: %+v, %v", c, err)
	}
	bad := map[string]string{
		"address":             strings.Replace(goodConfig, "navarch@example.org", "navarch", 1),
		"domain":              strings.Replace(goodConfig, `"navarch.example.org"`, `"a b"`, 1),
		"imap.port":           strings.Replace(goodConfig, "993", "0", 1),
		"smtp.tls":            strings.Replace(goodConfig, "starttls", "ssl", 1),
		"imap.tls":            strings.Replace(goodConfig, `"tls": "tls"`, `"tls": "none"`, 1),
		"imap.password":       goodConfig,
		"imap.username":       strings.Replace(goodConfig, `"username": "navarch"}`, `"username": ""}`, 1),
		"smtp.password":       goodConfig,
		"smtp.username":       strings.Replace(goodConfig, `"username": "navarch"}}`, `"password": "x"}}`, 1),
		"imap.ca_file":        strings.Replace(goodConfig, `"username": "navarch"}`, `"username": "navarch", "ca_file": "/nonexistent/ca.pem"}`, 1),
		"unknown field":       strings.Replace(goodConfig, `"database"`, `"databse"`, 1),
		"deadline_hours":      strings.Replace(goodConfig, `"database"`, `"deadline_hours": 0, "database"`, 1),
		"reminder_hours":      strings.Replace(goodConfig, `"database"`, `"deadline_hours": 6, "database"`, 1),
		"reminder_hours 0":    strings.Replace(goodConfig, `"database"`, `"reminder_hours": 0, "database"`, 1),
		"rate_limit_per_hour": strings.Replace(goodConfig, `"database"`, `"rate_limit_per_hour": 0, "database"`, 1),
		"backup_every_hours":  strings.Replace(goodConfig, `"database"`, `"backup_keep": 0, "database"`, 1),
		"game_masters":        strings.Replace(goodConfig, `"database"`, `"game_masters": {"gm at example.org": "gm-secret-key-1"}, "database"`, 1),
		"game_masters list":   strings.Replace(goodConfig, `"database"`, `"game_masters": ["gm@example.org"], "database"`, 1),
		"game_masters key":    strings.Replace(goodConfig, `"database"`, `"game_masters": {"gm@example.org": "short"}, "database"`, 1),
		"metrics_listen":      strings.Replace(goodConfig, `"database"`, `"metrics_listen": "9464", "database"`, 1),
		"game_masters own":    strings.Replace(goodConfig, `"database"`, `"game_masters": {"Navarch+gm@example.org": "gm-secret-key-1"}, "database"`, 1),
		"game_masters self":   strings.Replace(goodConfig, `"database"`, `"game_masters": {"navarch@example.org": "gm-secret-key-1"}, "database"`, 1),
		"address subaddress":  strings.Replace(goodConfig, "navarch@example.org", "navarch+games@example.org", 1),
		"metrics_listen port": strings.Replace(goodConfig, `"database"`, `"metrics_listen": "127.0.0.1:", "database"`, 1),
	}
	for field, text := range bad {
		e := map[string]string{"NAVARCH_IMAP_PASSWORD": "x", "NAVARCH_SMTP_PASSWORD": "y"}
		switch field {
		case "imap.password":
			e = nil
		case "smtp.password":
			e = map[string]string{"NAVARCH_IMAP_PASSWORD": "x"}
		case "smtp.username":
			e = map[string]string{"NAVARCH_IMAP_PASSWORD": "x"}
		}
		c, err := parseConfig([]byte(text), env(e))
		if err == nil {
			err = c.credentials()
		}
		if err == nil || !strings.Contains(err.Error(), strings.Split(field, " ")[0]) {
			t.Errorf("%s: %v, want an error naming it", field, err)
		}
	}
	// Top-level keys beginning with "_" are comments (docs/navarch.example.json); others
	// that are not fields are refused.
	if c, err := parseConfig([]byte(strings.Replace(goodConfig, `"database"`, `"_domain": "the Message-IDs' domain", "database"`, 1)), env(nil)); err != nil || c.Domain != "navarch.example.org" {
		t.Errorf("a comment key: %+v, %v", c, err)
	}
	if _, err := parseConfig([]byte("{"), env(nil)); err == nil {
		t.Error("truncated JSON accepted")
	}
	// Without the password, the commands that only open the database still run.
	if c, err := parseConfig([]byte(goodConfig), env(nil)); err != nil {
		t.Errorf("a config without the password refused: %v", err)
	} else if c.credentials() == nil {
		t.Error("the daemon's credentials pass without a password")
	}
}

func FuzzConfig(f *testing.F) {
	f.Add([]byte(goodConfig))
	f.Add([]byte(`{"imap": {"port": -1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data, env(map[string]string{"NAVARCH_IMAP_PASSWORD": "x"}))
		if err == nil && (c.Address == "" || c.IMAP.Host == "") {
			t.Fatalf("accepted an incomplete config: %+v", c)
		}
	})
}

// TestExampleConfig: docs/navarch.example.json, comments and all, is a configuration the
// daemon takes.
func TestExampleConfig(t *testing.T) {
	c, err := loadConfig("../../docs/navarch.example.json")
	if err != nil || c.Domain != "navarch.example.org" || c.Address != "navarch@example.org" {
		t.Fatalf("the example configuration: %+v, %v", c, err)
	}
}

// TestConfigBeacon: a beacon from HTTPS relays (http only on loopback) keys new games with
// drand quicknet; a relay of another scheme, or none, is refused naming the field.
func TestConfigBeacon(t *testing.T) {
	with := func(b string) string {
		return strings.Replace(goodConfig, `"database"`, `"beacon": `+b+`, "database"`, 1)
	}
	c, err := parseConfig([]byte(with(`{"relays": ["https://api.drand.sh", "http://127.0.0.1:8080"], "delay_seconds": 120}`)), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	hc := c.host()
	if hc.Beacon == nil || len(hc.Beacon.Client.Relays) != 2 || hc.Beacon.Delay != 2*time.Minute || hc.Beacon.Client.Chain.Period != 3*time.Second {
		t.Errorf("beacon %+v", hc.Beacon)
	}
	for _, bad := range []string{`{"relays": []}`, `{"relays": ["http://relay.example.org"]}`, `{"relays": ["ftp://x"]}`, `{"relays": ["https://r"], "delay_seconds": -1}`} {
		if _, err := parseConfig([]byte(with(bad)), env(nil)); err == nil || !strings.Contains(err.Error(), "beacon") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if c, _ := parseConfig([]byte(goodConfig), env(nil)); c.host().Beacon != nil {
		t.Error("a beacon without one configured")
	}
}
