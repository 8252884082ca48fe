package host

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/mail"
	"navarch/store"
)

// newGameByMail creates a game for a game master's NEWGAME mail (docs/DESIGN.md 3.1): the scenario
// after the word, then a line for each setting. The sender becomes a referee of the game. A
// mistake is answered and nothing is created. The NEWGAME mail is kept as the game's first.
//
//	NEWGAME lions-at-sea
//	RULESET lepanto1571                     (default: the host's first ruleset)
//	PLAYER alice christian alice@example.org Europe/Rome
//	PLAYER bob ottoman bob@example.com America/New_York
//	COMMAND alice LEFT,CENTER               (a side of several players: each one's commands)
//	COMMANDER alice                         (default: the side's first player)
//	REFEREE second-referee@example.net      (any number)
//	OPTIONS wind,sailing
//	DEADLINE 48                             (hours, or 90m; REMINDER 6, 30m or OFF; NOORDERS referee)
//	KEY the-game-master's-key               (from the configuration's game_masters)
func (h *Host) newGameByMail(tx *store.Tx, in *mail.Incoming, raw []byte, req mail.Request) error {
	answer := func(lines ...string) error { return h.strangerMail(tx, in.From, in.MessageID, "newgame", lines...) }
	refuse := func(reason string, lines ...string) error {
		return h.unauthenticated(tx, in, func() error { h.rejected(tx, reason); return answer(lines...) })
	}
	if _, ok := h.cfg.GameMasters[in.From]; !ok {
		h.log.Warn("NEWGAME refused: not a game master", "message-id", in.MessageID, "from", in.From)
		return refuse(RejectStranger, "Only this server's game masters may create games by mail; nothing was created. Ask its operator.")
	}
	if !h.gameMaster(in.From, req.Key) {
		h.log.Warn("NEWGAME refused: a game master's address without the game master's key (forged, or the key mistyped)", "message-id", in.MessageID, "from", in.From)
		return refuse(RejectForged, "No game was created: a game master's NEWGAME mail needs the game master's key from this server's configuration, on a line KEY followed by the key.",
			"If you did not send it, someone has used your address; without the key it can create nothing.")
	}
	if h.cfg.DKIMAuthServID != "" && !mail.DKIMAligned(in, h.cfg.DKIMAuthServID) {
		h.log.Warn("NEWGAME refused: the game master's key without an aligned DKIM pass (the key may be known to someone else)", "message-id", in.MessageID, "from", in.From)
		return refuse(RejectForged, "Your mail was not applied: this server requires mail signed (DKIM) by your mail domain, and found no such signature.")
	}
	spec, err := readSpec(req)
	if !slices.Contains(spec.Referees, in.From) {
		spec.Referees = append([]string{in.From}, spec.Referees...)
	}
	if spec.Ruleset == "" && len(h.rulesets) > 0 {
		spec.Ruleset = h.rulesets[0].ID()
	}
	if err == nil {
		err = h.checkSpec(spec)
	}
	if err != nil {
		return answer("No game was created: "+err.Error()+".", "", newGameHelp)
	}
	g, err := h.createGame(tx, spec)
	if err != nil {
		return err // checked above: what fails now is ours
	}
	if _, err := store.AddReceived(tx, h.gameID(g), store.ReceivedMail{At: h.cfg.Now().UTC(), From: in.From, Subject: in.Subject,
		MessageID: in.MessageID, Raw: raw}); err != nil { // the game's first mail: how it was made
		return err
	}
	return answer(fmt.Sprintf("Game %s (%s, %s) is created; its welcome mails are on their way, yours as referee among them.",
		g.Tag, g.Ruleset, g.Scenario))
}

