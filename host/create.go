package host

import (
	"cmp"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/ledger"
	"navarch/play"
	"navarch/store"
	"navarch/templates"
)

// GameSpec is a new game (DESIGN 3.1).
type GameSpec struct {
	Ruleset, Scenario string
	Options           []string
	Tables            []byte
	Players           []PlayerSpec
	Referees          []string
	// The deadline policy: hours (0: the installation's) and NoOrdersDefault or
	// NoOrdersReferee ("" is the default).
	DeadlineHours, ReminderHours int
	NoOrders                     string
}

// MaxDeadlineHours caps a game's time for orders (30 days).
const MaxDeadlineHours = 720

// check refuses a deadline policy that cannot work.
func (spec GameSpec) checkPolicy(h *Host) error {
	deadline := cmp.Or(spec.DeadlineHours, h.cfg.DeadlineHours)
	reminder := cmp.Or(spec.ReminderHours, h.cfg.ReminderHours)
	switch {
	case spec.DeadlineHours < 0 || spec.DeadlineHours > MaxDeadlineHours:
		return fmt.Errorf("deadline hours: want 1 to %d, not %d", MaxDeadlineHours, spec.DeadlineHours)
	case spec.ReminderHours < 0 || reminder >= deadline:
		return fmt.Errorf("reminder hours: want fewer than the deadline's %d hours, not %d", deadline, reminder)
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
// key, the order language, the dice commitment and its signed checkpoint (DICE.md 1). It
// returns the game's tag.
func (h *Host) CreateGame(spec GameSpec) (string, error) {
	rs, err := play.Find(h.rulesets, spec.Ruleset)
	if err != nil {
		return "", err
	}
	if err := spec.checkPolicy(h); err != nil {
		return "", err
	}
	var tag string
	err = h.s.Update(func(tx *store.Tx) error {
		var ps []ledger.Player
		for _, p := range spec.Players {
			ps = append(ps, ledger.Player{ID: p.ID, Side: p.Side})
		}
		cfg := adjudicator.Config{Scenario: spec.Scenario, Options: spec.Options}
		if len(spec.Tables) > 0 {
			cfg.Tables = map[string][]byte{rs.ID(): spec.Tables}
		}
		c, err := play.Create(tx, rs, cfg, ps, h.cfg.Now(), h.cfg.Rand)
		if err != nil {
			return err
		}
		g, err := h.newGame(tx, rs, spec, c)
		if err != nil {
			return err
		}
		tag = g.Tag
		return h.welcome(tx, g, c, rs, cfg)
	})
	return tag, err
}

func (h *Host) newGame(tx *store.Tx, rs adjudicator.Ruleset, spec GameSpec, c ledger.Created) (*game, error) {
	g := &game{ID: hex.EncodeToString(c.Game[:]), Ruleset: rs.ID(), Scenario: spec.Scenario, Status: "joining",
		Referees: spec.Referees, Tag: rs.ID()[:3] + "-" + hex.EncodeToString(c.Game[:2]),
		DeadlineHours: spec.DeadlineHours, ReminderHours: spec.ReminderHours, NoOrders: spec.NoOrders}
	for _, s := range rs.Scenarios() {
		if s.ID == spec.Scenario {
			g.Title = s.Title
		}
	}
	if err := indexTags(tx); err != nil {
		return nil, err
	}
	for n := 3; taken(tx, g.Tag); n++ {
		g.Tag = rs.ID()[:3] + "-" + hex.EncodeToString(c.Game[:n])
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
		if err := store.PutSecret(tx, c.Game, "key/"+p.ID, []byte(key)); err != nil {
			return nil, err
		}
	}
	return g, saveGame(tx, c.Game, g)
}

// taken says whether a tag is in use, by the tag index alone (see indexTags).
func taken(tx *store.Tx, tag string) bool {
	return store.State(tx, "tag:"+tag) != nil
}

// indexTags puts every game's tag in the index, once per database: games made before the
// index existed join it here, so that taken need not read every game. A game whose
// settings cannot be read keeps its tag out of the index; findGame still finds it by reading
// every game.
func indexTags(tx *store.Tx) error {
	if store.State(tx, "tag-index") != nil {
		return nil
	}
	for _, id := range store.Games(tx) {
		if g, err := loadGame(tx, id); err == nil && g != nil {
			if err := store.PutState(tx, "tag:"+g.Tag, id[:]); err != nil {
				return err
			}
		}
	}
	return store.PutState(tx, "tag-index", []byte{1})
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
			Checkpoint: c.Checkpoint.Block(), Players: players, Help: eng.Help(p.Side), Deadlines: h.policy(g)}
		if err := h.queue(tx, g, recipient{p: &p}, "welcome", "welcome", body, "", nil); err != nil {
			return err
		}
	}
	body := templates.Welcome{Key: "(players only)", Commitment: hex.EncodeToString(c.Commitment[:]), Verifier: hex.EncodeToString(c.Verifier),
		Checkpoint: c.Checkpoint.Block(), Players: players, Help: eng.Help(""), Deadlines: h.policy(g)}
	for _, r := range slices.Clone(g.Referees) {
		if err := h.queue(tx, g, recipient{address: r}, "welcome", "welcome (referee)", body, "", nil); err != nil {
			return err
		}
	}
	return saveGame(tx, c.Game, g)
}
