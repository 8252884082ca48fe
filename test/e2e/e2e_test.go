package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/smtp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/host"
	"navarch/mail"
	"navarch/play"
	"navarch/render"
	"navarch/render/lepantomap"
	"navarch/store"
)

var keyRE = regexp.MustCompile(`Your secret order key: (\S+)`)

// replyToRE finds a tokenized reply address (its local part) in a raw mail.
var replyToRE = regexp.MustCompile(`(?m)^Reply-To: <?(navarch\+[a-z2-7]+)@test\.example>?\r?$`)

// received is a mail as parsed and as delivered.
type received struct {
	*mail.Incoming
	raw []byte
	uid imap.UID
}

// mailbox reads one user's INBOX on Dovecot.
type mailbox struct {
	t    *testing.T
	user string
	tag  string // only this game's mail counts: the servers' mailboxes outlive a run
	seen map[imap.UID]bool
	kept []received // this game's mail read but not yet taken
}

func (m *mailbox) fetch() []received {
	m.t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		m.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(m.user, strings.Split(m.user, "@")[0]+"-secret").Wait(); err != nil {
		m.t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		m.t.Fatal(err)
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		m.t.Fatal(err)
	}
	var out []received
	section := &imap.FetchItemBodySection{Peek: true}
	for _, uid := range data.AllUIDs() {
		if m.seen[uid] {
			continue
		}
		bufs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil || len(bufs) != 1 {
			m.t.Fatalf("fetch: %v", err)
		}
		raw := bufs[0].FindBodySection(section)
		in, err := mail.Parse(raw, mail.Options{MaxSize: 8 << 20})
		if err != nil {
			m.t.Fatalf("a mail navarch sent does not parse: %v", err)
		}
		m.seen[uid] = true
		out = append(out, received{in, raw, uid})
	}
	return out
}

// waitFor reads the mailbox until a mail of this game whose subject holds s arrives, and
// takes that part of it (partsOf): a report carries the receipt and the next request, so
// one mail answers a wait for " orders accepted", another for "report" and another for
// "your move". Other mail read on the way is
// kept for later calls.
func (m *mailbox) waitFor(s string) received {
	m.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if in := m.take(s); in != nil {
			return *in
		}
	}
	var got []string
	for _, in := range m.kept {
		got = append(got, fmt.Sprintf("%q:\n%s", in.Subject, in.Text))
	}
	m.t.Fatalf("%s: no mail %q within a minute; this game's mail read and not taken:\n%s", m.user, s, strings.Join(got, "\n"))
	return received{}
}

// take reads new mail and returns the first kept mail whose subject holds s, or nil; the
// mail stays kept with s cut from its subject, for a wait for another of its parts.
func (m *mailbox) take(s string) *received {
	m.t.Helper()
	for _, in := range m.fetch() {
		if m.ours(in) {
			in.Subject = partsOf(in)
			m.kept = append(m.kept, in)
		}
	}
	for i, in := range m.kept {
		if strings.Contains(in.Subject, strings.ToLower(s)) {
			m.kept[i].Subject = strings.Replace(in.Subject, strings.ToLower(s), "\x00", 1)
			return &in
		}
	}
	return nil
}

// partsOf is what a mail holds, for waitFor: its subject in small letters, and "orders
// accepted", "report" and "your move" for a receipt, a report and a request that ride in
// one mail (one mail per moment: docs/DESIGN.md 3.5), each named once: a part the subject
// names already is not added again, or one mail would answer two waits for it.
func partsOf(in received) string {
	s := strings.ToLower(in.Subject)
	for _, p := range []struct{ text, part string }{
		{"your orders are accepted", " orders accepted"}, {"what happened in turn", "report"}, {"--- your move ---", "your move"},
	} {
		if strings.Contains(in.Text, p.text) && !strings.Contains(s, p.part) {
			s += " · " + p.part
		}
	}
	return s
}

func (m *mailbox) ours(in received) bool {
	return strings.HasPrefix(in.Subject, "[navarch "+m.tag+"] ")
}

