package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"navarch/ident"
)

// A game's settings are one JSON object in its meta bucket (key metaSettings), in the form
// of Game. The store owns that form: LoadGame and SaveGame are its only readers and writers
// at run time, and the schema's upgrade steps (schema.go) are the only code that reads the
// forms it had before (settingsV0 and the object the settings step rewrites). A change of the
// form raises SettingsVersion and adds a schema step that rewrites every stored game's
// settings to it; a game whose settings do not read as the current form is an error, never
// a game silently passed over.

// SettingsVersion is the form of the settings this build writes and reads.
//
//	0  (no "version" field) the deadline and reminder in hours (deadline_hours,
//	   reminder_hours) or in minutes (deadline_minutes, reminder_minutes)
//	1  the deadline and reminder in minutes only; the hours of a version 0 game are
//	   rewritten as minutes by the schema 9 → 10 step (upgradeSettingsV1)
const SettingsVersion = 1

// ErrSettings wraps every failure to read a game's settings.
var ErrSettings = errors.New("store: game settings unreadable")

// Game is a game's settings and state as the host keeps them between mails.
type Game struct {
	Version  int      `json:"version"` // SettingsVersion
	ID       string   `json:"id"`      // hex
	Tag      string   `json:"tag"`
	Ruleset  string   `json:"ruleset"`
	Scenario string   `json:"scenario"`
	Title    string   `json:"title"`
	Players  []Player `json:"players"`
	Referees []string `json:"referees"`
	Status   Status   `json:"status"`
	Root     string   `json:"root"` // the thread's first Message-ID
	Seq      int      `json:"seq"`  // outgoing mails so far
	Step     *Step    `json:"step,omitempty"`
	// Held are advance orders by side, kept out of the log until their step comes.
	Held map[string]Orders `json:"held,omitempty"`
	// Closed is when each side's latest step asking it for orders was resolved: advance
	// orders written before it were meant for a step already resolved.
	Closed map[string]time.Time `json:"closed,omitempty"`
	// The deadline policy (docs/DESIGN.md 3.1, 3.6): the game's own minutes for orders and
	// for the reminder before the deadline (0: the installation's), no reminder at all
	// (NoReminder), and what a deadline without orders brings: the rules' no-orders default
	// (NoOrdersDefault, also ""), or the referee's decision (NoOrdersReferee: the game
	// waits for PROCEED, EXTEND or the orders).
	DeadlineMinutes int    `json:"deadline_minutes,omitempty"`
	ReminderMinutes int    `json:"reminder_minutes,omitempty"`
	NoReminder      bool   `json:"no_reminder,omitempty"`
	NoOrders        string `json:"no_orders,omitempty"`
	// PausedAt and PausedUntil are set while the referee has paused the game.
	PausedAt    time.Time `json:"paused_at,omitzero"`
	PausedUntil time.Time `json:"paused_until,omitzero"`
	// RefereeZones is each referee's time zone for deadlines, set by ZONE (UTC if none).
	RefereeZones map[string]string `json:"referee_zones,omitempty"`
	// RefReported is the log's size at each referee's last report (his digest, one a game
	// turn, starts there).
	RefReported map[string]uint64 `json:"ref_reported,omitempty"`
	// RefEach names the referees who asked for every step's report (REPORTS EACH).
	RefEach map[string]bool `json:"ref_each,omitempty"`
}

// Player is one player of a game: a game has a list of them, any number a side.
type Player struct {
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
	// mail with everything since Reported, the log's size at his last report.
	Each     bool   `json:"each,omitempty"`
	Reported uint64 `json:"reported,omitempty"`
	// Name is what mails call a player who took over the side from another (REPLACE);
	// "" for the ID. TookOver: he took it over in play, joined already.
	Name     string `json:"name,omitempty"`
	TookOver bool   `json:"took_over,omitempty"`
}

// Step is the step waiting for orders.
type Step struct {
	Turn     uint32            `json:"turn"`
	Act      uint32            `json:"act"`
	Sides    []string          `json:"sides"`
	What     string            `json:"what"`
	Deadline time.Time         `json:"deadline"`
	Reminded bool              `json:"reminded"`
	Secret   bool              `json:"secret"`
	Default  string            `json:"default"` // what happens to a side without orders
	Orders   map[string]Orders `json:"orders"`  // by side (a team game: by player): the latest accepted orders
	// Players are the players a team game's step asks, by whom its orders are kept; none
	// (every game of one player a side) keeps them by side. Optional, so that a settings
	// form without it reads as before.
	Players []string `json:"players,omitempty"`
	// Waiting: the deadline passed under NoOrdersReferee; the referee has been asked, last
	// at Asked (and again each RefereeReminder while the game waits).
	Waiting bool      `json:"waiting,omitempty"`
	Asked   time.Time `json:"asked,omitzero"`
	// Opened is the log's length when the step opened (0 in a game saved before it was
	// kept): it names the step in the Message-IDs of its mail.
	Opened uint64 `json:"opened,omitempty"`
}

// Orders is a side's orders as accepted: for the step (logged at Index) or held in advance.
type Orders struct {
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

// The no-orders policies of a game.
const (
	NoOrdersDefault = "default"
	NoOrdersReferee = "referee"
)

// Status is where a game is in its life: joining (players are asked to join), playing, or
// over. Its zero value is no status: a game's settings never store it.
type Status uint8

// A game's statuses.
const (
	StatusJoining Status = iota + 1
	StatusPlaying
	StatusOver
)

var statusWords = [...]string{StatusJoining: "joining", StatusPlaying: "playing", StatusOver: "over"}

// String is the status's word, as mails and tools say it.
func (s Status) String() string {
	if s == 0 || int(s) >= len(statusWords) {
		return fmt.Sprintf("status(%d)", uint8(s))
	}
	return statusWords[s]
}

// MarshalText writes the status's word; no status is an error.
func (s Status) MarshalText() ([]byte, error) {
	if s == 0 || int(s) >= len(statusWords) {
		return nil, fmt.Errorf("store: no game status %d", uint8(s))
	}
	return []byte(statusWords[s]), nil
}

// UnmarshalText reads a status's word; any other word is an error.
func (s *Status) UnmarshalText(b []byte) error {
	for i, w := range statusWords {
		if i > 0 && w == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("store: no game status %q", b)
}

// LoadGame returns a game's settings, or nil if none were stored. Settings that do not read
// as the current form (SettingsVersion) are an error wrapping ErrSettings.
func LoadGame(tx *Tx, id ident.GameID) (*Game, error) {
	v, err := Meta(tx, id, metaSettings)
	if err != nil || v == nil {
		return nil, err
	}
	g, err := decodeGame(v)
	if err != nil {
		return nil, fmt.Errorf("game %x settings: %w", id[:], err)
	}
	return g, nil
}

func decodeGame(v []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(v, &g); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	if g.Version != SettingsVersion {
		return nil, fmt.Errorf("%w: version %d, this navarch reads version %d", ErrSettings, g.Version, SettingsVersion)
	}
	if g.Status == 0 {
		return nil, fmt.Errorf("%w: no status", ErrSettings)
	}
	return &g, nil
}

// SaveGame stores a game's settings in the current form and indexes its tag, so that
// GameByTag finds the game without reading every game.
func SaveGame(tx *Tx, id ident.GameID, g *Game) error {
	g.Version = SettingsVersion
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("game %x settings: %w", id[:], err)
	}
	return PutSettings(tx, id, g.Tag, b)
}
