package main

import (
	"fmt"
	"io"
	"os"

	"navarch/gamelog"
	"navarch/play"
)

var replayCmd = command{
	name:    "replay",
	summary: "re-run a game's rules engine from its exported log and compare every state",
	usage: `navarch replay LOGFILE

Re-runs the game from its genesis record with the logged orders and dice: the engine
must ask for exactly the logged rolls, label by label, and reach every logged state
hash. Use the full (referee's) export, or verify first: replay checks the engine, not
the hashes. Exits 0 when every step matches, 1 otherwise, naming the record.`,
}

func init() { replayCmd.run = runReplay }

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := replayCmd.flags(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	f, ok := readLog("replay", fs.Arg(0), stdout, stderr)
	if !ok {
		return 1
	}
	rep, err := play.Replay(f, rulesets)
	fmt.Fprintf(stdout, "steps        %d re-run, %d states matched\n", rep.Steps, rep.States)
	if rep.Result != "" {
		fmt.Fprintf(stdout, "result       %s\n", rep.Result)
	}
	if rep.Stopped != "" {
		fmt.Fprintf(stdout, "ended early  before the rules' end; the next step would have been %s\n", rep.Stopped)
	}
	if err != nil {
		fmt.Fprintf(stdout, "FAIL         %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "PASS")
	return 0
}

// readLog reads and parses an exported log for a command: a file that cannot be read is the
// command's error; one that does not parse is the log's FAIL.
func readLog(cmd, name string, stdout, stderr io.Writer) (*gamelog.File, bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "navarch %s: %v\n", cmd, err)
		return nil, false
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
		return nil, false
	}
	return f, true
}
