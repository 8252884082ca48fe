package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	gomail "github.com/emersion/go-message/mail"

	"navarch/gamelog"
)

var verifyCmd = command{
	name:    "verify",
	summary: "check an exported game log offline: chain, checkpoints, reveals and every die",
	usage: `navarch verify --key KEY [--checkpoint MAIL]... [--orders MAIL]... [--sent MAILS [--player ID]] [--format FORMAT] [--beacon-key KEY] [--allow-v1] [--allow-undeclared] LOGFILE

Exits 0 when every record checks, 1 otherwise (naming the first bad record).
KEY is the verifier key from the game's genesis mail (64 hex digits); without
it, verify fails unless --trust-log-key accepts the key the log names itself
(which a rewritten log would replace). Each --checkpoint file (a saved report
mail) contributes its signed checkpoints; each --orders file (your receipt, or
your order text) must match an orders record. --sent takes your own sent mail
(.eml files or an mbox): every orders and join record in your name (--player,
or the player those mails show) must come from one of those mails, with the
entropy you gave; any other is listed and fails. A log of format navarch/v1
fails unless --allow-v1, and a navarch/v2 log whose genesis does not declare
its secrecy unless --allow-undeclared: the daemons of both could choose inputs
of the dice. --format pins the format the genesis mail states. In a game keyed
by a public randomness beacon, every round's signature is checked under the
beacon's key (drand quicknet's, or --beacon-key), and each --checkpoint mail
that named a round must have reached you (its Received or Date header) before
the round was published; the steps so proven are counted.`,
}

func init() { verifyCmd.run = runVerify }

// multi collects a repeatable flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := verifyCmd.flags(stderr)
	key := fs.String("key", "", "the installation's verifier key (hex), pinned from the genesis mail")
	trust := fs.Bool("trust-log-key", false, "without --key, accept the verifier key the log names itself")
	beaconKey := fs.String("beacon-key", "", "the public key of the game's beacon (hex), where it is not drand quicknet's")
	format := fs.String("format", "", "the log format the genesis mail states (e.g. navarch/v2): a log of another format fails")
	allowV1 := fs.Bool("allow-v1", false, "accept a log of format navarch/v1, whose daemon could choose the dice's inputs")
	allowUndeclared := fs.Bool("allow-undeclared", false, "accept a navarch/v2 log whose genesis does not declare its secrecy (a game created before navarch declared it)")
	player := fs.String("player", "", "your player id, with --sent")
	var ckpts, orders, sent multi
	fs.Var(&ckpts, "checkpoint", "a file (saved mail) holding signed checkpoints; repeatable")
	fs.Var(&orders, "orders", "a file holding your orders or your receipt; repeatable")
	fs.Var(&sent, "sent", "your sent mail (an .eml file or an mbox); repeatable")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	opts, err := verifyOptions(*key, ckpts, orders)
	if err == nil && len(sent) > 0 {
		opts.Sent, err = readSent(sent)
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch verify: %v\n", err)
		return 2
	}
	opts.TrustLogKey, opts.Player = *trust, *player
	opts.AllowV1, opts.AllowUndeclared, opts.Format = *allowV1, *allowUndeclared, *format
	if *beaconKey != "" {
		if opts.BeaconKey, err = hex.DecodeString(strings.TrimSpace(*beaconKey)); err != nil || len(opts.BeaconKey) != 96 {
			fmt.Fprintf(stderr, "navarch verify: --beacon-key: want 96 bytes of hex (a BLS12-381 G2 key)\n")
			return 2
		}
	}
	f, rep, ok := verifyLog(fs.Arg(0), opts, stdout, stderr)
	if !ok {
		return 1
	}
	printReport(stdout, fs.Arg(0), f, rep, len(opts.Sent), *player)
	if !rep.OK() {
		return 1
	}
	return 0
}

// verifyLog verifies the log in the file name as it streams past (gamelog.VerifyStream):
// its memory does not grow with the log's length, as a whole File's would. A file that
// cannot be read is said on stderr, one that does not parse is a FAIL line, as readLog says
// them.
func verifyLog(name string, opts gamelog.VerifyOptions, stdout, stderr io.Writer) (*gamelog.File, *gamelog.Report, bool) {
	file, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "navarch verify: %v\n", err)
		return nil, nil, false
	}
	defer file.Close()
	f, rep, err := gamelog.VerifyStream(file, opts)
	switch {
	case errors.Is(err, gamelog.ErrRead):
		fmt.Fprintf(stderr, "navarch verify: %v\n", err)
		return nil, nil, false
	case err != nil:
		fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
		return nil, nil, false
	}
	return f, rep, true
}

// sentWho names whose records verify --sent checked: the player given, or the one the log's
// view is for (a note names him).
func sentWho(player string) string {
	if player == "" {
		return "yours"
	}
	return player
}

