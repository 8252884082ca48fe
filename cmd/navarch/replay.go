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
hash, and write exactly the logged rolls, events and states, byte for byte. Verify
first: replay checks the engine, not the hashes. A side's export re-runs up to the
first step whose orders it does not hold (the other side's hidden set-up): replay
says so (PARTIAL) and names what to ask for. Exits 0 when every step was re-run and
matches, 1 on a mismatch (naming the record), 3 when only part could be re-run.`,
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
	fmt.Fprintf(stdout, "steps        %d re-run, %d states matched, %d records re-derived byte for byte\n", rep.Steps, rep.States, rep.Records)
	if rep.Withheld > 0 {
		fmt.Fprintf(stdout, "withheld     %d records of the re-run steps are not in this view and were not compared\n", rep.Withheld)
	}
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
	if rep.Incomplete != "" || rep.Steps == 0 {
		why := rep.Incomplete
		if why == "" {
			why = "the log has no step to re-run"
		}
		fmt.Fprintf(stdout, "PARTIAL      %s\n", why)
		return 3
	}
	fmt.Fprintln(stdout, "PASS")
	return 0
}

// readLog reads and parses an exported log for a command: a file that cannot be read is the
// command's error; one that does not parse is the log's FAIL.
func readLog(cmd, name string, stdout, stderr io.Writer) (*gamelog.File, bool) {
	if st, err := os.Stat(name); err == nil && ownProcess {
		quietCollector(st.Size())
	}
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "navarch %s: %v\n", cmd, err)
		return nil, false
	}
	f, err := gamelog.ParseFile(data) // f keeps data, which nothing here changes
	if err != nil {
		fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
		return nil, false
	}
	return f, true
}
