package host

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"navarch/adjudicator"
	"navarch/ident"
	"navarch/outbox"
	"navarch/render"
	"navarch/store"
)

// Config is how the host presents itself.
type Config struct {
	Address       string // navarch's own address, the From of every mail
	Domain        string // the domain of navarch's Message-IDs
	DeadlineHours int    // time given for orders; default 72
	ReminderHours int    // a reminder this long before a deadline; default 12
	RateLimit     int    // mails one sender may send in an hour; default RateLimit
	// DKIMAuthServID, if set, is the authserv-id of the receiving mail server: players' and
	// referees' mail then counts only with that server's DKIM pass aligned with the From
	// domain (mail.DKIMAligned). The server must strip Authentication-Results fields that
	// arrive under its name.
	DKIMAuthServID string
	// ReplyTokens puts a player's tokenized reply address on every mail to the player, so
	// that a reply needs no KEY line (tokens.go). The mail server must deliver subaddressed
	// mail (local+token@domain) to navarch's mailbox.
	ReplyTokens bool
	// GameMasters may create games by mail (NEWGAME): each lower-case address with the game
	// master's key, which a NEWGAME mail must carry on a KEY line.
	GameMasters map[string]string
	Now         func() time.Time
	Rand        io.Reader // keys and seeds; crypto/rand by default
	// Heartbeat, if set, is called by the deadline loop after each pass in which the store
	// answered (about once a minute): the operator's health check watches it.
	// It is told how many mails are parked (Park), for the operator's attention.
	Heartbeat func(parked int)
	// EngineCache is how many games' rebuilt engines are kept between mails; 0 means
	// EngineCache, a negative number none.
	EngineCache int
	// SendRetry is the outbox's first wait after a failed send (outbox.Config.Retry): of a
	// mail the server deferred, and of the whole outbox after a failure of the server.
	// Default 1 s.
	SendRetry time.Duration
	// Clock is the outbox's clock (outbox.SystemClock if nil); tests drive one by hand.
	Clock outbox.Clock
	// Backups are the daemon's own copies of the database, taken by the deadline loop when
	// due (the file is locked while the daemon runs, so no other process can copy it).
	Backups store.Rotation
	// Maps are the rulesets' maps by ruleset id (cmd/navarch pairs each ruleset with its
	// map); a game of a ruleset without one gets its reports without a map.
	Maps map[string]render.Map
	// Wake, if set, is the outbox's wake-up call: Serve flushes the outbox when it is
	// signalled (after each mail handled, and by whoever else queues mail, such as a command
	// run through the control socket). Serve makes its own when it is nil.
	Wake chan struct{}
	// Metrics, if set, is told of each mail received, parked, sent and refused (Serve).
	Metrics Observer
	// Beacon, if set, keys every new game's dice with a public randomness beacon as well
	// (beacon.go, docs/DICE.md 3); games created without it keep their keys.
	Beacon *BeaconConfig
}

// Host runs the games of one store.
type Host struct {
	s        *store.Store
	rulesets []adjudicator.Ruleset
	cfg      Config
	log      *slog.Logger
	engines  *engines
	health   *health                       // the mailbox's and the outbox's (health.go)
	ids      idKey                         // the Message-ID key (own.go)
	outbox   atomic.Pointer[outbox.Outbox] // the one Serve runs
	waiting  atomic.Int64                  // beacon steps the last pass left waiting (BeaconWaiting)
}

