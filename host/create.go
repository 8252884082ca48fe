package host

import (
	"cmp"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"io"
	netmail "net/mail"
	"slices"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/ledger"
	"navarch/play"
	"navarch/store"
	"navarch/templates"
)

// GameSpec is a new game (docs/DESIGN.md 3.1).
type GameSpec struct {
	Ruleset, Scenario string
	Options           []string
	Tables            []byte
	Players           []PlayerSpec
	Referees          []string
	// The deadline policy: hours (0: the installation's), or Deadline and Reminder in whole
	// minutes (0: the hours), NoReminder for none (ParseSpan reads them as written); and
	// NoOrdersDefault or NoOrdersReferee ("" is the default).
	DeadlineHours, ReminderHours int
	Deadline, Reminder           time.Duration
	NoReminder                   bool
	NoOrders                     string
	// Commands share sides among players (team games): each player's commands of the
	// ruleset's (adjudicator.Teams), and each team side's commander by side (default: its
	// first player listed).
	Commands   map[string][]string
	Commanders map[string]string
}

// checkSpec refuses, before anything is written, a spec that cannot make a game: the
// ruleset, scenario and options, a player for every side, the players' ids, addresses and
// zones, the deadline policy.
func (h *Host) checkSpec(spec GameSpec) error {
	rs, err := play.Find(h.rulesets, spec.Ruleset)
	if err != nil {
		return err
	}
	cfg := adjudicator.Config{Scenario: spec.Scenario, Options: spec.Options}
	if len(spec.Tables) > 0 {
		cfg.Tables = map[string][]byte{rs.ID(): spec.Tables}
	}
	i := slices.IndexFunc(rs.Scenarios(), func(s adjudicator.Scenario) bool { return s.ID == spec.Scenario })
	if i < 0 {
		return fmt.Errorf("%s has no scenario %q", rs.ID(), spec.Scenario)
	}
	eng, err := rs.New(cfg)
	if err != nil {
		return err
	}
	if err := checkCommands(eng, spec); err != nil {
		return err
	}
	sides := rs.Scenarios()[i].Sides
	seen := map[string]bool{}
	for _, p := range spec.Players {
		if err := checkPlayer(p, sides, seen); err != nil {
			return err
		}
		if err := h.ownAddressError("player "+p.ID, p.Address); err != nil {
			return err
		}
	}
	for _, side := range sides {
		if !slices.ContainsFunc(spec.Players, func(p PlayerSpec) bool { return p.Side == side }) {
			return fmt.Errorf("scenario %s needs a player for side %s", spec.Scenario, side)
		}
	}
	for _, r := range spec.Referees {
		if a, err := netmail.ParseAddress(r); err != nil || a.Address != r {
			return fmt.Errorf("referee %q is not a mail address", r)
		}
		if err := h.ownAddressError("referee", r); err != nil {
			return err
		}
	}
	return spec.checkPolicy(h)
}

func checkPlayer(p PlayerSpec, sides []string, seen map[string]bool) error {
	switch a, err := netmail.ParseAddress(p.Address); {
	case p.ID == "" || strings.ContainsAny(p.ID, " :@"):
		return fmt.Errorf("player id %q: want a word, like alice", p.ID)
	case seen[p.ID]:
		return fmt.Errorf("player id %s is given twice", p.ID)
	case !slices.Contains(sides, p.Side):
		return fmt.Errorf("player %s: the scenario has no side %q (its sides: %s)", p.ID, p.Side, strings.Join(sides, ", "))
	case err != nil || a.Address != p.Address:
		return fmt.Errorf("player %s needs a mail address, not %q", p.ID, p.Address)
	}
	if _, err := time.LoadLocation(p.Zone); err != nil || p.Zone == "" {
		return fmt.Errorf("player %s: %q is not a time zone (like Europe/Rome)", p.ID, p.Zone)
	}
	seen[p.ID] = true
	return nil
}

