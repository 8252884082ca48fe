package play

import (
	"bytes"
	"fmt"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/store"
)

// Load rebuilds a game's current state from its log in the store: the full log is replayed
// through the engine, so the state is the log's and nothing else's.
func Load(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset) (adjudicator.Game, error) {
	rep, err := LoadReport(tx, id, rulesets)
	if err != nil {
		return nil, err
	}
	return rep.Game, nil
}

// LoadReport is Load with the replay's report (the game is its Game).
func LoadReport(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset) (*ReplayReport, error) {
	var buf bytes.Buffer
	if err := ledger.Export(tx, id, ledger.View{Full: true}, &buf); err != nil {
		return nil, err
	}
	f, err := gamelog.ParseFile(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("load game %x: %w", id[:], err)
	}
	rep, err := Replay(f, rulesets)
	if err != nil {
		return nil, fmt.Errorf("load game %x: %w", id[:], err)
	}
	return rep, nil
}
