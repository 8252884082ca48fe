package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"navarch/mail"
	listed "navarch/rulesets"
)

var demoCmd = command{
	name:    "demo",
	summary: "play a demo game by real IMAP and SMTP on loopback, then verify and replay its log",
	usage: `navarch demo [-out DIR] [-rules RULESET] [-scenario S] [-turns N] [-maps=false]

Starts an IMAP server (go-imap's memory server) and an SMTP server (go-smtp) in this process
on loopback, creates a game and runs the daemon on them. Only a ruleset whose games have a
bot (adjudicator.Bot) can be played: it plays the sides. Two scripted players (the bot) read their mail and answer it by SMTP: JOIN with the key from the welcome mail, then
orders for every request, the first of them with a mistake that they correct. After N turns
the referee ends the game by mail. DIR receives every mail sent (mail/*.eml), every map
(maps/*.png), the exported logs (game.log, the full one, and one per side), the daemon's log
(navarch.log) and its database; at the end the full log is checked with navarch verify
(against the verifier key and a checkpoint from a player's saved mail) and navarch replay.
DIR must be new, empty or an earlier demo's (which is cleared). With -maps=false the daemon
draws no maps (the reports go without them, as a ruleset's without a map do): a whole game
plays several times faster, which the tests under the race detector need.`,
}

func init() { demoCmd.run = runDemo }

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := demoCmd.flags(stderr)
	out := fs.String("out", "navarch-demo", "the directory for the mails, maps and logs")
	defID, defScenario := "", ""
	if d := listed.WithBot(list); len(d) > 0 {
		defID, defScenario = d[0].Rules.ID(), d[0].Demo
	}
	ruleset := fs.String("rules", defID, "the ruleset, one with a bot: "+strings.Join(listed.IDs(listed.WithBot(list)), ", "))
	scenario := fs.String("scenario", "", "the scenario (default: the ruleset's demo scenario, "+defScenario+" for "+defID+")")
	turns := fs.Int("turns", 2, "turns to play before the referee ends the game")
	withMaps := fs.Bool("maps", true, "draw the reports' maps (false: reports without maps, a faster game)")
	players := fs.Int("players", 1, "players a side: more than 1 plays a team game, the side's wings (a ruleset's top commands) dealt among them, one bot each")
	withBeacon := fs.Bool("beacon", false, "key every step with a local public randomness beacon (a relay on loopback with its own key), as drand quicknet keys a configured installation's")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 || *turns < 1 || *players < 1 {
		fs.Usage()
		return 2
	}
	d, err := newDemo(*out, *ruleset, *scenario, *turns, stdout, demoOptions{beacon: *withBeacon, maps: *withMaps, players: *players})
	if err != nil {
		fmt.Fprintf(stderr, "navarch demo: %v\n", err)
		return 1
	}
	defer d.close()
	// A cap on the whole game; a stalled daemon is caught sooner (play: a minute without mail).
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*turns)*10*time.Minute)
	defer cancel()
	if err := d.play(ctx); err != nil {
		fmt.Fprintf(stderr, "navarch demo: %v\n", err)
		return 1
	}
	return d.audit(stdout, stderr)
}

var (
	demoKeyRE      = regexp.MustCompile(`Your secret order key: (\S+)`)
	demoRefKeyRE   = regexp.MustCompile(`Your secret referee key: (\S+)`)
	demoVerifierRE = regexp.MustCompile(`verifier key +([0-9a-f]{64})`)
	demoTurnRE     = regexp.MustCompile(`\bT(\d+) A\d+\b|\bturn (\d+), activation`)
	demoReplyToRE  = regexp.MustCompile(`(?m)^Reply-To: <?([^<>\s]+)>?\r?$`)
)

// play runs the daemon and the players until both players have the game-over mail.
func (d *demo) play(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				served <- fmt.Errorf("daemon panic: %v", p)
			}
		}()
		served <- d.h.Serve(ctx, &mail.Intake{IMAP: mail.IMAP{Host: "127.0.0.1", Port: d.imapPort, TLS: mail.TLSNone,
			Username: d.address, Password: demoPassword, Poll: time.Second, Timeout: 10 * time.Second}, Log: d.log},
			mail.SMTP{Host: "127.0.0.1", Port: d.smtpPort, TLS: mail.TLSNone, From: d.address, Timeout: 10 * time.Second})
	}()
	defer func() { close(d.quit); stop(); <-served }() // quit first: deliveries stop waiting for a reader
	over := 0
	for over < len(d.players) {
		var m delivered
		select {
		case m = <-d.inbox:
		case err := <-served:
			return fmt.Errorf("the daemon stopped: %w", err)
		case <-time.After(time.Minute):
			return errors.New("no mail from the daemon for a minute")
		case <-ctx.Done():
			return ctx.Err()
		}
		done, err := d.read(m)
		if err != nil {
			return err
		}
		if done {
			over++
		}
	}
	return nil
}

