package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"navarch/host"
	"navarch/mail"
)

var gameCmd = command{
	name:    "game",
	summary: "create, list, show, export, pause, resume, extend, replace and end games; read their mail",
	usage: `navarch game new -config FILE -ruleset R -scenario S -player ID:SIDE:ADDRESS:ZONE... [-referee ADDRESS]...
           [-options O,O] [-tables FILE] [-deadline D] [-reminder D|off] [-no-orders default|referee]
       navarch game list -config FILE
       navarch game show -config FILE TAG
       navarch game export -config FILE [-side SIDE] TAG > FILE.log
       navarch game mail -config FILE TAG [N]
       navarch game pause -config FILE TAG [HOURS]
       navarch game resume -config FILE TAG
       navarch game extend -config FILE TAG [HOURS]
       navarch game replace -config FILE TAG PLAYER ADDRESS [ZONE]
       navarch game proceed -config FILE TAG
       navarch game rekey -config FILE TAG PLAYER|REFEREE-ADDRESS
       navarch game end -config FILE TAG [RESULT...]

new creates a game and queues its welcome mails (the daemon sends them); each player
gets a secret key. -deadline is the time for orders, in hours (48) or as a duration in
whole minutes (90m, 1h30m; at least 1m, for quick games and tests); -reminder how long before
the deadline the late players are reminded, or off for no reminder; each defaults to the
configuration's deadline_hours and reminder_hours (-deadline-hours and -reminder-hours, in
hours, 0 meaning the configuration's, still work). mail lists every mail received for the game (kept raw for audit), or
prints mail N as it arrived. pause, resume, extend, replace, proceed, rekey and end act as the
referee's mail commands do: written to the log and announced to everyone (the daemon
sends the mails). While the daemon runs, it runs these commands for the command line
(through its control socket).`,
}

func init() { gameCmd.runIn = runGame }

var operatorCommands = map[string]string{"pause": mail.CmdPause, "resume": mail.CmdResume, "extend": mail.CmdExtend,
	"replace": mail.CmdReplace, "end": mail.CmdEnd, "proceed": mail.CmdProceed, "rekey": mail.CmdRekey}

