package forge

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ledger"
)

// TeamHideAttacks are the operator's rewrites of the v5 team duel (TeamGame, two turns
// played) that verify must refuse by v5's rules, which keep from the other side which of a
// team's players each step asks (docs/LOG-FORMAT.md 3): each is of the view named in its
// name, and games holds the honest exports it was made from (full, public, red).
func TeamHideAttacks(t testing.TB) (out []Forged, games map[string]Game) {
	t.Helper()
	s, c := TeamGame(t, 2)
	games = map[string]Game{}
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}} {
		games[v.Name()] = TeamExport(t, s, c, v)
	}
	add := func(name string, g Game, blocks []string, index int, reason string) {
		out = append(out, Forged{Name: name, Data: Resign(t, g.Key, Rechain(t, g.Key, blocks)), Index: int64(index), Reason: reason})
	}
	full, public, red := games["full"], games["public"], games["side:red"]
	{ // the other side counts: one red record more than the step asked
		b := Blocks(public.Data)
		x := withSecondBob(t, b, "", false)
		cl := Find(t, x, "close", "turn 2\nactivation 1\n")
		add("public: a close using one orders record more of a team side than its count", public, x, cl-1, "uses 2 orders records of team side red")
	}
	{ // and one fewer: blue's default left out
		b := Blocks(public.Data)
		dave := Find(t, b, "orders", "turn 2\nactivation 1\n", "side blue\n", "default yes")
		cl := Find(t, b, "close", "turn 2\nactivation 1\n")
		x := Clone(b)
		x[cl] = strings.Replace(x[cl], fmt.Sprintf("use %d\n", dave-1), "", 1)
		x = append(x[:dave:dave], x[dave+2:]...)
		add("public: a close using one orders record fewer of a team side than its count", public, x, cl-3, "uses 0 orders records of team side blue")
	}
	{ // the other side counts records, not uses: bob's one record used twice, E and the count raised to match
		x := Clone(Blocks(public.Data))
		bob := Find(t, x, "orders", "turn 2\nactivation 1\n", "side red\n")
		cl := Find(t, x, "close", "turn 2\nactivation 1\n")
		act := Find(t, x, "activation", "turn 2\nactivation 1\n")
		x[act] = strings.Replace(x[act], "team-asks red 1", "team-asks red 2", 1)
		x[cl] = strings.Replace(x[cl], fmt.Sprintf("use %d\n", bob-1), fmt.Sprintf("use %d\nuse %d\n", bob-1, bob-1), 1)
		text := Find(t, x, "orders-text", fmt.Sprintf("orders %d\n", bob-1))
		x = InsertAt(x, text+1, x[text])
		x[cl] = withInputs(t, x, cl)
		add("public: a close using one orders record of a team side twice (the count raised to match)", public, x, cl-1, "twice")
	}
	{ // red's copy tells bob's two records apart, though the count matches
		x := withSecondBob(t, Blocks(red.Data), "<2b@bob.example>", true)
		cl := Find(t, x, "close", "turn 2\nactivation 1\n")
		add("side:red: two orders records of one team player (the count raised to match)", red, x, cl-2, "names no record it replaces") // at the second's sender record
	}
	{ // every copy knows the current records: bob's second names the one it replaces, the close uses the first
		x := Clone(Blocks(public.Data))
		bob := Find(t, x, "orders", "turn 2\nactivation 1\n", "side red\n")
		cl := Find(t, x, "close", "turn 2\nactivation 1\n")
		x = InsertAt(InsertAt(x, cl, x[bob+1]), cl, x[bob]+fmt.Sprintf("\nreplaces %d", bob-1))
		add("public: a close using a team side's record that a later one replaces", public, x, cl+1, "which a later record replaces")
	}
	{ // and where the second names none, the close must still use every current one
		x := Clone(Blocks(public.Data))
		bob := Find(t, x, "orders", "turn 2\nactivation 1\n", "side red\n")
		cl := Find(t, x, "close", "turn 2\nactivation 1\n")
		x = InsertAt(InsertAt(x, cl, x[bob+1]), cl, x[bob])
		add("public: a second record of a team side naming no record it replaces, left unused", public, x, cl+1, "that no later record replaces")
	}
	b := Blocks(full.Data)
	bob2 := Find(t, b, "orders", "turn 2\nactivation 1\n", "side red\n")
	{
		x := Clone(b)
		x[bob2] = strings.Replace(x[bob2], "side red\n", "player bob\n", 1)
		add("full: a team side's orders record naming its player publicly", full, x, bob2-1, "publicly")
	}
	{
		x := append(Clone(b[:bob2+1]), b[bob2+2:]...)
		add("full: a team side's orders record without its sender record", full, x, bob2-1, "without its sender record")
	}
	{
		x := Clone(b)
		x[bob2+1] = strings.Replace(x[bob2+1], "\nplayer bob\n", "\nplayer carol\n", 1)
		add("full: a sender record naming a player of the other side", full, x, bob2, "a player of side \"blue\"")
	}
	{
		x := Clone(b)
		dave := Find(t, x, "orders", "turn 2\nactivation 1\n", "side blue\n")
		x[bob2] += fmt.Sprintf("\nreplaces %d", dave-1)
		add("full: a team side's record replacing a record of another side", full, x, bob2-1, "not an earlier orders record of side red")
	}
	{
		x := Clone(b)
		x[bob2+1] = strings.Replace(x[bob2+1], "\nplayer bob\n", "\nplayer bob\nfor alice\n", 1)
		add("full: orders for another player from one who is not the side's commander", full, x, bob2, "only the side's commander")
	}
	{ // E over lp(player), as v4 hashes it: verify hashes lp(side)
		x := Clone(b)
		cl := Find(t, x, "close", "turn 1\nactivation 1\n")
		var inputs []dice.Input
		for i, p := range []string{"alice", "dave"} {
			text, _ := TextOf(x[cl+1+i])
			inputs = append(inputs, dice.Input{Player: p, OrdersHash: gamelog.OrdersHash([]byte(text))})
		}
		e := dice.InputsHash(1, 1, inputs)
		x[cl] = regexp.MustCompile(`(?m)^inputs-hash \w+$`).ReplaceAllString(x[cl], "inputs-hash "+hex.EncodeToString(e[:]))
		add("full: E hashed over the players' ids, not the team sides'", full, x, cl-1, "recomputed E")
	}
	return out, games
}