// read is a player's (or the referee's) answer to one mail; it reports the game-over mail.
func (d *demo) read(m delivered) (bool, error) {
	if m.err != nil {
		return false, fmt.Errorf("a mail navarch sent does not parse: %w", m.err)
	}
	in, p := m.in, d.players[m.to]
	_, kind, _ := strings.Cut(in.subject, "] ") // "[navarch TAG] Your move by Fri 18:00 UTC: group BAR" → "Your move by …"
	if p == nil {
		// the referee reads and keeps, and takes the key from the welcome
		if k := demoRefKeyRE.FindStringSubmatch(in.text); k != nil && m.to == demoReferee {
			d.refereeKey = k[1]
		}
		return false, nil
	}
	d.say("%-5s ← %s", p.id, kind)
	switch {
	case strings.HasSuffix(kind, "welcome"):
		k, v := demoKeyRE.FindStringSubmatch(in.text), demoVerifierRE.FindStringSubmatch(in.text)
		if k == nil || v == nil {
			return false, errors.New("a welcome mail without a key or verifier key")
		}
		p.key, d.verifier = k[1], v[1]
		if r := demoReplyToRE.FindSubmatch(m.raw); r != nil && p == d.first {
			p.replyTo = string(r[1])
			d.say("%-5s   answers to her reply address %s, without KEY lines", p.id, p.replyTo)
		}
		return false, d.send(p, "JOIN")
	case strings.Contains(kind, "refused"):
		d.say("        %s", firstError(in.text))
		return false, d.answer(p, kind)
	case strings.HasPrefix(strings.ToLower(kind), "game over"):
		d.lastMail[p.id] = m.file
		return true, nil
	}
	// A report, a request or a turn's summary may carry a map (every one is saved), the
	// turn's end and the request for orders (host/subject.go).
	if err := d.saveMaps(m.raw, p, kind); err != nil {
		return false, err
	}
	if demoTurnOverRE.MatchString(kind) || demoTurnEndRE.MatchString(in.text) {
		p.turns++
		if p == d.first && p.turns == d.turns {
			d.say("referee → ENDGAME after %d turns", d.turns)
			return false, d.mailFrom(demoReferee, "ENDGAME the demo's turns are played\nKEY "+d.refereeKey)
		}
	}
	if strings.HasPrefix(strings.ToLower(kind), "your move") {
		return false, d.answer(p, kind)
	}
	return false, nil
}

// demoTurnOverRE finds a turn's end in a subject: "Turn 2 over: …", "Your move by …: group BAR ·
// turn 2 over".
var demoTurnOverRE = regexp.MustCompile(`(?i)\bturn \d+ over\b`)

// demoTurnEndRE finds a turn's end in a mail's text (templates' turnend part), the subject
// clipped or not.
var demoTurnEndRE = regexp.MustCompile(`(?m)^game turn \d+ is over\.`)

// answer sends the bot's orders; the first real orders of the game go out with a mistake.
func (d *demo) answer(p *demoPlayer, kind string) error {
	orders, err := d.botOrders(p)
	if err != nil {
		return err
	}
	if orders != "NONE" && !d.mistaken {
		d.mistaken = true
		d.say("%-5s → orders with a mistake (a unit that does not exist)", p.id)
		return d.send(p, "NOSUCH-UNIT MOVE 0101\n"+orders)
	}
	d.say("%-5s → %s", p.id, summary(orders))
	return d.send(p, orders)
}

func (d *demo) send(p *demoPlayer, body string) error {
	if p.replyTo != "" {
		return d.mailTo(p.address, p.replyTo, body)
	}
	return d.mailFrom(p.address, body+"\nKEY "+p.key)
}

// firstError is the errors mail's first error and its reason, on one line.
func firstError(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "line ") {
			if i+1 < len(lines) {
				return l + " (" + strings.TrimSpace(lines[i+1]) + ")"
			}
			return l
		}
	}
	return "(errors by line)"
}

func summary(orders string) string {
	if orders == "NONE" {
		return "NONE"
	}
	return fmt.Sprintf("%d orders", strings.Count(orders, "\n")+1)
}

func freePort() (net.Listener, int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, 0, err
	}
	return ln, ln.Addr().(*net.TCPAddr).Port, nil
}

// audit exports the logs and checks the full one as a referee would: verify, then replay.
func (d *demo) audit(stdout, stderr io.Writer) int {
	full := filepath.Join(d.out, "game.log")
	if err := d.export(full, ""); err != nil {
		fmt.Fprintf(stderr, "navarch demo: %v\n", err)
		return 1
	}
	for _, side := range d.sides {
		if err := d.export(filepath.Join(d.out, side+".log"), side); err != nil {
			fmt.Fprintf(stderr, "navarch demo: %v\n", err)
			return 1
		}
	}
	args := []string{"--key", d.verifier, "--checkpoint", d.lastMail[d.first.id]}
	if d.beacon != nil { // and all her mails: each that named a round before it came proves its step
		args = append(args, "--beacon-key", hex.EncodeToString(d.beacon.Chain.Key))
		names, _ := filepath.Glob(filepath.Join(d.out, "mail", "*-"+d.first.id+"-*.eml"))
		for _, n := range names {
			if n != d.lastMail[d.first.id] {
				args = append(args, "--checkpoint", n)
			}
		}
	}
	args = append(args, full)
	fmt.Fprintf(stdout, "\n$ navarch verify %s\n", strings.Join(args, " "))
	if code := runVerify(args, stdout, stderr); code != 0 {
		return code
	}
	fmt.Fprintf(stdout, "\n$ navarch replay %s\n", full)
	if code := runReplay([]string{full}, stdout, stderr); code != 0 {
		return code
	}
	fmt.Fprintf(stdout, "\nThe demo's mails, maps and logs are in %s.\n", d.out)
	return 0
}

func (d *demo) export(path, side string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := d.h.Export(f, d.tag, side); err != nil {
		f.Close()
		return fmt.Errorf("export %s: %w", path, err)
	}
	return f.Close()
}
