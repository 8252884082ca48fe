package main

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"io"
	"log"
	"log/slog"
	"net/smtp"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	gomail "github.com/emersion/go-message/mail"
	gosmtp "github.com/emersion/go-smtp"

	"navarch/adjudicator"
	"navarch/beacon"
	"navarch/beacon/beacontest"
	"navarch/host"
	"navarch/ledger"
	"navarch/play"
	"navarch/render"
	listed "navarch/rulesets"
	"navarch/store"
)

const (
	demoDomain   = "demo.example"
	demoPassword = "demo-secret"
	demoReferee  = "referee@demo.example"
)

// demo is one demo run: the two servers, the daemon's host and the players' view of it.
type demo struct {
	out, tag, verifier string
	refereeKey         string // from the referee's welcome: every referee mail carries it
	address            string
	turns              int
	progress           io.Writer
	start              time.Time
	// beacon, with -beacon, is a local beacon on loopback (its own key, a round a second)
	// keying every step, as drand quicknet does a real installation's.
	beacon     *beacontest.Beacon
	stopBeacon func()

	s        *store.Store
	h        *host.Host
	log      *slog.Logger
	logFile  *os.File
	rulesets []adjudicator.Ruleset
	maps     map[string]render.Map // the daemon's maps: none with -maps=false

	user               *imapmemserver.User
	imapSrv            *imapserver.Server
	smtpSrv            *gosmtp.Server
	imapPort, smtpPort int

	inbox    chan delivered
	quit     chan struct{} // closed when the players stop reading
	mu       sync.Mutex
	n        int // mails written
	sent     int // mails the players sent
	players  map[string]*demoPlayer
	first    *demoPlayer
	sides    []string
	mistaken bool
	lastMail map[string]string
}

type demoPlayer struct {
	id, side, address, key string
	// replyTo is the tokenized reply address the first player answers to, without KEY lines.
	replyTo string
	turns   int
}

// delivered is a mail navarch sent, as the SMTP server received it, and as read.
type delivered struct {
	to, file string
	raw      []byte
	in       seen
	err      error // readDelivered's
}

// seen is what a player reads of a mail navarch sent: its subject, unfolded and decoded
// (RFC 5322 2.2.3, RFC 2047: navarch's subjects carry "·" and are long), and its text, the
// first text/plain part. A mail client shows no more; mail.Parse's reading of a reply (the
// quote, the signature) is for players' mails, and over the long reports of a whole game it
// was a tenth of the demo's time under the race detector.
type seen struct{ subject, text string }

func readDelivered(raw []byte) (seen, error) {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return seen{}, err
	}
	var m seen
	if m.subject, err = r.Header.Subject(); err != nil {
		return m, err
	}
	for {
		part, err := r.NextPart()
		if err == io.EOF {
			return m, errors.New("no text/plain part")
		}
		if err != nil {
			return m, err
		}
		h, ok := part.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		if ct, _, _ := h.ContentType(); ct != "text/plain" {
			continue
		}
		b, err := io.ReadAll(part.Body)
		m.text = strings.ReplaceAll(string(b), "\r\n", "\n")
		return m, err
	}
}

// demoOptions are the demo's switches: a local beacon keying the steps, and the maps drawn.
// demoOptions: players is how many players each side has (1: the lone player of each; more:
// a team game, the side's top commands shared among them, its first player its commander).
type demoOptions struct {
	beacon, maps bool
	players      int
}

func newDemo(out, ruleset, scenario string, turns int, progress io.Writer, opt demoOptions) (*demo, error) {
	entry, err := listed.Demo(list, ruleset)
	if err != nil {
		return nil, err
	}
	rs := entry.Rules
	if scenario == "" {
		scenario = entry.Demo
	}
	var sc *adjudicator.Scenario
	for _, s := range rs.Scenarios() {
		if s.ID == scenario {
			sc = &s
		}
	}
	if sc == nil {
		return nil, fmt.Errorf("ruleset %s has no scenario %q (navarch rules lists them)", ruleset, scenario)
	}
	d := &demo{out: out, address: "navarch@" + demoDomain, turns: turns, progress: progress, start: time.Now(),
		rulesets: rulesets, maps: maps, inbox: make(chan delivered, 64), quit: make(chan struct{}), players: map[string]*demoPlayer{}, lastMail: map[string]string{}}
	if !opt.maps {
		d.maps = map[string]render.Map{}
	}
	if opt.beacon {
		d.beacon = beacontest.New("navarch demo", time.Now().Add(-time.Minute), time.Second, time.Now)
	}
	if err := d.open(); err != nil {
		d.close()
		return nil, err
	}
	if err := d.servers(); err != nil {
		d.close()
		return nil, err
	}
	spec := host.GameSpec{Ruleset: rs.ID(), Scenario: sc.ID, Referees: []string{demoReferee}}
	if err := d.cast(rs, *sc, max(opt.players, 1), &spec); err != nil {
		d.close()
		return nil, err
	}
	tag, err := d.h.CreateGame(spec)
	if err != nil {
		d.close()
		return nil, err
	}
	d.tag = tag
	d.say("game %s: %s, %s, %d turns; mail, maps and logs in %s", tag, rs.Title(), sc.Title, turns, out)
	return d, nil
}

