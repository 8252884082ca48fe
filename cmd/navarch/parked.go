package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"navarch/host"
)

var parkedCmd = command{
	name:    "parked",
	summary: "list, show, retry or drop the mails set aside after our own failures",
	usage: `navarch parked [list] -config FILE
       navarch parked show -config FILE N
       navarch parked retry -config FILE
       navarch parked drop -config FILE N

A mail that navarch fails to handle five times in a row (a fault of ours, not the sender's:
a bug, a broken game) or that makes it panic is parked: kept whole in the database, flagged
in the mailbox, its sender told that nothing was applied and that it need not be sent again,
so that the mail behind it is not held up. The daemon retries parked mails when it starts
and every 15 minutes; those that succeed are applied and answered as usual.

list shows them with their number; show prints one with the whole failure and the mail;
retry handles them all again now; drop gives up on one (it will never be applied, and its
sender is not told). While the daemon runs, it runs these commands for the command line.`,
}

func init() { parkedCmd.runIn = runParked }

func runParked(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := parkedCmd.flags(stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	var seq uint64
	switch sub {
	case "list", "retry":
		if fs.NArg() != 0 {
			fs.Usage()
			return 2
		}
	case "show", "drop":
		n, err := strconv.ParseUint(fs.Arg(0), 10, 64)
		if fs.NArg() != 1 || err != nil {
			fmt.Fprintf(stderr, "navarch parked %s: give the number of a parked mail (see navarch parked list)\n", sub)
			return 2
		}
		seq = n
	default:
		fmt.Fprintf(stderr, "navarch parked: unknown subcommand %q\n", sub)
		return 2
	}
	h, done, code, ok := c.host("parked", *path, sub == "list" || sub == "show")
	if !ok {
		return code
	}
	defer done()
	var err error
	switch sub {
	case "list":
		err = parkedList(h, stdout)
	case "show":
		err = parkedShow(h, stdout, seq)
	case "retry":
		var handled, left int
		if handled, left, err = h.RetryParked(); err == nil {
			fmt.Fprintf(stdout, "%d handled (their answers are queued for the daemon), %d still parked\n", handled, left)
		}
	case "drop":
		if err = h.DropParked(seq); err == nil {
			fmt.Fprintf(stdout, "dropped parked mail %d\n", seq)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch parked %s: %v\n", sub, err)
		return 1
	}
	return 0
}

func parkedList(h *host.Host, stdout io.Writer) error {
	parked, err := h.Parked()
	if err != nil {
		return err
	}
	if len(parked) == 0 {
		fmt.Fprintln(stdout, "no parked mail")
	}
	for _, m := range parked {
		cause, _, _ := strings.Cut(m.Cause, "\n")
		fmt.Fprintf(stdout, "%d  %s  tried %d× since parked  %s  %q\n    %s\n", m.Seq, m.At.Format("2006-01-02 15:04Z"), m.Attempts, m.From, m.Subject, cause)
	}
	return nil
}

func parkedShow(h *host.Host, stdout io.Writer, seq uint64) error {
	parked, err := h.Parked()
	if err != nil {
		return err
	}
	for _, m := range parked {
		if m.Seq == seq {
			fmt.Fprintf(stdout, "parked mail %d\nmessage-id  %s\nfrom        %s\nsubject     %s\nparked at   %s\ntries       %d since parked\nfailure     %s\n\n%s",
				m.Seq, m.Key, m.From, m.Subject, m.At.Format("2006-01-02 15:04:05Z"), m.Attempts, m.Cause, m.Raw)
			return nil
		}
	}
	return fmt.Errorf("no parked mail %d", seq)
}
