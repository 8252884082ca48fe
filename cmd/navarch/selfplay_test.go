package main

import (
	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// selfPlayed plays lions-at-sea to its end with the bot and returns the game.
func selfPlayed(s *store.Store) (ident.GameID, error) {
	cfg := adjudicator.Config{Scenario: "lions-at-sea"}
	players := []ledger.Player{{ID: "alice", Side: "christian"}, {ID: "bob", Side: "ottoman"}}
	var id ident.GameID
	err := s.Update(func(tx *store.Tx) error {
		c, err := play.Create(tx, lepanto.Ruleset, cfg, players, ledgertest.Clock, ledgertest.Rand("cmd"))
		id = c.Game
		if err != nil {
			return err
		}
		_, err = ledger.Start(tx, id, true)
		return err
	})
	if err != nil {
		return id, err
	}
	g, _ := lepanto.Ruleset.New(cfg)
	for g.Next().Kind != adjudicator.Over {
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			o, _ := g.Parse(side, g.(*lepanto.Game).BotOrders(side))
			orders = append(orders, play.SideOrders{Player: map[string]string{"christian": "alice", "ottoman": "bob"}[side], Side: side, Orders: o})
		}
		if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, id, g, orders, ledgertest.Clock); return err }); err != nil {
			return id, err
		}
	}
	return id, nil
}
