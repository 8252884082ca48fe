package host

import (
	"fmt"

	"navarch/ident"
	"navarch/play"
	"navarch/store"
)

// Stranded describes, a line each, the games under way that this navarch cannot continue:
// their genesis record names another version of their ruleset's engine (replay refuses a
// log made by another version rather than adjudicate it differently: docs/DESIGN.md 2), or a
// ruleset this navarch lacks. Their mail is kept and parked, not lost; the navarch that began
// them continues them (docs/deploy/README.md, Upgrading). A game over is never stranded:
// its log verifies without an engine.
func (h *Host) Stranded() ([]string, error) {
	var out []string
	err := h.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil || g == nil || g.Status == store.StatusOver {
				continue
			}
			why, err := h.strandedBy(tx, id, g)
			if err != nil {
				return err
			}
			if why != "" {
				out = append(out, g.Tag+": "+why)
			}
		}
		return nil
	})
	return out, err
}

// strandedBy says why this navarch cannot continue the game (play.EngineOf), or "" if it can.
func (h *Host) strandedBy(tx *store.Tx, id ident.GameID, g *game) (string, error) {
	genesis, err := store.Record(tx, id, 0)
	if err != nil {
		return "", fmt.Errorf("game %s: %w", g.Tag, err)
	}
	if _, err := play.EngineOf(&genesis, h.rulesets); err != nil {
		return err.Error(), nil
	}
	return "", nil
}