// New returns a host over a store with the rulesets it may run.
func New(s *store.Store, rulesets []adjudicator.Ruleset, cfg Config, log *slog.Logger) *Host {
	if cfg.DeadlineHours == 0 {
		cfg.DeadlineHours = 72
	}
	if cfg.ReminderHours == 0 {
		cfg.ReminderHours = 12
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = RateLimit
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if cfg.EngineCache == 0 {
		cfg.EngineCache = EngineCache
	}
	return &Host{s: s, rulesets: rulesets, cfg: cfg, log: log,
		engines: &engines{max: max(cfg.EngineCache, 0), games: map[ident.GameID]*cached{}}, health: &health{}}
}

// game is the host's record of a game: its settings as the store keeps them (store.Game),
// and what one transaction carries from one part of the host to another.
type game struct {
	store.Game
	// used notes, by side, the advance orders used since the reports last went out; each
	// side's next report says so. Not stored: reports go out in the same
	// transaction.
	used map[string][]string
	// note is a line put before the answer to one mail (closed.go). Not stored: the answer
	// goes out in the same transaction.
	note answerNote
	// receipt is a player's receipt for the orders that complete a step, held to lead the
	// mail that reports the step (moment.go). Not stored: it goes out in the same
	// transaction, with the report or alone.
	receipt *heldReceipt
}

// The parts of a game's settings, as the store keeps them.
type (
	player   = store.Player
	step     = store.Step
	received = store.Orders
)

// The no-orders policies of a game.
const (
	NoOrdersDefault = store.NoOrdersDefault
	NoOrdersReferee = store.NoOrdersReferee
)

// policy says in a sentence what a game's deadlines are, for its players.
func (h *Host) policy(g *game) string {
	s := fmt.Sprintf("You have %s to answer each request for orders, with a reminder %s before the deadline. ", span(h.deadline(g)), span(h.reminder(g)))
	if h.reminder(g) == 0 {
		s = fmt.Sprintf("You have %s to answer each request for orders, without a reminder. ", span(h.deadline(g)))
	}
	if g.NoOrders == NoOrdersReferee {
		return s + "If a side sends no orders in time, the game waits for the referee to decide."
	}
	return s + "If a side sends no orders in time, the rules' no-orders default applies (each request says which)."
}

func (h *Host) gameID(g *game) ident.GameID {
	var id ident.GameID
	hex.Decode(id[:], []byte(g.ID))
	return id
}

// loadGame returns a game's settings (nil if it has none); settings that do not read are
// an error (store.LoadGame).
func loadGame(tx *store.Tx, id ident.GameID) (*game, error) {
	sg, err := store.LoadGame(tx, id)
	if err != nil || sg == nil {
		return nil, err
	}
	return &game{Game: *sg}, nil
}

// saveGame stores a game's settings and keeps the indexes that spare reading every game
// current: known addresses, the games of each player's address, what the metrics count of
// it (figureOf), and when the deadline pass next looks at the game (indexGame). Every change
// of a game goes through it.
func (h *Host) saveGame(tx *store.Tx, id ident.GameID, g *game) error {
	if err := store.SaveGame(tx, id, &g.Game); err != nil {
		return err
	}
	if err := store.PutGameFigure(tx, id, figureOf(g)); err != nil {
		return err
	}
	if err := markKnown(tx, g); err != nil {
		return err
	}
	return h.indexGame(tx, id, g)
}

// findGame returns the game with a tag, by the tag index (one game read, however many games
// there are) or else by reading every game. A game whose settings cannot be read does not
// hide the others; but when no game has the tag, that failure is returned (it may be the one).
func findGame(tx *store.Tx, tag string) (ident.GameID, *game, error) {
	if id, ok := store.GameByTag(tx, tag); ok {
		g, err := loadGame(tx, id)
		if err != nil || g != nil && g.Tag == tag {
			return id, g, err
		}
	}
	var broken error
	for _, id := range store.Games(tx) {
		g, err := loadGame(tx, id)
		if err != nil {
			broken = cmp.Or(broken, err)
			continue
		}
		if g != nil && g.Tag == tag {
			return id, g, nil
		}
	}
	return ident.GameID{}, nil, broken
}

func (g *game) player(address string) *player {
	for i := range g.Players {
		if g.Players[i].Address == address {
			return &g.Players[i]
		}
	}
	return nil
}

func (g *game) sidePlayers(side string) []*player {
	var out []*player
	for i := range g.Players {
		if g.Players[i].Side == side {
			out = append(out, &g.Players[i])
		}
	}
	return out
}

func keyOf(tx *store.Tx, id ident.GameID, playerID string) (string, error) {
	return store.PlayerKey(tx, id, playerID)
}

// ErrNoGame is returned by operator calls naming a game that does not exist.
var ErrNoGame = errors.New("host: no such game")

func messageKey(msgID string, raw []byte) string {
	if msgID != "" {
		return msgID
	}
	s := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(s[:])
}
