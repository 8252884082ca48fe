package host

import (
	"encoding/hex"
	"fmt"
	"strings"

	"navarch/ident"
	"navarch/store"
)

// ResolveGame finds a game by its tag or, for the older commands' sake, by its hex id or a
// unique prefix of it; it returns the id and the tag (the id's first 8 hex digits for a game
// the host has no record of).
func ResolveGame(tx *store.Tx, name string) (ident.GameID, string, error) {
	if id, g, err := findGame(tx, name); err == nil && g != nil {
		return id, g.Tag, nil
	}
	var found []ident.GameID
	for _, id := range store.Games(tx) {
		if name != "" && strings.HasPrefix(hex.EncodeToString(id[:]), strings.ToLower(name)) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return ident.GameID{}, "", fmt.Errorf("%w: %s", ErrNoGame, name)
	case 1:
		tag := hex.EncodeToString(found[0][:4])
		if g, err := loadGame(tx, found[0]); err == nil && g != nil {
			tag = g.Tag
		}
		return found[0], tag, nil
	}
	return ident.GameID{}, "", fmt.Errorf("%d games' ids start with %q", len(found), name)
}