func verifyOptions(key string, ckpts, orders []string) (gamelog.VerifyOptions, error) {
	var opts gamelog.VerifyOptions
	if key != "" {
		k, err := hex.DecodeString(strings.TrimSpace(key))
		if err != nil || len(k) != ed25519.PublicKeySize {
			return opts, fmt.Errorf("--key: want %d bytes of hex", ed25519.PublicKeySize)
		}
		opts.Key = k
	}
	for _, name := range ckpts {
		data, err := os.ReadFile(name)
		if err != nil {
			return opts, err
		}
		cs, err := gamelog.ParseBlocks(mailText(data))
		if err != nil {
			return opts, fmt.Errorf("%s: %w", name, err)
		}
		if len(cs) == 0 {
			return opts, fmt.Errorf("%s: no checkpoint block found", name)
		}
		for i := range cs { // when the mail reached you: a beacon round named in it was not known yet
			cs[i].Mailed = gamelog.MailTime(data)
		}
		opts.Checkpoints = append(opts.Checkpoints, cs...)
	}
	for _, name := range orders {
		data, err := os.ReadFile(name)
		if err != nil {
			return opts, err
		}
		opts.Orders = append(opts.Orders, gamelog.CanonicalOrders(string(mailText(data))))
	}
	return opts, nil
}

// printReport prints verify's report; sent is how many of the player's own mails --sent
// gave (0 without it).
func printReport(w io.Writer, name string, f *gamelog.File, r *gamelog.Report, sent int, player string) {
	fmt.Fprintf(w, "log          %s (view %s)\ngame         %x\n", name, f.View, r.Game[:])
	fmt.Fprintf(w, "format       %s\n", f.Format)
	fmt.Fprintf(w, "records      %d (%d withheld from this view)\n", r.Records, r.Redacted+r.Withheld)
	fmt.Fprintf(w, "checkpoints  %d in the log, %d from mail\n", r.Checkpoints, r.External)
	fmt.Fprintf(w, "rolls        %d, %d checked against revealed seeds\n", r.Rolls, r.RollsChecked)
	if r.BeaconSteps > 0 {
		fmt.Fprintf(w, "beacon       %d steps keyed by a verified round, %d proven fixed before their round by a mail (--checkpoint)\n", r.BeaconSteps, r.BeaconProven)
	}
	for _, t := range r.Pending {
		fmt.Fprintf(w, "pending      turn %d: its seed is not revealed yet\n", t)
	}
	for _, d := range r.Dice {
		printDie(w, d)
	}
	if r.Draws > 0 {
		fmt.Fprintf(w, "draws        %d from cups and decks (their odds change as they empty: no chi² test)\n", r.Draws)
	}
	for _, o := range r.Orders {
		fmt.Fprintf(w, "orders       hash %x: records %v, used by closes %v\n", o.Hash[:6], o.Records, o.UsedBy)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note         %s\n", n)
	}
	for _, u := range r.Unsent {
		fmt.Fprintf(w, "NOT SENT     record %d: %s\n", u.Index, u.Reason)
	}
	if r.Failure != nil {
		fmt.Fprintf(w, "FAIL         %v\n", r.Failure)
		return
	}
	if sent > 0 && len(r.Unsent) == 0 {
		fmt.Fprintf(w, "sent         %d of your mails account for every orders and join record of %s\n", sent, sentWho(player))
	}
	fmt.Fprintln(w, "PASS")
}

func printDie(w io.Writer, d gamelog.DieStats) {
	chi, dof := d.ChiSquare()
	fmt.Fprintf(w, "d%-4d        n=%d", d.Sides, d.Total)
	if d.Sides <= 20 {
		for v, c := range d.Counts {
			fmt.Fprintf(w, " %d:%d", v+1, c)
		}
	}
	switch {
	case dof > 0 && d.Total >= 5*d.Sides: // the usual rule: at least 5 rolls expected per face
		fmt.Fprintf(w, "  chi²=%.2f (%d dof; a fair die exceeds %.2f one time in 1000)", chi, dof, gamelog.Critical999(dof))
	case dof > 0:
		fmt.Fprintf(w, "  (too few rolls for a chi² test: it wants %d)", 5*d.Sides)
	}
	fmt.Fprintln(w)
}

// mailText is a saved mail's text/plain parts, transfer-decoded (quoted-printable, base64),
// so that a mail saved as .eml works as well as its text copied out; anything that is not a
// MIME mail with a text part is returned as it is.
func mailText(data []byte) []byte {
	r, err := gomail.CreateReader(bytes.NewReader(data))
	if err != nil {
		return data
	}
	var text []byte
	for {
		p, err := r.NextPart()
		if err != nil {
			break
		}
		h, ok := p.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		if ct, _, _ := h.ContentType(); ct == "text/plain" {
			b, err := io.ReadAll(p.Body)
			if err != nil {
				return data
			}
			text = append(text, b...)
		}
	}
	if len(text) == 0 {
		return data
	}
	return text
}
