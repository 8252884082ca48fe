package host

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// game is the host's record of a game, kept in the game's meta bucket.
type game struct {
	ID       string   `json:"id"` // hex
	Tag      string   `json:"tag"`
	Ruleset  string   `json:"ruleset"`
	Scenario string   `json:"scenario"`
	Title    string   `json:"title"`
	Players  []player `json:"players"`
	Referees []string `json:"referees"`
	Status   string   `json:"status"` // joining, playing, over
	Root     string   `json:"root"`   // the thread's first Message-ID
	Seq      int      `json:"seq"`    // outgoing mails so far
	Step     *step    `json:"step,omitempty"`
	// Held are advance orders by side, kept out of the log until their step comes.
	Held map[string]received `json:"held,omitempty"`
	// Closed is when each side's latest step asking it for orders was resolved: advance
	// orders written before it were meant for a step already resolved.
	Closed map[string]time.Time `json:"closed,omitempty"`
	// The deadline policy (docs/DESIGN.md 3.1, 3.6): hours for orders and for the reminder before the
	// deadline (0: the installation's), and what a deadline without orders brings: the
	// rules' no-orders default (NoOrdersDefault, also ""), or the referee's decision
	// (NoOrdersReferee: the game waits for PROCEED, EXTEND or the orders).
	DeadlineHours int    `json:"deadline_hours,omitempty"`
	ReminderHours int    `json:"reminder_hours,omitempty"`
	NoOrders      string `json:"no_orders,omitempty"`
	// DeadlineMinutes and ReminderMinutes, when set, are the game's own times in minutes
	// (they take the place of the hours, which games made before them have); NoReminder:
	// the game sends no reminders (policy.go).
	DeadlineMinutes int  `json:"deadline_minutes,omitempty"`
	ReminderMinutes int  `json:"reminder_minutes,omitempty"`
	NoReminder      bool `json:"no_reminder,omitempty"`
	// PausedAt and PausedUntil are set while the referee has paused the game.
	PausedAt    time.Time `json:"paused_at,omitzero"`
	PausedUntil time.Time `json:"paused_until,omitzero"`
	// RefereeZones is each referee's time zone for deadlines, set by ZONE (UTC if none).
	RefereeZones map[string]string `json:"referee_zones,omitempty"`
	// used notes, by side, the advance orders used since the reports last went out; each
	// side's next report says so. Not stored: reports go out in the same
	// transaction.
	used map[string][]string
	// note is a line put before the answer to one mail (closed.go). Not stored: the answer
	// goes out in the same transaction.
	note answerNote
	// RefReported is the log's size at each referee's last report (his digest, one a game
	// turn, starts there).
	RefReported map[string]uint64 `json:"ref_reported,omitempty"`
	// RefEach names the referees who asked for every step's report (REPORTS EACH).
	RefEach map[string]bool `json:"ref_each,omitempty"`
	// receipt is a player's receipt for the orders that complete a step, held to lead the
	// mail that reports the step (moment.go). Not stored: it goes out in the same
	// transaction, with the report or alone.
	receipt *heldReceipt
}

type player struct {
	ID      string `json:"id"`
	Side    string `json:"side"`
	Address string `json:"address"`
	Zone    string `json:"zone"`
	Joined  bool   `json:"joined"`
	// AbsentFrom and AbsentTo bound a declared absence (ABSENT).
	AbsentFrom time.Time `json:"absent_from,omitzero"`
	AbsentTo   time.Time `json:"absent_to,omitzero"`
	// Each (REPORTS EACH): mail the player every step's report. Without it he is mailed
	// when his orders are needed, when a game turn ends, and for the game's lifecycle, each
	// mail with everything since Reported, the log's size at his last report (moment.go).
	Each     bool   `json:"each,omitempty"`
	Reported uint64 `json:"reported,omitempty"`
	// Name is what mails call a player who took over the side from another (REPLACE);
	// "" for the ID. TookOver: he took it over in play, joined already.
	Name     string `json:"name,omitempty"`
	TookOver bool   `json:"took_over,omitempty"`
}

// step is the step waiting for orders.
type step struct {
	Turn     uint32              `json:"turn"`
	Act      uint32              `json:"act"`
	Sides    []string            `json:"sides"`
	What     string              `json:"what"`
	Deadline time.Time           `json:"deadline"`
	Reminded bool                `json:"reminded"`
	Secret   bool                `json:"secret"`
	Default  string              `json:"default"` // what happens to a side without orders
	Orders   map[string]received `json:"orders"`  // by side (team game: by player): the latest accepted orders
	// Players are the players a team game's step asks (play.Asked), by whom its orders are
	// kept; none in a game of one player a side.
	Players []string `json:"players,omitempty"`
	// Waiting: the deadline passed under NoOrdersReferee; the referee has been asked, last
	// at Asked (and again each RefereeReminder while the game waits).
	Waiting bool      `json:"waiting,omitempty"`
	Asked   time.Time `json:"asked,omitzero"`
	// Opened is the log's length when the step opened (0 in a game saved before it was
	// kept): it names the step in the Message-IDs of its mail (own.go).
	Opened uint64 `json:"opened,omitempty"`
}

// The no-orders policies of a game.
const (
	NoOrdersDefault = "default"
	NoOrdersReferee = "referee"
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

type received struct {
	Player  string `json:"player"`
	Index   uint64 `json:"index"`
	Text    string `json:"text"` // canonical
	Entropy string `json:"entropy"`
	Time    time.Time
	MsgID   string `json:"msgid"`
	// Written is when the player wrote them (the mail's Date, never later than its arrival):
	// orders written earlier do not replace them, however late they arrive.
	Written time.Time `json:"written,omitzero"`
}

func (h *Host) gameID(g *game) ident.GameID {
	var id ident.GameID
	hex.Decode(id[:], []byte(g.ID))
	return id
}

func loadGame(tx *store.Tx, id ident.GameID) (*game, error) {
	v, err := store.Settings(tx, id)
	if err != nil || v == nil {
		return nil, err
	}
	var g game
	if err := json.Unmarshal(v, &g); err != nil {
		return nil, fmt.Errorf("game %x settings: %w", id[:], err)
	}
	return &g, nil
}

// saveGame stores a game's settings and keeps the indexes that spare reading every game
// current: known addresses, the games of each player's address, what the metrics count of
// it (figureOf), and when the deadline pass next looks at the game (indexGame). Every change
// of a game goes through it.
func (h *Host) saveGame(tx *store.Tx, id ident.GameID, g *game) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := store.PutSettings(tx, id, g.Tag, b); err != nil {
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
