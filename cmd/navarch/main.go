// Command navarch is the play-by-email adjudicator for naval wargames: it serves games by
// mail, verifies exported game logs and keeps the database.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
)

// command is one subcommand: its name, a one-line summary, its usage text and its body. run
// returns the process exit status.
type command struct {
	name, summary, usage string
	run                  func(args []string, stdout, stderr io.Writer) int
	// runIn, instead of run, for the database commands that the daemon can run for the
	// command line (control.go).
	runIn func(c *cli, args []string) int
}

func commands() []command {
	return []command{demoCmd, serveCmd, gameCmd, verifyCmd, replayCmd, webverifyCmd, renderCmd, rulesCmd, parkedCmd, droppedCmd, backupCmd, compactCmd, checkCmd, healthCmd, versionCmd}
}

func main() {
	ownProcess = true
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0]) {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] && c.runIn != nil {
			return c.runIn(&cli{stdout: stdout, stderr: stderr, args: args}, args[1:])
		}
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "navarch: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: navarch <command> [flags] [args]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'navarch <command> -h' for a command's flags.")
}

// flags returns a FlagSet that prints the command's usage text on -h.
func (c command) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", c.usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; it returns the exit status to use when the command must stop.
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// runIn runs a database command where c says (the daemon, for a command line it was sent).
func runIn(c *cli, args []string) int {
	for _, cmd := range commands() {
		if cmd.name == args[0] && cmd.runIn != nil {
			return cmd.runIn(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "navarch: %q is not a database command\n", args[0])
	return 2
}
