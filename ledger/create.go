package ledger

import (
	"navarch/beacon"

	"cmp"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// TurnMargin is added to a scenario's maximum number of game turns to size the seed chain,
// so that a referee's extra turns do not exhaust it.
const TurnMargin = 16

// Errors a caller may answer a player or referee with.
var (
	ErrNotPlayer      = errors.New("ledger: not a player of this game")
	ErrJoined         = errors.New("ledger: player has joined already")
	ErrStarted        = errors.New("ledger: game has started")
	ErrNotStarted     = errors.New("ledger: game has not started")
	ErrMissingJoins   = errors.New("ledger: not every player has joined")
	ErrChainExhausted = errors.New("ledger: turn beyond the committed seed chain")
	ErrSequence       = errors.New("ledger: out of sequence")
)

// Player is one player of record and the side they play.
type Player struct{ ID, Side string }

// Spec describes a new game.
type Spec struct {
	Ruleset, Scenario string
	Options           []string
	Tables            []byte // a corrected table file loaded for this game, if any
	Engine            string // engine version
	Players           []Player
	MaxTurns          int // the scenario's maximum number of game turns
	Created           time.Time
	// Beacon keys every step's dice with a round of this public randomness beacon as well
	// (docs/DICE.md 3); nil for none.
	Beacon *beacon.Chain
	// Commands (log format v4) shares sides among several players: what each commands, and
	// each side's commander; none where every side has one player (docs/LOG-FORMAT.md 3).
	Commands []Assignment
	// Format is the genesis record's log format: "" for gamelog.FormatV5, every new game's;
	// gamelog.FormatV4 makes a game of v4's rules, for the tests that v4 logs keep them.
	Format string
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,31}$`)

func (s Spec) check() error {
	for _, w := range append([]string{s.Ruleset, s.Scenario}, s.Options...) {
		if !idPattern.MatchString(w) {
			return fmt.Errorf("ruleset, scenario or option %q: want lower-case letters, digits, '.', '_', '-'", w)
		}
	}
	if len(s.Players) == 0 || s.MaxTurns < 1 || s.MaxTurns+TurnMargin > gamelog.MaxTurns {
		return fmt.Errorf("a game needs players and 1..%d turns", gamelog.MaxTurns-TurnMargin)
	}
	seen := map[string]bool{}
	for _, p := range s.Players {
		if !idPattern.MatchString(p.ID) || !idPattern.MatchString(p.Side) {
			return fmt.Errorf("player %q side %q: want lower-case letters, digits, '.', '_', '-'", p.ID, p.Side)
		}
		if seen[p.ID] {
			return fmt.Errorf("player %q listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	if s.Format != "" && s.Format != gamelog.FormatV4 && s.Format != gamelog.FormatV5 {
		return fmt.Errorf("format %q: a new game is of %s (or %s)", s.Format, gamelog.FormatV5, gamelog.FormatV4)
	}
	return checkAssignments(s.Players, s.Commands)
}

// Created is what game creation hands to the caller for the genesis mail.
type Created struct {
	Game       ident.GameID
	Commitment ident.Hash
	Verifier   ed25519.PublicKey
	Checkpoint gamelog.Checkpoint
	// Format is the log format of the genesis record (gamelog.FormatV5 for new games): the welcome mail
	// states it, and its verify command pins it (verify --format).
	Format string
}

// Create commits a new game (docs/DICE.md 1): it draws the game id and the top seed X_N from rnd
// (crypto/rand.Reader in production), keeps X_N secret, writes the genesis record and signs
// the first checkpoint.
func Create(tx *store.Tx, spec Spec, rnd io.Reader) (Created, error) {
	if err := spec.check(); err != nil {
		return Created{}, fmt.Errorf("new game: %w", err)
	}
	var c Created
	var xN ident.Hash
	if _, err := io.ReadFull(rnd, c.Game[:]); err != nil {
		return c, fmt.Errorf("new game id: %w", err)
	}
	if _, err := io.ReadFull(rnd, xN[:]); err != nil {
		return c, fmt.Errorf("new seed: %w", err)
	}
	var salt ident.Hash
	if _, err := io.ReadFull(rnd, salt[:]); err != nil {
		return c, fmt.Errorf("new salt: %w", err)
	}
	key, err := store.InstallationKey(tx)
	if err != nil {
		return c, err
	}
	c.Verifier = key.Public().(ed25519.PublicKey)
	c.Format = cmp.Or(spec.Format, gamelog.FormatV5)
	n := uint32(spec.MaxTurns + TurnMargin)
	c.Commitment = dice.Commitment(c.Game, n, xN)
	if err := store.CreateGame(tx, c.Game); err != nil {
		return c, err
	}
	if err := store.PutSecret(tx, c.Game, secretSeed, xN[:]); err != nil {
		return c, err
	}
	if err := store.PutSecret(tx, c.Game, secretSalt, salt[:]); err != nil {
		return c, err
	}
	if _, err := add(tx, c.Game, genesis(spec, c, n)); err != nil {
		return c, err
	}
	if err := writeAssignments(tx, c.Game, 0, 0, "referee", spec.Commands); err != nil {
		return c, err
	}
	c.Checkpoint, err = Checkpoint(tx, c.Game)
	return c, err
}

const secretSeed = "x-top"

func genesis(spec Spec, c Created, n uint32) *gamelog.Builder {
	b := gamelog.New(gamelog.TypeGenesis).Add("format", c.Format).AddHex("game", c.Game[:]).
		Add("ruleset", spec.Ruleset).Add("scenario", spec.Scenario).
		Add("options", strings.Join(spec.Options, " "))
	if len(spec.Tables) > 0 {
		b.AddHex("tables", spec.Tables)
	}
	b.Add("engine", gamelog.CleanText(spec.Engine))
	players := slices.Clone(spec.Players)
	slices.SortFunc(players, func(a, b Player) int { return strings.Compare(a.ID, b.ID) })
	for _, p := range players {
		b.Add("player", p.ID+" "+p.Side)
	}
	b.AddUint("turns", uint64(n)).AddHex("commitment", c.Commitment[:]).
		AddHex("verifier", c.Verifier).AddTime("created", spec.Created).Add("secrecy", gamelog.SecrecyDeclared)
	if spec.Beacon != nil {
		b.AddBeacon(spec.Beacon)
	}
	return b
}

func add(tx *store.Tx, id ident.GameID, b *gamelog.Builder) (gamelog.Record, error) {
	rec, _, err := store.Append(tx, id, b)
	return rec, err
}

// SignedHead signs the game's current (size, head) without writing anything: the
// checkpoint every mail that names the log's head carries (docs/LOG-FORMAT.md 5).
func SignedHead(tx *store.Tx, id ident.GameID) (gamelog.Checkpoint, error) {
	key, err := store.InstallationKey(tx)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	n, err := store.Len(tx, id)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	head, err := store.HeadAt(tx, id, n)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	c := gamelog.Checkpoint{Game: id, Size: n, Head: head}
	c.Sign(key)
	return c, nil
}

// Checkpoint signs the game's current (size, head) with the installation key and appends it
// as a checkpoint record. The returned checkpoint covers the records before that one.
func Checkpoint(tx *store.Tx, id ident.GameID) (gamelog.Checkpoint, error) {
	c, err := SignedHead(tx, id)
	if err != nil {
		return c, err
	}
	_, err = add(tx, id, gamelog.New(gamelog.TypeCheckpoint).AddUint("size", c.Size).
		AddHex("head", c.Head[:]).AddHex("signature", c.Signature))
	return c, err
}