// newGameHelp is the NEWGAME mail's form.
const newGameHelp = `Write, one per line:
  NEWGAME SCENARIO
  PLAYER ID SIDE ADDRESS [ZONE]        (one per player; every side needs one, a side may have several)
  COMMAND ID COMMAND,COMMAND           (optional: what a player of a shared side commands; navarch rules lists them)
  COMMANDER ID                         (optional: his side's commander; default its first player)
  RULESET ID                           (optional; navarch rules lists them)
  REFEREE ADDRESS                      (optional: more referees; you are one)
  OPTIONS OPTION,OPTION                (optional)
  DEADLINE HOURS (or 90m), REMINDER HOURS (or 30m, or OFF), NOORDERS default|referee   (optional)
  KEY YOUR-GAME-MASTER-KEY             (required)`

// readSpec reads a NEWGAME request's lines into a game spec, the sender a referee.
func readSpec(req mail.Request) (GameSpec, error) {
	var spec GameSpec
	if len(req.Args) != 1 {
		return spec, fmt.Errorf("NEWGAME takes the scenario, like NEWGAME lions-at-sea")
	}
	spec.Scenario = strings.ToLower(req.Args[0])
	for _, l := range req.Orders {
		if err := spec.line(l.Text); err != nil {
			return spec, fmt.Errorf("line %d: %q: %w", l.N, l.Text, err)
		}
	}
	return spec, nil
}

func (spec *GameSpec) line(text string) error {
	f := strings.Fields(text)
	word, args := strings.ToUpper(f[0]), f[1:]
	one := func() (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%s takes one word", word)
		}
		return args[0], nil
	}
	spanOf := func(off bool) (d time.Duration, isOff bool, err error) {
		a, err := one()
		if err != nil {
			return 0, false, err
		}
		if d, isOff, err = ParseSpan(a, off); err != nil {
			return 0, false, fmt.Errorf("%s: %w", word, err)
		}
		return d, isOff, nil
	}
	var err error
	switch word {
	case "PLAYER":
		if len(args) < 3 || len(args) > 4 {
			return fmt.Errorf("write PLAYER ID SIDE ADDRESS [ZONE]")
		}
		p := PlayerSpec{ID: strings.ToLower(args[0]), Side: strings.ToLower(args[1]), Address: strings.ToLower(args[2]), Zone: "UTC"}
		if len(args) == 4 {
			p.Zone = args[3]
		}
		spec.Players = append(spec.Players, p)
	case "RULESET":
		spec.Ruleset, err = one()
		spec.Ruleset = strings.ToLower(spec.Ruleset)
	case "REFEREE":
		var r string
		r, err = one()
		spec.Referees = append(spec.Referees, strings.ToLower(r))
	case "OPTIONS":
		var o string
		o, err = one()
		spec.Options = strings.Split(strings.ToLower(o), ",")
	case "DEADLINE":
		spec.Deadline, _, err = spanOf(false)
	case "REMINDER":
		spec.Reminder, spec.NoReminder, err = spanOf(true)
	case "COMMAND": // COMMAND alice BAR,CAN: what a player of a shared side commands
		if len(args) != 2 {
			return fmt.Errorf("write COMMAND PLAYER COMMAND,COMMAND (COMMAND alice BAR,CAN)")
		}
		if spec.Commands == nil {
			spec.Commands = map[string][]string{}
		}
		id := strings.ToLower(args[0])
		for _, c := range strings.Split(args[1], ",") {
			spec.Commands[id] = append(spec.Commands[id], strings.ToUpper(c))
		}
	case "COMMANDER": // COMMANDER carol: the commander of her side (default: its first player)
		var id string
		if id, err = one(); err == nil {
			id = strings.ToLower(id)
			i := slices.IndexFunc(spec.Players, func(p PlayerSpec) bool { return p.ID == id })
			if i < 0 {
				return fmt.Errorf("COMMANDER %s: write his PLAYER line first", id)
			}
			if spec.Commanders == nil {
				spec.Commanders = map[string]string{}
			}
			spec.Commanders[spec.Players[i].Side] = id
		}
	case "NOORDERS":
		spec.NoOrders, err = one()
		spec.NoOrders = strings.ToLower(spec.NoOrders)
	default:
		return fmt.Errorf("not a NEWGAME line; %s", strings.ReplaceAll(newGameHelp, "\n", " "))
	}
	return err
}