// demoMarker marks a directory as a demo's own, so that a later demo may clear it.
const demoMarker = ".navarch-demo"

// open starts afresh: a demo directory holds one game. It clears only a directory that an
// earlier demo made (it has demoMarker); any other directory must be new or empty.
func (d *demo) open() error {
	entries, err := os.ReadDir(d.out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if _, merr := os.Stat(filepath.Join(d.out, demoMarker)); len(entries) > 0 && merr != nil {
		return fmt.Errorf("%s is not empty and not an earlier demo's directory: choose another -out", d.out)
	}
	db := filepath.Join(d.out, "navarch.db")
	for _, old := range []string{db, filepath.Join(d.out, "mail"), filepath.Join(d.out, "maps")} {
		if err := os.RemoveAll(old); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(d.out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(d.out, demoMarker), []byte("made by navarch demo; a later demo clears this directory\n"), 0o644); err != nil {
		return err
	}
	for _, dir := range []string{"mail", "maps"} {
		if err := os.MkdirAll(filepath.Join(d.out, dir), 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(d.out, "navarch.log"))
	if err != nil {
		return err
	}
	d.logFile, d.log = f, slog.New(slog.NewTextHandler(f, nil))
	if d.s, err = store.Open(db, d.log, store.Options{NoSync: true}); err != nil {
		return err
	}
	// The scripted players answer at once: a whole game of the medieval rules (18 cards a
	// turn) is some 80 mails a side within a minute, far over a person's hourly rate.
	cfg := host.Config{Address: d.address, Domain: "navarch." + demoDomain, ReplyTokens: true, Maps: d.maps, RateLimit: demoRateLimit}
	// A step waits a few seconds for its round, looked for four times a second: long enough
	// for the receipt naming the round to reach its player first, even on a loaded machine
	// (Received and Date are whole seconds, and a mail stamped in the round's second does not
	// prove the step was fixed before it).
	if d.beacon != nil {
		var url string
		url, d.stopBeacon = d.beacon.Server()
		cfg.Beacon = &host.BeaconConfig{Client: &beacon.Client{Chain: d.beacon.Chain, Relays: []string{url}}, Delay: 3 * time.Second, Poll: 250 * time.Millisecond}
	}
	d.h = host.New(d.s, d.rulesets, cfg, d.log)
	return nil
}

// servers starts navarch's IMAP mailbox and the SMTP server all mail goes through: mail to
// navarch lands in its mailbox; mail from navarch is written to DIR/mail and handed to the
// players.
// demoRateLimit is the mails a demo player may send in an hour: enough for any game to its end.
const demoRateLimit = 100000

func (d *demo) servers() error {
	mem := imapmemserver.New()
	d.user = imapmemserver.NewUser(d.address, demoPassword)
	if err := d.user.Create("INBOX", nil); err != nil {
		return err
	}
	mem.AddUser(d.user)
	d.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps: imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}, InsecureAuth: true, Logger: log.New(io.Discard, "", 0),
	})
	iln, iport, err := freePort()
	if err != nil {
		return err
	}
	go d.imapSrv.Serve(iln)
	d.smtpSrv = gosmtp.NewServer(demoBackend{d})
	d.smtpSrv.Domain, d.smtpSrv.AllowInsecureAuth, d.smtpSrv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	d.smtpSrv.MaxMessageBytes = 32 << 20
	sln, sport, err := freePort()
	if err != nil {
		return err
	}
	go d.smtpSrv.Serve(sln)
	d.imapPort, d.smtpPort = iport, sport
	return nil
}

func (d *demo) close() {
	if d.stopBeacon != nil {
		d.stopBeacon()
	}
	if d.imapSrv != nil {
		d.imapSrv.Close()
	}
	if d.smtpSrv != nil {
		d.smtpSrv.Close()
	}
	if d.s != nil {
		d.s.Close()
	}
	if d.logFile != nil {
		d.logFile.Close()
	}
}

