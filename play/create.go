package play

import (
	"fmt"
	"io"
	"slices"
	"time"

	"navarch/adjudicator"
	"navarch/beacon"
	"navarch/ledger"
	"navarch/store"
)

// Create sets up a new game of a ruleset's scenario and commits it (docs/DICE.md 1): the
// configuration is tried on the engine first, so that a game that cannot start is never
// committed. Every side of the scenario needs at least one player.
func Create(tx *store.Tx, rs adjudicator.Ruleset, cfg adjudicator.Config, players []ledger.Player, created time.Time, rnd io.Reader) (ledger.Created, error) {
	return CreateBeacon(tx, rs, cfg, players, created, rnd, nil)
}

// CreateBeacon is Create of a game whose dice every step keys with a round of chain as well
// (log format v3's beacon game, docs/DICE.md 3); nil for none.
func CreateBeacon(tx *store.Tx, rs adjudicator.Ruleset, cfg adjudicator.Config, players []ledger.Player, created time.Time, rnd io.Reader, chain *beacon.Chain) (ledger.Created, error) {
	return CreateTeams(tx, rs, cfg, players, nil, created, rnd, chain)
}

// CreateTeams is CreateBeacon of a team game (log format v4): commands gives each player of
// a shared side the commands of the ruleset's that he holds (adjudicator.Teams) and names
// each such side's commander; none for a game of one player a side.
func CreateTeams(tx *store.Tx, rs adjudicator.Ruleset, cfg adjudicator.Config, players []ledger.Player, commands []ledger.Assignment, created time.Time, rnd io.Reader, chain *beacon.Chain) (ledger.Created, error) {
	i := slices.IndexFunc(rs.Scenarios(), func(s adjudicator.Scenario) bool { return s.ID == cfg.Scenario })
	if i < 0 {
		return ledger.Created{}, fmt.Errorf("%s has no scenario %q", rs.ID(), cfg.Scenario)
	}
	sc := rs.Scenarios()[i]
	for _, side := range sc.Sides {
		if !slices.ContainsFunc(players, func(p ledger.Player) bool { return p.Side == side }) {
			return ledger.Created{}, fmt.Errorf("scenario %s needs a player for side %s", sc.ID, side)
		}
	}
	g, err := rs.New(cfg)
	if err != nil {
		return ledger.Created{}, err
	}
	if err := checkCommands(g, commands); err != nil {
		return ledger.Created{}, err
	}
	return ledger.Create(tx, ledger.Spec{Ruleset: rs.ID(), Scenario: cfg.Scenario, Options: cfg.Options,
		Tables: cfg.Tables[rs.ID()], Engine: rs.Version(), Players: players, MaxTurns: sc.MaxTurns,
		Created: created, Beacon: chain, Commands: commands}, rnd)
}

// checkCommands: every command given is one the ruleset names for the player's side.
func checkCommands(g adjudicator.Game, commands []ledger.Assignment) error {
	if len(commands) == 0 {
		return nil
	}
	t, ok := g.(adjudicator.Teams)
	if !ok {
		return fmt.Errorf("this ruleset has no commands to share a side among players")
	}
	for _, a := range commands {
		for _, c := range a.Commands {
			if !slices.ContainsFunc(t.Commands(a.Side), func(x adjudicator.Command) bool { return x.ID == c }) {
				return fmt.Errorf("side %s has no command %q", a.Side, c)
			}
		}
	}
	return nil
}