// MaxDeadlineHours caps a game's time for orders (30 days).
const MaxDeadlineHours = 720

// check refuses a deadline policy that cannot work.
func (spec GameSpec) checkPolicy(h *Host) error {
	deadline, dfrom := h.specDeadline(spec)
	reminder, rfrom := h.specReminder(spec)
	whole := func(d time.Duration) bool { return d >= 0 && d%time.Minute == 0 && d <= MaxDeadlineHours*time.Hour }
	switch {
	case spec.DeadlineHours < 0 || spec.DeadlineHours > MaxDeadlineHours:
		return fmt.Errorf("deadline hours: want 1 to %d, not %d", MaxDeadlineHours, spec.DeadlineHours)
	case !whole(spec.Deadline) || !whole(spec.Reminder):
		return fmt.Errorf("deadline and reminder: want 1m to %dh in whole minutes, not %s and %s", MaxDeadlineHours, spec.Deadline, spec.Reminder)
	case spec.ReminderHours < 0:
		return fmt.Errorf("reminder hours: want 1 or more (0: the installation's), not %d", spec.ReminderHours)
	case reminder > 0 && reminder >= deadline:
		return fmt.Errorf("reminder: %s before the deadline (%s) must be less than the deadline, %s (%s); a reminder may also be off",
			short(reminder), rfrom, short(deadline), dfrom)
	case spec.NoOrders != "" && spec.NoOrders != NoOrdersDefault && spec.NoOrders != NoOrdersReferee:
		return fmt.Errorf("no-orders policy: want %s or %s, not %q", NoOrdersDefault, NoOrdersReferee, spec.NoOrders)
	case spec.NoOrders == NoOrdersReferee && len(spec.Referees) == 0:
		return fmt.Errorf("no-orders policy %s: the game needs a referee", NoOrdersReferee)
	}
	return nil
}

// PlayerSpec is a player of record: id, side, address and IANA time zone.
type PlayerSpec struct{ ID, Side, Address, Zone string }

// CreateGame commits a new game and queues the welcome mails: each player's own secret
// key, the order language, the dice commitment and its signed checkpoint (docs/DICE.md 1). It
// returns the game's tag.
func (h *Host) CreateGame(spec GameSpec) (string, error) {
	var g *game
	err := h.s.Update(func(tx *store.Tx) (err error) {
		g, err = h.createGame(tx, spec)
		return err
	})
	if err != nil {
		return "", err
	}
	return g.Tag, nil
}

// createGame is CreateGame inside a transaction (a game master's NEWGAME mail is one). A
// spec that cannot make a game is refused with an error that says why, for the requester.
func (h *Host) createGame(tx *store.Tx, spec GameSpec) (*game, error) {
	if err := h.checkSpec(spec); err != nil {
		return nil, err
	}
	rs, err := play.Find(h.rulesets, spec.Ruleset)
	if err != nil {
		return nil, err
	}
	var ps []ledger.Player
	for _, p := range spec.Players {
		ps = append(ps, ledger.Player{ID: p.ID, Side: p.Side})
	}
	cfg := adjudicator.Config{Scenario: spec.Scenario, Options: spec.Options}
	if len(spec.Tables) > 0 {
		cfg.Tables = map[string][]byte{rs.ID(): spec.Tables}
	}
	c, err := play.CreateTeams(tx, rs, cfg, ps, teamCommands(spec), h.cfg.Now(), h.cfg.Rand, h.beaconChain())
	if err != nil {
		return nil, err
	}
	g, err := h.newGame(tx, rs, spec, c)
	if err != nil {
		return nil, err
	}
	return g, h.welcome(tx, g, c, rs, cfg)
}