func (d *demo) say(format string, args ...any) {
	fmt.Fprintf(d.progress, "%5.1fs  %s\n", time.Since(d.start).Seconds(), fmt.Sprintf(format, args...))
}

// mailFrom submits a mail to navarch by SMTP, as a player's mail program would.
func (d *demo) mailFrom(from, body string) error { return d.mailTo(from, d.address, body) }

// mailTo submits a mail to navarch at one of its addresses (a tokenized one, say).
func (d *demo) mailTo(from, to, body string) error {
	d.mu.Lock()
	d.sent++
	n := d.sent
	d.mu.Unlock()
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [navarch %s]\r\nDate: %s\r\nMessage-ID: <%d.%s>\r\n\r\n%s\r\n",
		from, to, d.tag, time.Now().UTC().Format(time.RFC1123Z), n, from, strings.ReplaceAll(body, "\n", "\r\n"))
	if err := smtp.SendMail(fmt.Sprintf("127.0.0.1:%d", d.smtpPort), nil, from, []string{to}, []byte(msg)); err != nil {
		return fmt.Errorf("submit %s's mail: %w", from, err)
	}
	return nil
}

// deliver routes one mail the SMTP server accepted; navarch's address with a subaddress
// (navarch+TOKEN@) goes to navarch's mailbox too, as Postfix and Dovecot deliver it.
func (d *demo) deliver(to string, raw []byte) error {
	local, domain, _ := strings.Cut(to, "@")
	local, _, _ = strings.Cut(local, "+")
	if strings.EqualFold(local+"@"+domain, d.address) {
		_, err := d.user.Append("INBOX", bytes.NewReader(raw), &imap.AppendOptions{})
		return err
	}
	in, perr := readDelivered(raw) // read reports perr
	d.mu.Lock()
	d.n++
	name := fmt.Sprintf("%03d-%s-%s.eml", d.n, strings.Split(to, "@")[0], slug(in.subject))
	d.mu.Unlock()
	file := filepath.Join(d.out, "mail", name)
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		return err
	}
	select {
	case d.inbox <- delivered{to: strings.ToLower(to), file: file, raw: raw, in: in, err: perr}:
	case <-d.quit:
	}
	return nil
}

var slugRE = regexp.MustCompile(`[^a-z0-9]+`)

// slug names a mail's file by its subject after the game tag, at most 60 characters.
func slug(s string) string {
	if i := strings.Index(s, "]"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	return s
}

// botOrders are the orders the ruleset's bot would send for side now, read from the
// daemon's store as a player reads the map; NONE when it has none. The game's state is its
// snapshot when that is the state of the log (play.Restore checks it against the log's last
// state record), else the whole log replayed: a replay per mail made a long game's bots
// quadratic in its length.
func (d *demo) botOrders(p *demoPlayer) (string, error) {
	side := p.side
	text := ""
	err := d.s.View(func(tx *store.Tx) error {
		id := store.Games(tx)[0]
		g := play.Restore(tx, id, d.rulesets)
		if g == nil {
			var err error
			if g, err = play.Load(tx, id, d.rulesets); err != nil {
				return err
			}
		}
		bot, ok := g.(adjudicator.Bot)
		if !ok {
			return fmt.Errorf("ruleset %T has no bot", g)
		}
		text = bot.BotOrders(side)
		as, err := ledger.Commands(tx, id)
		if err == nil && len(as) > 0 { // a team game: the player's own units' orders
			text = teamShare(g, as, p, text)
		}
		return err
	})
	if text == "" {
		text = "NONE"
	}
	return text, err
}

// saveMaps writes a report's maps to DIR/maps and checks that they decode.
func (d *demo) saveMaps(raw []byte, p *demoPlayer, kind string) error {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	turn := "0" // from the subject ("your move: T3 A12 ...") or the mail's info block ("turn 3, activation 12")
	for _, s := range []string{kind, string(raw)} {
		if m := demoTurnRE.FindStringSubmatch(s); m != nil {
			turn = m[1] + m[2]
			break
		}
	}
	for i := 0; ; i++ {
		part, err := r.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		h, ok := part.Header.(interface {
			ContentType() (string, map[string]string, error)
		})
		if ct, _, _ := h.ContentType(); !ok || ct != "image/png" {
			continue
		}
		data, err := io.ReadAll(part.Body)
		if err != nil {
			return err
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("a report's map does not decode: %w", err)
		}
		d.mu.Lock()
		name := fmt.Sprintf("%03d-T%s-%s.png", d.n, turn, p.side)
		d.mu.Unlock()
		if err := os.WriteFile(filepath.Join(d.out, "maps", name), data, 0o644); err != nil {
			return err
		}
	}
}

// demoBackend is the SMTP server's side: every accepted mail is delivered at once.
type demoBackend struct{ d *demo }

func (b demoBackend) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	return &demoSession{d: b.d}, nil
}

