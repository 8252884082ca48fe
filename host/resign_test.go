package host

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestResign: a bare RESIGN only explains; RESIGN CONFIRM ends the game, the resigning side
// losing, with the game-over mail and full log to everyone; later mail changes nothing.
func TestResign(t *testing.T) {
	f, keys := started(t)
	f.send("bob@example.com", "HELP\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(flat(m.Text), "RESIGN CONFIRM ends the game") {
		t.Error("HELP does not list the mail commands")
	}
	f.ref("RESIGN CONFIRM")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "Referees do not resign") {
		t.Error("a referee resigned")
	}
	f.send("bob@example.com", "RESIGN\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, "send RESIGN CONFIRM") {
		t.Errorf("a bare RESIGN is not explained: %+v", m)
	}
	f.send("bob@example.com", "RESIGN CONFIRM\nKEY "+keys["bob@example.com"])
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com", "ref@example.net"} {
		m := find(mails, who, "game over")
		if m == nil || !strings.Contains(m.Text, "bob (ottoman) resigned; christian wins") || len(m.Attachments) != 3 || m.Attachments[0].ContentType != "image/png" || m.Attachments[2].Name != "navarch-verify.html" {
			t.Errorf("%s: no game-over mail with the result and the log in %v", who, subjects(mails))
		}
	}
	f.send("bob@example.com", "RESIGN CONFIRM\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, "not in play (over)") {
		t.Errorf("a second resignation: %+v", m)
	}
	for _, body := range []string{"NONE", "STATUS", "LOG"} {
		f.send("alice@example.org", body+"\nKEY "+keys["alice@example.org"])
		if mails := f.outbox(); len(mails) != 1 || mails[0].To[0] != "alice@example.org" {
			t.Errorf("%s after the game ended is not answered once: %v", body, subjects(mails))
		} else if body == "NONE" && !strings.Contains(mails[0].Text, "The game is over") {
			t.Errorf("orders after the game ended: %s", mails[0].Text)
		}
	}
	f.checkLog()
}

// TestRequireDKIM: with the DKIM requirement on, a player's mail without an aligned pass
// from our own mail server is answered and changes nothing; with one it counts.
func TestRequireDKIM(t *testing.T) {
	f := duelFixture(t)
	rec := &observer{}
	f.h.cfg.DKIMAuthServID, f.h.cfg.Metrics = "mx.host.example", rec
	key := keyRE.FindStringSubmatch(find(f.outbox(), "alice@example.org", "welcome").Text)[1]
	join := func(n int, ar, key string) {
		raw := fmt.Sprintf("%sFrom: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <dkim%d@example.org>\r\n\r\nJOIN\r\nKEY %s\r\n", ar, f.tag, n, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	join(1, "", "not-her-key")
	join(2, "Authentication-Results: mx.host.example; dkim=pass header.d=elsewhere.example\r\n", "not-her-key")
	out := f.outbox()
	for _, m := range out {
		if !strings.Contains(flat(m.Text), "requires mail signed (DKIM)") || m.To[0] != "alice@example.org" {
			t.Errorf("an unsigned JOIN: %s", m.Text)
		}
	}
	if len(out) != 2 {
		t.Errorf("%d answers to two unsigned JOINs, want 2", len(out))
	}
	// The right key without the signature: someone else has it. Alice is told so at her
	// address of record, with how to get a new key, once an hour.
	join(3, "", key)
	join(4, "Authentication-Results: mx.host.example; dkim=fail header.d=example.org\r\n", key)
	out = f.outbox()
	if len(out) != 1 || out[0].To[0] != "alice@example.org" || !strings.Contains(flat(out[0].Text), "Your key is known to someone else") ||
		!strings.Contains(flat(out[0].Text), "the referee writes REKEY alice") {
		t.Errorf("a forged JOIN with her key: %d mails, want one telling alice her key is known:\n%+v", len(out), out)
	}
	f.now = f.now.Add(time.Hour)
	join(5, "", key)
	if out := f.outbox(); len(out) != 1 || !strings.Contains(flat(out[0].Text), "Your key is known to someone else") {
		t.Errorf("an hour later, a forged JOIN with her key: %+v, want her told again", out)
	}
	if got := rec.rejections(); got != "dkim dkim forged forged forged" {
		t.Errorf("rejections %q, want dkim twice and forged thrice", got)
	}
	join(6, "Authentication-Results: mx.host.example; dkim=pass header.d=example.org header.s=k1\r\n", key)
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "You have joined") {
		t.Errorf("a signed JOIN was not applied: %+v", m)
	}
}

// observer keeps what the host tells its Observer of rejected mail.
type observer struct {
	mu       sync.Mutex
	rejected []string
}

func (o *observer) Received()                    {}
func (o *observer) Handled(time.Duration, error) {}
func (o *observer) Parked()                      {}
func (o *observer) Sent(string)                  {}
func (o *observer) Refused(string)               {}
func (o *observer) Rejected(reason string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.rejected = append(o.rejected, reason)
}

func (o *observer) rejections() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.rejected, " ")
}