func (h *Host) newGame(tx *store.Tx, rs adjudicator.Ruleset, spec GameSpec, c ledger.Created) (*game, error) {
	g := &game{Game: store.Game{ID: hex.EncodeToString(c.Game[:]), Ruleset: rs.ID(), Scenario: spec.Scenario, Status: store.StatusJoining,
		Tag:      rs.ID()[:3] + "-" + hex.EncodeToString(c.Game[:2]),
		NoOrders: spec.NoOrders, NoReminder: spec.NoReminder,
		DeadlineMinutes: cmp.Or(int(spec.Deadline/time.Minute), spec.DeadlineHours*60),
		ReminderMinutes: cmp.Or(int(spec.Reminder/time.Minute), spec.ReminderHours*60)}}
	for _, s := range rs.Scenarios() {
		if s.ID == spec.Scenario {
			g.Title = s.Title
		}
	}
	for n := 3; taken(tx, g.Tag); n++ {
		g.Tag = rs.ID()[:3] + "-" + hex.EncodeToString(c.Game[:n])
	}
	for _, r := range spec.Referees {
		r = strings.ToLower(r)
		if g.isReferee(r) {
			continue
		}
		g.Referees = append(g.Referees, r)
		if _, err := h.newRefereeKey(tx, c.Game, r); err != nil {
			return nil, err
		}
	}
	for _, p := range spec.Players {
		if p.Address == "" || !strings.Contains(p.Address, "@") {
			return nil, fmt.Errorf("player %s needs a mail address", p.ID)
		}
		g.Players = append(g.Players, player{ID: p.ID, Side: p.Side, Address: strings.ToLower(p.Address), Zone: p.Zone})
		key, err := newKey(h.cfg.Rand)
		if err != nil {
			return nil, err
		}
		if err := store.PutPlayerKey(tx, c.Game, p.ID, key); err != nil {
			return nil, err
		}
	}
	return g, h.saveGame(tx, c.Game, g)
}

// taken says whether a tag is in use, by the store's tag index alone (which holds every
// game's tag since schema 3: store.PutSettings).
func taken(tx *store.Tx, tag string) bool {
	_, ok := store.GameByTag(tx, tag)
	return ok
}

// newKey is a player's secret order key: 50 random bits, as ten base32 letters.
func newKey(rnd io.Reader) (string, error) {
	b := make([]byte, 7)
	if _, err := io.ReadFull(rnd, b); err != nil {
		return "", fmt.Errorf("player key: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)[:10]), nil
}

func (h *Host) welcome(tx *store.Tx, g *game, c ledger.Created, rs adjudicator.Ruleset, cfg adjudicator.Config) error {
	eng, err := rs.New(cfg)
	if err != nil {
		return err
	}
	var players []templates.PlayerLine
	for _, p := range g.Players {
		players = append(players, templates.PlayerLine{ID: p.ID, Side: p.Side})
	}
	for _, p := range g.Players {
		key, err := keyOf(tx, c.Game, p.ID)
		if err != nil {
			return err
		}
		body := templates.Welcome{Key: key, Commitment: hex.EncodeToString(c.Commitment[:]), Verifier: hex.EncodeToString(c.Verifier),
			Checkpoint: c.Checkpoint.Block(), Format: c.Format, Players: players, Help: eng.Help(p.Side), Deadlines: h.policy(g),
			ReplyTokens: h.cfg.ReplyTokens}
		if err := h.queue(tx, g, recipient{p: &p}, "welcome", "welcome", body, "", nil); err != nil {
			return err
		}
	}
	for _, r := range slices.Clone(g.Referees) {
		key, err := refereeKey(tx, c.Game, r)
		if err != nil {
			return err
		}
		body := templates.RefereeWelcome{Key: key, Commitment: hex.EncodeToString(c.Commitment[:]), Verifier: hex.EncodeToString(c.Verifier),
			Checkpoint: c.Checkpoint.Block(), Format: c.Format, Players: players, Deadlines: h.policy(g), ReplyTokens: h.cfg.ReplyTokens}
		if err := h.queue(tx, g, recipient{address: r}, "refwelcome", "welcome (referee)", body, "", nil); err != nil {
			return err
		}
	}
	return h.saveGame(tx, c.Game, g)
}