type demoSession struct {
	d  *demo
	to []string
}

func (s *demoSession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (s *demoSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}
func (s *demoSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, to := range s.to {
		if err := s.d.deliver(to, raw); err != nil {
			return err
		}
	}
	return nil
}
func (s *demoSession) Reset()        { s.to = nil }
func (s *demoSession) Logout() error { return nil }

// demoNames are the demo's players, in the order the sides are filled.
var demoNames, demoZones = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj"},
	[]string{"Europe/Rome", "America/New_York", "Asia/Tokyo", "UTC"}

// cast gives each side n players: the first is the side's commander, and in a team game
// (n > 1) the side's commands (adjudicator.Teams: Lepanto's wings, or its groups where a
// side has fewer wings than players) are dealt among them in turn (dealable).
func (d *demo) cast(rs adjudicator.Ruleset, sc adjudicator.Scenario, n int, spec *host.GameSpec) error {
	var teams adjudicator.Teams
	if n > 1 {
		g, err := rs.New(adjudicator.Config{Scenario: sc.ID})
		if err != nil {
			return err
		}
		t, ok := g.(adjudicator.Teams)
		if !ok {
			return fmt.Errorf("ruleset %s does not share a side among players: -players 1", rs.ID())
		}
		teams, spec.Commands = t, map[string][]string{}
	}
	if n*len(sc.Sides) > len(demoNames) {
		return fmt.Errorf("at most %d players a side", len(demoNames)/len(sc.Sides))
	}
	for i, side := range sc.Sides {
		var ids []string
		for j := range n {
			k := j*len(sc.Sides) + i
			p := &demoPlayer{id: demoNames[k], side: side, address: demoNames[k] + "@" + demoDomain}
			d.players[p.address] = p
			ids = append(ids, p.id)
			spec.Players = append(spec.Players, host.PlayerSpec{ID: p.id, Side: side, Address: p.address, Zone: demoZones[k%len(demoZones)]})
			if d.first == nil {
				d.first = p
			}
		}
		d.sides = append(d.sides, side)
		if teams == nil {
			continue
		}
		dealt := dealable(teams.Commands(side), n)
		if dealt == nil {
			return fmt.Errorf("scenario %s gives side %s fewer than %d commands to deal: fewer -players", sc.ID, side, n)
		}
		for j, id := range dealt {
			spec.Commands[ids[j%n]] = append(spec.Commands[ids[j%n]], id)
		}
	}
	return nil
}

// dealable returns the commands to deal among n players: the side's top commands where it
// has at least n, else those one level within them (Lepanto's groups, where a scenario has
// fewer wings than players a side: 13.2 has one), and so on down; nil where no level has n.
func dealable(cmds []adjudicator.Command, n int) []string {
	depth := map[string]int{}
	deepest := 0
	for _, c := range cmds { // a command comes after the one it is within (adjudicator.Teams)
		if c.Within != "" {
			depth[c.ID] = depth[c.Within] + 1
			deepest = max(deepest, depth[c.ID])
		}
	}
	for level := 0; level <= deepest; level++ {
		var ids []string
		for _, c := range cmds {
			if depth[c.ID] == level {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) >= n {
			return ids
		}
	}
	return nil
}

// teamShare is the part of the side's bot orders text that player p gives: the orders for
// units he commands, and the side's whole choices if he is its commander (play.Foreign
// refuses the rest); "" for none.
func teamShare(g adjudicator.Game, as []ledger.Assignment, p *demoPlayer, text string) string {
	orders, errs := g.Parse(p.side, text)
	if len(errs) > 0 {
		return text // refused by line as the bot wrote it
	}
	var mine []adjudicator.Order
	for _, o := range orders {
		if len(play.Foreign(g, p.side, p.id, []adjudicator.Order{o}, as)) == 0 {
			mine = append(mine, o)
		}
	}
	return strings.TrimSuffix(adjudicator.Canonical(mine), "\n")
}
