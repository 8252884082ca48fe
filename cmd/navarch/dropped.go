package main

import (
	"fmt"
	"io"

	"navarch/host"
)

var droppedCmd = command{
	name:    "dropped",
	summary: "list the mails dropped unanswered, and why",
	usage: `navarch dropped -config FILE [-game TAG]

navarch answers every mail it reads, except mail that must not be answered: its own mail
coming back (known by the Message-IDs it writes), auto-replies, bounces and delivery
reports, mailing lists, mail that asks not to be auto-answered (Precedence: bulk,
X-Auto-Response-Suppress) and does not authenticate, mail over its sender's hourly limit,
and mail with no sender to answer. Each such mail is logged, counted by reason in the
metrics (navarch_mails_dropped_total), and noted: this lists the latest notes (when, from
whom, its subject, the game it names, why), oldest first; -game TAG only those naming a
game (navarch game mail TAG shows them too). A copy of a mail handled before (the same
sender and Message-ID) is counted as "duplicate" but not listed. While the daemon runs, it
runs this command for the command line.`,
}

func init() { droppedCmd.runIn = runDropped }

func runDropped(c *cli, args []string) int {
	fs := droppedCmd.flags(c.stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	tag := fs.String("game", "", "only the mail naming this game")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	h, done, code, ok := c.host("dropped", *path)
	if !ok {
		return code
	}
	defer done()
	if err := droppedList(h, c.stdout, *tag); err != nil {
		fmt.Fprintf(c.stderr, "navarch dropped: %v\n", err)
		return 1
	}
	return 0
}

func droppedList(h *host.Host, w io.Writer, tag string) error {
	notes, err := h.Dropped(tag)
	if err != nil {
		return err
	}
	if len(notes) == 0 {
		fmt.Fprintln(w, "no dropped mail")
	}
	for _, m := range notes {
		game := m.Game
		if game == "" {
			game = "-"
		}
		fmt.Fprintf(w, "%d  %s  %-10s %s  %s  %q  %s\n    %s\n", m.Seq, m.At.Format("2006-01-02 15:04Z"), m.Reason, game, m.From, m.Subject, m.MessageID, m.Why)
	}
	return nil
}