// withSecondBob adds a second orders record of bob's to turn 2 (a copy of his, under
// messageID where given, its sender record after it) right before the close, which uses it
// too; raise also makes the activation count two of red's players.
func withSecondBob(t testing.TB, b []string, messageID string, raise bool) []string {
	t.Helper()
	bob := Find(t, b, "orders", "turn 2\nactivation 1\n", "side red\n")
	cl := Find(t, b, "close", "turn 2\nactivation 1\n")
	orders, sender := b[bob], b[bob+1]
	sender = strings.Replace(sender, fmt.Sprintf("\norders %d\n", bob-1), fmt.Sprintf("\norders %d\n", cl-1), 1)
	if messageID != "" {
		sender = strings.Replace(sender, "<2@bob.example>", messageID, 1)
	}
	x := InsertAt(InsertAt(b, cl, sender), cl, orders)
	x[cl+2] = strings.Replace(x[cl+2], fmt.Sprintf("use %d\n", bob-1), fmt.Sprintf("use %d\nuse %d\n", bob-1, cl-1), 1)
	if raise {
		act := Find(t, x, "activation", "turn 2\nactivation 1\n")
		x[act] = strings.Replace(x[act], "team-asks red 1", "team-asks red 2", 1)
	}
	return x
}

// TeamV4Attacks are v4 team logs using v5's fields: a count of a team side's players asked,
// and an orders record without its player's name (v4 refuses one naming a side as it
// refuses v1's marks of a withheld record).
func TeamV4Attacks(t testing.TB) ([]Forged, Game) {
	t.Helper()
	s, c := TeamGameIn(t, 2, gamelog.FormatV4)
	g := TeamExport(t, s, c, ledger.View{Full: true})
	b := Blocks(g.Data)
	var out []Forged
	add := func(name string, blocks []string, index int, reason string) {
		out = append(out, Forged{Name: name, Data: Resign(t, g.Key, Rechain(t, g.Key, blocks)), Index: int64(index), Reason: reason})
	}
	act := Find(t, b, "activation", "turn 1\nactivation 1\n")
	alice := Find(t, b, "orders", "turn 1\nactivation 1\n", "player alice\n")
	{
		x := Clone(b)
		x[act] += "\nteam-asks red 1"
		add("v4: an activation counting a team side's players asked (team-asks)", x, act-1, "team-asks belong to navarch/v5")
	}
	{
		x := Clone(b)
		x[alice] = strings.Replace(x[alice], "player alice\n", "", 1)
		add("v4: an orders record without its player", x, alice-1, "names its player")
	}
	return out, g
}

// OnePlayerHidden is the small game's full export (one player a side, v5) with an orders
// record of alice's naming her side instead of her: only a team side's record keeps its
// player sealed.
func OnePlayerHidden(t testing.TB, g Game) Forged {
	t.Helper()
	b := Blocks(g.Data)
	i := Find(t, b, "orders", "player alice\n")
	x := Clone(b)
	x[i] = regexp.MustCompile(`(?m)^received .*\n`).ReplaceAllString(strings.Replace(x[i], "player alice\n", "side venice\n", 1), "")
	x[i] = regexp.MustCompile(`(?m)^message-id .*(\n|$)`).ReplaceAllString(x[i], "")
	x[i] = strings.TrimSuffix(x[i], "\n")
	return Forged{Name: "a one-player side's orders record without its player's name", Data: Resign(t, g.Key, Rechain(t, g.Key, x)), Index: int64(i - 1),
		Reason: "only a side of several players"}
}

