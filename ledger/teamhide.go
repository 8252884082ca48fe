package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// Team games of log format v5 keep from the other side which of a team's players each step
// asks (docs/LOG-FORMAT.md 3, "What a team game shows the other side"): an activation names
// the asked players of one-player sides and only a count for each team side (a side of
// several players in the genesis record); an orders record of a team side's player names his
// side, not him, and a sender record sealed for the side right after it names him.

// metaAsked holds the players the open step asks, all of them (the activation record names
// only those of one-player sides in v5), for its defaults.
const metaAsked = "asked"

// hidesAsking reports whether the game's format keeps the asked team players sealed (v5).
func (in info) hidesAsking() bool { return gamelog.AtLeast(in.format, gamelog.FormatV5) }

// teamSide reports whether side has more than one player in the genesis record.
func (in info) teamSide(side string) bool {
	n := 0
	for _, s := range in.players {
		if s == side {
			n++
		}
	}
	return n > 1
}

// splitAsked returns the activation's act list (the asked players of one-player sides) and
// its team-asks lines ("<side> <n>", sorted by side), as v5 writes them.
func splitAsked(in info, players []string) (act, asks []string) {
	count := map[string]int{}
	for _, p := range players {
		if side := in.players[p]; in.teamSide(side) {
			count[side]++
			continue
		}
		act = append(act, p)
	}
	for side, n := range count {
		asks = append(asks, fmt.Sprintf("%s %d", side, n))
	}
	slices.Sort(asks)
	return act, asks
}

// putAsked keeps the open step's asked players (metaAsked).
func putAsked(tx *store.Tx, id ident.GameID, players []string) error {
	return store.PutMeta(tx, id, metaAsked, []byte(strings.Join(players, " ")))
}

// askedPlayers returns every player the open step asks: from metaAsked in v5, from the
// activation record's act before.
func askedPlayers(tx *store.Tx, id ident.GameID, in info, act *gamelog.Record) ([]string, error) {
	if !in.hidesAsking() {
		return strings.Fields(act.Get("act")), nil
	}
	v, err := store.Meta(tx, id, metaAsked)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(v)), nil
}

// senderRecord is the sender record of orders record i of o's player, of side side; or of
// standing record i (v5: its "orders" field holds the sealed standing record's index).
func senderRecord(i uint64, side string, o Orders) *gamelog.Builder {
	b := gamelog.New(gamelog.TypeSender).AddUint("turn", uint64(o.Turn)).AddUint("activation", uint64(o.Act)).
		AddUint("orders", i).Add("side", side).Add("player", o.Player)
	if o.For != "" {
		b.Add("for", o.For)
	}
	b.AddTime("received", o.Received)
	if mid := gamelog.CleanText(o.MessageID); mid != "" {
		b.Add("message-id", mid)
	}
	return b
}

// SenderRecord returns the index of the sender record of orders or standing record i (v5,
// a team side's record, which names only the side), or 0 where the record names its player.
func SenderRecord(tx *store.Tx, id ident.GameID, i uint64) (uint64, error) {
	r, err := store.Record(tx, id, i)
	if err != nil {
		return 0, err
	}
	if r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeStanding {
		in, _, err := unseal(tx, id, i)
		if err != nil {
			return 0, err
		}
		r = *in
	}
	if r.Type != gamelog.TypeOrders && r.Type != gamelog.TypeStanding || r.Has("player") {
		return 0, nil
	}
	return i + 1, nil
}

// ordersPlayer returns the player who sent orders record r and the player it counts for
// (for: the one the commander answered for, else the sender): from the record itself, or
// in v5 for a team side's record from the sender record sealed right after it.
func ordersPlayer(tx *store.Tx, id ident.GameID, r *gamelog.Record) (sender, counts string, err error) {
	src := r
	if !r.Has("player") {
		in, _, err := unseal(tx, id, r.Index+1)
		if err != nil {
			return "", "", fmt.Errorf("orders record %d: its sender: %w", r.Index, err)
		}
		if in.Type != gamelog.TypeSender || in.Uint("orders") != r.Index {
			return "", "", fmt.Errorf("orders record %d: no sender record follows it", r.Index)
		}
		src = in
	}
	p := src.Get("player")
	if f := src.Get("for"); f != "" {
		return p, f, nil
	}
	return p, p, nil
}

// ordersInputID is the id an orders record enters E under: its player's, or in v5 for a
// team side's record its side's (docs/DICE.md 3), so that E is computable in every view.
func ordersInputID(r *gamelog.Record) string {
	if !r.Has("player") {
		return r.Get("side")
	}
	return r.Get("player")
}

// replacedRecord is the orders record of the open activation that o, a team side's orders
// of v5, replaces: the latest earlier one of its side that counts for the same player, or
// 0 for none. Its index goes in the new record (replaces), so that a copy without the
// sender records can still tell which of the side's records are current (LOG-FORMAT.md 3,
// "v5's team sides"). It reads the open activation's records only.
func replacedRecord(tx *store.Tx, id ident.GameID, o Orders) (uint64, error) {
	act, err := openActivation(tx, id)
	if err != nil {
		return 0, err
	}
	n, err := store.Len(tx, id)
	if err != nil {
		return 0, err
	}
	counts := cmp.Or(o.For, o.Player)
	var last uint64
	for i := act.Index + 1; i < n; i++ {
		r, err := store.Record(tx, id, i)
		if err != nil {
			return 0, err
		}
		if r.Type != gamelog.TypeOrders || r.Has("player") || r.Uint("turn") != uint64(o.Turn) || r.Uint("activation") != uint64(o.Act) {
			continue
		}
		if _, c, err := ordersPlayer(tx, id, &r); err != nil {
			return 0, err
		} else if c == counts {
			last = i
		}
	}
	return last, nil
}