// send submits a player's mail to navarch or to the echo responder.
func send(t *testing.T, from, to, subject, body string) {
	t.Helper()
	to += "@test.example"
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%d@%s>\r\n\r\n%s\r\n",
		from, to, subject, time.Now().UnixNano(), strings.Split(from, "@")[1], strings.ReplaceAll(body, "\n", "\r\n"))
	if err := smtp.SendMail(smtpAddr, nil, from, []string{to}, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// activations is how many activations the end-to-end game plays after the set-up with the
// scripted players' mail; clients play one more each, by a real mail client.
const activations = 4

var clients = []string{"mutt", "s-nail"}

// TestE2E plays a game through Dovecot and Postfix: welcome, JOIN (alice by her tokenized
// reply address without a KEY line, bob with his key), the secret set-up, then
// several activations of the bots' orders (the first with a mistake answered by line), each
// report reaching both sides with its map. Each activation is timed from the order mail's
// submission to both reports in the players' mailboxes, side by side with a no-op echo
// responder that reads its own mailbox the same way and answers both players at once: the
// floor the mail servers set. The players share navarch's domain. The last two activations'
// orders are sent by real mail clients with their own defaults (client_test.go), mutt
// (top-posted above its attribution line and the quoted request) and Debian's s-nail
// (bottom-posted below its own): each reads the request from Dovecot over IMAP and replies
// through Postfix, and the game goes on.
func TestE2E(t *testing.T) {
	if os.Getenv("NAVARCH_E2E") != "1" {
		t.Skip("set NAVARCH_E2E=1 with Dovecot and Postfix running (test/e2e/mailservers.sh)")
	}
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rulesets := []adjudicator.Ruleset{lepanto.Ruleset}
	// The players share navarch's domain, as a club's own server has it: their clients'
	// Message-IDs are @test.example too (README: "domain").
	h := host.New(s, rulesets, host.Config{Maps: map[string]render.Map{lepanto.Ruleset.ID(): lepantomap.Map}, Address: "navarch@test.example", Domain: "test.example", ReplyTokens: true}, log)
	tag, err := h.CreateGame(host.GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@test.example"},
		Players: []host.PlayerSpec{{ID: "alice", Side: "christian", Address: "alice@test.example", Zone: "Europe/Rome"},
			{ID: "bob", Side: "ottoman", Address: "bob@test.example", Zone: "America/New_York"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Add(2)
	go func() {
		defer wg.Done()
		h.Serve(ctx, &mail.Intake{IMAP: imapAs("navarch@test.example"), Log: log}, smtpFrom("navarch@test.example"))
	}()
	go func() {
		defer wg.Done()
		echo(ctx, tag, log)
	}()

	players := []string{"alice@test.example", "bob@test.example"}
	sideOf := map[string]string{"christian": players[0], "ottoman": players[1]}
	boxes := map[string]*mailbox{}
	// alice answers to her tokenized reply address without KEY lines (Postfix and Dovecot
	// deliver navarch+TOKEN@ to navarch's mailbox); bob writes to navarch@ with his key.
	to, auth := map[string]string{}, map[string]string{}
	subject := "Re: [navarch " + tag + "]"
	for _, who := range players {
		boxes[who] = &mailbox{t: t, user: who, tag: tag, seen: map[imap.UID]bool{}}
		w := boxes[who].waitFor("] welcome")
		to[who], auth[who] = "navarch", "KEY "+keyRE.FindStringSubmatch(w.Text)[1]+"\n"
		if who == players[0] {
			m := replyToRE.FindSubmatch(w.raw)
			if m == nil {
				t.Fatalf("alice's welcome has no tokenized Reply-To")
			}
			to[who], auth[who] = string(m[1]), ""
		}
		// Every step's report, that each step below may wait for both players' reports.
		send(t, who, to[who], subject, auth[who]+"REPORTS EACH")
		send(t, who, to[who], subject, auth[who]+"JOIN")
	}
	for _, who := range players {
		boxes[who].waitFor("your move") // the set-up (rule 3: hidden deployment)
		send(t, who, to[who], subject, auth[who]+"NONE")
	}
	for _, who := range players {
		boxes[who].waitFor(" orders accepted")
		boxes[who].waitFor("report")
	}

	var floor, took []time.Duration
	for k := 0; k < activations+len(clients); k++ {
		client := "" // the last activations' orders by real clients
		if k >= activations {
			client = clients[k-activations]
		}
		step := pending(t, s, rulesets)
		if step.Kind != adjudicator.NeedOrders {
			t.Fatalf("activation %d: the game waits for no orders (%+v)", k, step)
		}
		first := sideOf[step.Sides[0]]
		request := boxes[first].waitFor("your move")
		start := time.Now()
		send(t, first, "echo", subject, "ping")
		for _, who := range players {
			boxes[who].waitFor("echo")
		}
		if client == "" {
			floor = append(floor, time.Since(start))
		}

		if k == 0 {
			send(t, first, to[first], subject, auth[first]+"NOSUCH-UNIT MOVE 0101")
			line := map[bool]string{true: "line 1", false: "line 2"}[auth[first] == ""]
			if e := boxes[first].waitFor("orders refused"); !strings.Contains(e.Text, line) {
				t.Errorf("the errors do not name the line:\n%s", e.Text)
			}
		}
		for i, side := range step.Sides {
			who := sideOf[side]
			if i > 0 {
				request = boxes[who].waitFor("your move")
			}
			orders := botOrders(t, s, rulesets, side)
			start = time.Now()
			switch client {
			case "mutt":
				muttReply(t, who, request.MessageID, auth[who]+orders)
			case "s-nail":
				sNailReply(t, who, request.uid, auth[who]+orders)
			default:
				send(t, who, to[who], subject, auth[who]+orders)
			}
			if r := boxes[who].waitFor(" orders accepted"); orders != "NONE" && !strings.Contains(r.Text, strings.Fields(orders)[0]) {
				t.Errorf("the receipt does not echo the orders %q:\n%s", orders, r.Text)
			}
		}
		for _, who := range players {
			r := boxes[who].waitFor("report")
			if !strings.Contains(r.Text, "#") {
				t.Errorf("%s's report lists no log records", who)
			}
			if pngs(t, r.raw) == 0 {
				t.Errorf("%s's report carries no map that decodes as PNG", who)
			}
		}
		if client == "" {
			took = append(took, time.Since(start))
		}
	}
	f, n := median(floor), median(took)
	t.Logf("order mail submitted to both reports delivered, median of %d activations: navarch %v, echo responder %v, ratio %.2f",
		activations, n.Round(time.Millisecond), f.Round(time.Millisecond), float64(n)/float64(f))
}

// pending is the step the game waits for, from the daemon's own store.
func pending(t *testing.T, s *store.Store, rulesets []adjudicator.Ruleset) adjudicator.Step {
	t.Helper()
	var step adjudicator.Step
	err := s.View(func(tx *store.Tx) error {
		g, err := play.Load(tx, store.Games(tx)[0], rulesets)
		if err == nil {
			step = g.Next()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return step
}

// botOrders are the orders lepanto's bot would send for side now, or NONE.
func botOrders(t *testing.T, s *store.Store, rulesets []adjudicator.Ruleset, side string) string {
	t.Helper()
	text := ""
	err := s.View(func(tx *store.Tx) error {
		g, err := play.Load(tx, store.Games(tx)[0], rulesets)
		if err == nil {
			text = g.(*lepanto.Game).BotOrders(side)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if text == "" {
		return "NONE"
	}
	return text
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

func imapAs(user string) mail.IMAP {
	return mail.IMAP{Host: "127.0.0.1", Port: srv.imapPort, TLS: mail.TLSNone, Username: user,
		Password: strings.Split(user, "@")[0] + "-secret", Poll: 2 * time.Second, Timeout: 20 * time.Second}
}

func smtpFrom(addr string) mail.SMTP {
	return mail.SMTP{Host: "127.0.0.1", Port: srv.smtpPort, TLS: mail.TLSNone, From: addr, Timeout: 20 * time.Second}
}

// echo is the no-op responder: every mail to echo@test.example is answered at once with one
// mail to each player, read and sent by the same intake and sender code as navarch's.
func echo(ctx context.Context, tag string, log *slog.Logger) {
	var cur mail.Cursor
	out := smtpFrom("echo@test.example")
	in := &mail.Intake{IMAP: imapAs("echo@test.example"), Log: log,
		Load: func() (mail.Cursor, error) { return cur, nil },
		Save: func(c mail.Cursor) error { cur = c; return nil },
		Handle: func(raw []byte) error {
			for _, to := range []string{"alice@test.example", "bob@test.example"} {
				o := mail.Outgoing{MessageID: fmt.Sprintf("%d.%s@echo.test.example", time.Now().UnixNano(), strings.Split(to, "@")[0]),
					To: []string{to}, Subject: "[navarch " + tag + "] echo", Text: "echo\n"}
				if err := out.Send(ctx, o); err != nil {
					return err
				}
			}
			return nil
		}}
	in.Run(ctx)
}

// pngs counts the parts of a delivered mail that decode as PNG images.
func pngs(t *testing.T, raw []byte) int {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		if ct, _, _ := p.Header.(interface {
			ContentType() (string, map[string]string, error)
		}).ContentType(); ct == "image/png" {
			if _, err := png.Decode(p.Body); err == nil {
				n++
			}
		}
	}
}