func runGame(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(stderr, "usage: %s\n", gameCmd.usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub, args := args[0], args[1:]
	fs := gameCmd.flags(stderr)
	path := fs.String("config", "navarch.json", "the configuration file")
	var players, referees, commands multi
	ruleset := fs.String("ruleset", rulesets[0].ID(), "new: the ruleset")
	scenario := fs.String("scenario", "", "new: the scenario")
	options := fs.String("options", "", "new: optional rules, comma-separated")
	tables := fs.String("tables", "", "new: a corrected table file")
	deadline := fs.Int("deadline-hours", 0, "new: hours for orders (0: the configuration's deadline_hours)")
	reminder := fs.Int("reminder-hours", 0, "new: a reminder this many hours before a deadline (0: the configuration's reminder_hours)")
	deadlineSpan := fs.String("deadline", "", "new: the time for orders: hours (48) or a duration in whole minutes (90m)")
	reminderSpan := fs.String("reminder", "", "new: a reminder this long before a deadline (hours, or 30m), or off")
	noOrders := fs.String("no-orders", host.NoOrdersDefault, "new: at a deadline without orders, apply the rules' default, or wait for the referee (default|referee)")
	side := fs.String("side", "", "export: the side whose copy to write (default: the full log)")
	fs.Var(&players, "player", "new: ID:SIDE:ADDRESS:ZONE; repeatable")
	fs.Var(&referees, "referee", "new: a referee's address; repeatable")
	fs.Var(&commands, "command", "new: ID:COMMAND,COMMAND: what a player of a side shared by several commands (the ruleset's wings, groups, divisions: navarch rules); repeatable")
	commander := fs.String("commander", "", "new: the commanders of shared sides, comma-separated player ids (default: each side's first player)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	readOnly := sub == "list" || sub == "show" || sub == "export" || sub == "mail" // a damaged file reported, not a panic
	h, done, code, ok := c.host("game", *path, readOnly)
	if !ok {
		return code
	}
	defer done()
	var err error
	switch sub {
	case "new":
		spec := host.GameSpec{Ruleset: *ruleset, Scenario: *scenario, Referees: referees,
			DeadlineHours: *deadline, ReminderHours: *reminder, NoOrders: *noOrders}
		if err = spans(&spec, *deadlineSpan, *reminderSpan); err == nil {
			if err = teamFlags(&spec, commands, *commander); err == nil {
				err = gameNew(h, stdout, spec, *options, c.path(*tables), players)
			}
		}
	case "list":
		err = gameList(h, stdout)
	case "show", "export":
		if fs.NArg() != 1 {
			fs.Usage()
			return 2
		}
		if sub == "show" {
			err = h.Show(stdout, fs.Arg(0))
		} else {
			err = h.Export(stdout, fs.Arg(0), *side)
		}
	case "mail":
		var n uint64
		if fs.NArg() == 2 {
			n, err = strconv.ParseUint(fs.Arg(1), 10, 64)
		}
		if fs.NArg() < 1 || fs.NArg() > 2 || err != nil || fs.NArg() == 2 && n == 0 {
			fs.Usage()
			return 2
		}
		err = h.Mails(stdout, fs.Arg(0), n)
	case "pause", "resume", "extend", "replace", "end", "proceed", "rekey":
		if fs.NArg() < 1 {
			fs.Usage()
			return 2
		}
		var text string
		text, err = h.Operate(fs.Arg(0), operatorCommands[sub], fs.Args()[1:])
		if err == nil {
			fmt.Fprintln(stdout, text)
		}
	default:
		fmt.Fprintf(stderr, "navarch game: unknown subcommand %q\n", sub)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "navarch game %s: %v\n", sub, err)
		return 1
	}
	return 0
}

func gameNew(h *host.Host, stdout io.Writer, spec host.GameSpec, options, tables string, players []string) error {
	if options != "" {
		spec.Options = strings.Split(options, ",")
	}
	if tables != "" {
		data, err := os.ReadFile(tables)
		if err != nil {
			return err
		}
		spec.Tables = data
	}
	for _, p := range players {
		f := strings.SplitN(p, ":", 4)
		if len(f) < 3 {
			return fmt.Errorf("-player %q: want ID:SIDE:ADDRESS:ZONE", p)
		}
		if len(f) == 3 {
			f = append(f, "UTC")
		}
		spec.Players = append(spec.Players, host.PlayerSpec{ID: f[0], Side: f[1], Address: f[2], Zone: f[3]})
	}
	if list, ok := spec.Commanders[""]; ok { // -commander: each player id names his side's commander
		spec.Commanders = map[string]string{}
		for _, id := range strings.Split(list, ",") {
			i := slices.IndexFunc(spec.Players, func(p host.PlayerSpec) bool { return p.ID == strings.TrimSpace(id) })
			if i < 0 {
				return fmt.Errorf("-commander %s: not a -player of the game", id)
			}
			spec.Commanders[spec.Players[i].Side] = spec.Players[i].ID
		}
	}
	tag, err := h.CreateGame(spec)
	if err == nil {
		fmt.Fprintf(stdout, "created game %s; its welcome mails are queued\n", tag)
	}
	return err
}

// teamFlags reads -command ID:CMD,CMD (repeatable) and -commander ID,ID into the spec;
// gameNew's players give the commanders their sides.
func teamFlags(spec *host.GameSpec, commands []string, commanders string) error {
	for _, c := range commands {
		id, list, ok := strings.Cut(c, ":")
		if !ok || id == "" || list == "" {
			return fmt.Errorf("-command %q: want ID:COMMAND,COMMAND (alice:BAR,CAN)", c)
		}
		if spec.Commands == nil {
			spec.Commands = map[string][]string{}
		}
		id = strings.ToLower(id)
		for _, x := range strings.Split(list, ",") {
			spec.Commands[id] = append(spec.Commands[id], strings.ToUpper(strings.TrimSpace(x)))
		}
	}
	if commanders != "" {
		spec.Commanders = map[string]string{"": commanders} // resolved to sides by gameNew
	}
	return nil
}

func gameList(h *host.Host, stdout io.Writer) error {
	games, err := h.List()
	for _, g := range games {
		fmt.Fprintln(stdout, g)
	}
	return err
}

// spans reads -deadline and -reminder into the spec, a refusal naming the flag and what was
// typed.
func spans(spec *host.GameSpec, deadline, reminder string) error {
	var err error
	if deadline != "" {
		if spec.Deadline, _, err = host.ParseSpan(deadline, false); err != nil {
			return fmt.Errorf("-deadline: %w", err)
		}
	}
	if reminder != "" {
		if spec.Reminder, spec.NoReminder, err = host.ParseSpan(reminder, true); err != nil {
			return fmt.Errorf("-reminder: %w", err)
		}
	}
	return nil
}