// TeamStandingAttacks are the operator's rewrites of TeamStandingGame that verify must
// refuse by v5's rules for a team side's standing records (docs/LOG-FORMAT.md 3, "v5's team
// sides"): a standing record naming its player, one without its sender record (in the full
// copy and in the other side's, which holds the sealed sender record but not what it seals),
// a sender record naming a player of the other side, and a second mail under the first's
// Message-ID; and a one-player side's standing record without its player (the small game,
// v5). games holds the honest exports they were made from (full, public, standing).
func TeamStandingAttacks(t testing.TB) (out []Forged, games map[string]Game) {
	t.Helper()
	s, c := TeamStandingGame(t)
	games = map[string]Game{}
	for _, v := range []ledger.View{{Full: true}, {}} {
		games[v.Name()] = TeamExport(t, s, c, v)
	}
	add := func(name string, g Game, blocks []string, index int, reason string) {
		out = append(out, Forged{Name: name, Data: Resign(t, g.Key, Rechain(t, g.Key, blocks)), Index: int64(index), Reason: reason})
	}
	full, public := games["full"], games["public"]
	b := Blocks(full.Data)
	s1 := Find(t, b, "sealed", "side red\nwhat standing")
	{
		x := Clone(b)
		x[s1] = strings.Replace(x[s1], "\nactivation 1\nside red\nline FIRE", "\nactivation 1\nplayer bob\nside red\nreceived 2026-11-30T12:00:00Z\nline FIRE", 1)
		add("full: a team side's standing record naming its player", full, x, s1-1, "names no player")
	}
	{
		x := append(Clone(b[:s1+1]), b[s1+2:]...)
		add("full: a team side's standing record without its sender record", full, x, s1-1, "without its sender record")
	}
	{
		p := Blocks(public.Data)
		ps := Find(t, p, "sealed", "side red\nwhat standing")
		x := append(Clone(p[:ps+1]), p[ps+2:]...)
		add("public: a team side's standing record without its sender record", public, x, ps-1, "without its sender record")
	}
	{
		x := Clone(b)
		x[s1+1] = strings.Replace(x[s1+1], "\nplayer bob\n", "\nplayer carol\n", 1)
		add("full: a standing record's sender naming a player of the other side", full, x, s1, "a player of side \"blue\"")
	}
	{
		s2 := Find(t, b, "sealed", "side red\nwhat sender", "<s2@bob.example>")
		x := Clone(b)
		x[s2] = strings.Replace(x[s2], "<s2@bob.example>", "<s1@bob.example>", 1)
		add("full: two standing records of one kind under one Message-ID (their sender records)", full, x, s2-1, "of each kind")
	}
	{
		sm := NewGame(t, StandingScript(), ledger.View{Full: true})
		games["standing"] = sm
		sb := Blocks(sm.Data)
		i := Find(t, sb, "sealed", "side venice\nwhat standing", "player alice\n")
		x := Clone(sb)
		x[i] = strings.Replace(x[i], "player alice\n", "", 1)
		add("standing: a one-player side's standing record without its player", sm, x, i-1, "names its player")
	}
	return out, games
}

// withInputs is close record cl of x with its inputs-hash recomputed over the records it
// uses, as a dishonest operator would write it: each use's side (a team side's record) or
// player, its text (the orders-text records that follow the close, in use order) and entropy.
func withInputs(t testing.TB, x []string, cl int) string {
	t.Helper()
	ta := regexp.MustCompile(`(?m)^turn (\d+)\nactivation (\d+)$`).FindStringSubmatch(x[cl])
	var inputs []dice.Input
	for k, u := range regexp.MustCompile(`(?m)^use (\d+)$`).FindAllStringSubmatch(x[cl], -1) {
		i := atoi(t, u[1]) + 1 // the blocks of Blocks start with the header
		rec := x[i]
		id := field(rec, "player")
		if id == "" {
			id = field(rec, "side")
		}
		ent, err := hex.DecodeString(field(rec, "entropy"))
		if err != nil {
			t.Fatal(err)
		}
		text, _ := TextOf(x[cl+1+k])
		inputs = append(inputs, dice.Input{Player: id, OrdersHash: gamelog.OrdersHash([]byte(text)), Entropy: ent})
	}
	e := dice.InputsHash(uint32(atoi(t, ta[1])), uint32(atoi(t, ta[2])), inputs)
	return regexp.MustCompile(`(?m)^inputs-hash \w+$`).ReplaceAllString(x[cl], "inputs-hash "+hex.EncodeToString(e[:]))
}

func field(rec, key string) string {
	m := regexp.MustCompile(`(?m)^` + key + ` ?(.*)$`).FindStringSubmatch(rec)
	if m == nil {
		return ""
	}
	return m[1]
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
