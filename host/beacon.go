package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/beacon"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/play"
	"navarch/store"
)

// A beacon game (docs/DICE.md 3) keys each step's dice with a round of a public randomness
// beacon as well. Once a step's inputs are fixed (its last orders, the deadline's defaults,
// or the opening of an automatic step) the host names the first round at least Delay later
// (ledger.Complete) and mails the players of the step a notice with the signed checkpoint
// that covers the round record, before anybody knows the round; the step then waits. The
// deadline loop fetches the round from the relays (beacon.Client: each round verified
// before use), writes it (ledger.PutRound) and resolves the step. It never falls back to a
// key without the round: a round that cannot be fetched keeps the step waiting, logged and
// counted (BeaconWaiting), until it comes.

// BeaconConfig keys every new game's dice with a beacon.
type BeaconConfig struct {
	Client *beacon.Client // its Chain names the beacon; its Relays serve the rounds
	// Delay is the least time from a step's inputs to its round, long enough for the mail
	// that names the round to reach the players; DefaultBeaconDelay if zero.
	Delay time.Duration
	// Poll is how often the daemon looks for the rounds of waiting steps; DefaultBeaconPoll
	// if zero.
	Poll time.Duration
}

// beaconGrace is how long after a round's time the relays may not serve it yet without the
// step being counted and logged as waiting (drand's relays lag a round by a second or so).
const beaconGrace = 30 * time.Second

// DefaultBeaconPoll is how often Serve fetches due rounds.
const DefaultBeaconPoll = 15 * time.Second

// beaconLoop runs BeaconPass every Poll while the daemon serves, and wakes the outbox when a
// pass resolved a step (its reports are queued); it returns only when ctx ends.
func (h *Host) beaconLoop(ctx context.Context, wake chan struct{}) {
	if h.cfg.Beacon == nil || h.cfg.Beacon.Client == nil {
		<-ctx.Done()
		return
	}
	poll := h.cfg.Beacon.Poll
	if poll <= 0 {
		poll = DefaultBeaconPoll
	}
	for ctx.Err() == nil {
		if err := h.BeaconPass(ctx); err != nil {
			h.log.Error("beacon rounds", "err", err)
		}
		select {
		case wake <- struct{}{}:
		default:
		}
		select {
		case <-time.After(poll):
		case <-ctx.Done():
		}
	}
}

// DefaultBeaconDelay is a few minutes: mail reaches a player in seconds, and PBEM steps take
// days.
const DefaultBeaconDelay = 5 * time.Minute

func (h *Host) beaconChain() *beacon.Chain {
	if h.cfg.Beacon == nil || h.cfg.Beacon.Client == nil {
		return nil
	}
	c := h.cfg.Beacon.Client.Chain
	return &c
}

func (h *Host) beaconDelay() time.Duration {
	if h.cfg.Beacon == nil || h.cfg.Beacon.Delay <= 0 {
		return DefaultBeaconDelay
	}
	return h.cfg.Beacon.Delay
}

// awaitRound is returned where a beacon game's step waits for its round: the transaction
// commits (the round record and the notices with it), and the step goes on when the round
// is fetched.
type awaitRound struct {
	round uint64
	at    time.Time
}

func (a *awaitRound) Error() string {
	return fmt.Sprintf("the step waits for beacon round %d (published at %s)", a.round, a.at.Format(time.RFC3339))
}

// fixRound is called before a step of game id closes with uses: in a beacon game it names
// the step's round where none is named for these inputs yet (and mails the notices, but to
// told, whose receipt follows), and returns *awaitRound until the round's beacon record is in
// the log.
func (h *Host) fixRound(tx *store.Tx, id ident.GameID, g *game, st adjudicator.Step, uses []uint64, told *player) error {
	c, err := ledger.Beacon(tx, id)
	if err != nil || c == nil {
		return err
	}
	round, at, _, err := ledger.Named(tx, id)
	if err != nil {
		return err
	}
	renamed := round == 0
	for _, u := range uses {
		renamed = renamed || u > at // orders replaced after the round was named: a new round
	}
	if !renamed {
		if _, have, err := ledger.NamedRound(tx, id); err != nil || have {
			return err
		}
		return &awaitRound{round: round, at: c.Time(round)}
	}
	_, round, err = ledger.Complete(tx, id, st.Turn, st.Act, uses, h.cfg.Now(), h.beaconDelay())
	if err != nil {
		return err
	}
	if h.beaconChain() == nil { // the game waits for a round nobody here will fetch
		h.log.Error("a beacon game's step waits for its round, and this installation configures no beacon relays (config: beacon)",
			"game", fmt.Sprintf("%x", id[:]), "round", round)
	}
	if err := h.roundNotices(tx, id, g, st, round, c.Time(round), told); err != nil {
		return err
	}
	return &awaitRound{round: round, at: c.Time(round)}
}

// roundBeforeReceipt names the round of a step whose last orders, from sender, just came, so
// that their receipt, queued next, carries the checkpoint that covers the round record: the
// mail that proves to him that the round was named before it was published. The step's
// other players get the notice.
// It returns what the receipt says of the round ("" in a game without a beacon).
func (h *Host) roundBeforeReceipt(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, sender *player) (string, error) {
	var uses []uint64
	for _, k := range keys(g.Step) {
		if r, ok := g.Step.Orders[k]; ok {
			uses = append(uses, r.Index)
		}
	}
	var await *awaitRound
	switch err := h.fixRound(tx, id, g, eng.Next(), uses, sender); {
	case errors.As(err, &await):
		return roundLine(await.round, await.at), nil
	case err != nil:
		return "", err
	}
	return "", nil
}

// roundLine says what a step's dice wait for.
func roundLine(round uint64, at time.Time) string {
	return fmt.Sprintf("The step's inputs are fixed. Its dice wait for round %d of the public randomness beacon, published at %s, which nobody, this server included, can know before.",
		round, at.UTC().Format("2006-01-02 15:04:05 UTC"))
}

// awaitsRound reports whether the open step of game id has its round named and waits for
// it: its inputs are fixed, so no deadline applies to it any more.
func awaitsRound(tx *store.Tx, id ident.GameID) (bool, error) {
	round, _, _, err := ledger.Named(tx, id)
	if err != nil || round == 0 {
		return false, err
	}
	_, have, err := ledger.NamedRound(tx, id)
	return !have, err
}

// roundNotices mails each player of the step's sides that its dice wait for round R, with
// the signed checkpoint that covers the record naming it (every mail carries the signed
// checkpoint of the log's head): kept, that mail proves the round was named before it was
// published (verify --checkpoint). An automatic step asks nobody: the report that tells what
// happened before it goes out then (advanceFrom), with that checkpoint.
func (h *Host) roundNotices(tx *store.Tx, id ident.GameID, g *game, st adjudicator.Step, round uint64, at time.Time, told *player) error {
	for i := range g.Players {
		p := &g.Players[i]
		if !containsSide(st.Sides, p.Side) || told != nil && p.ID == told.ID { // his receipt tells him
			continue
		}
		if err := h.notice(tx, g, recipient{p: p}, "",
			fmt.Sprintf("T%d A%d, %s: %s", st.Turn, st.Act, st.What, strings.ToLower(roundLine(round, at)[:1])+roundLine(round, at)[1:]),
			"Keep this mail: its checkpoint proves the round was named before it was published (navarch verify --checkpoint)."); err != nil {
			return err
		}
	}
	return nil
}

func containsSide(sides []string, s string) bool {
	for _, x := range sides {
		if x == s {
			return true
		}
	}
	return false
}

// BeaconWaiting counts the steps the last beacon pass left waiting for a round that was due
// and could not be fetched (a relay down, or behind); the metrics report it.
func (h *Host) BeaconWaiting() int { return int(h.waiting.Load()) }

// BeaconPass fetches the round of every beacon game whose step waits for one that is due,
// writes it and resolves the step. A round that cannot be fetched is logged, and the step
// keeps waiting.
func (h *Host) BeaconPass(ctx context.Context) error {
	if h.cfg.Beacon == nil || h.cfg.Beacon.Client == nil {
		return nil
	}
	type wait struct {
		id    ident.GameID
		round uint64
		chain *beacon.Chain
	}
	var waits []wait
	err := h.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			round, _, _, err := ledger.Named(tx, id)
			if err != nil || round == 0 {
				continue
			}
			if _, have, err := ledger.NamedRound(tx, id); err != nil || have {
				continue
			}
			if c, err := ledger.Beacon(tx, id); err == nil && c != nil {
				waits = append(waits, wait{id, round, c})
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStoreDown, err)
	}
	var errs []error
	left := 0
	for _, w := range waits {
		if w.chain.Time(w.round).After(h.cfg.Now()) { // not published yet: waits, as it should
			continue
		}
		r, err := h.round(ctx, w.chain, w.round)
		if errors.Is(err, beacon.ErrNotYet) && h.cfg.Now().Before(w.chain.Time(w.round).Add(beaconGrace)) {
			continue // the relays are a moment behind the round's time: the next pass fetches it
		}
		if err != nil {
			left++
			h.log.Warn("beacon round not fetched: the step waits for it", "game", fmt.Sprintf("%x", w.id[:]), "round", w.round, "err", err)
			continue
		}
		if err := h.updateGames(func(tx *store.Tx) error { return h.resumeRound(tx, w.id, r) }, nil); err != nil {
			errs = append(errs, fmt.Errorf("beacon round %d of game %x: %w", w.round, w.id[:], err))
		}
	}
	h.waiting.Store(int64(left))
	return errors.Join(errs...)
}

// round is round r of chain: as the store kept it (verified again), or fetched from the
// relays, verified, and kept for the other games that wait for it.
func (h *Host) round(ctx context.Context, chain *beacon.Chain, r uint64) (beacon.Round, error) {
	var kept []byte
	h.s.View(func(tx *store.Tx) error { kept = store.Round(tx, chain.Hash, r); return nil })
	if kept != nil {
		if round := (beacon.Round{Number: r, Signature: kept}); chain.Verify(round) == nil {
			return round, nil
		}
	}
	cl := *h.cfg.Beacon.Client
	cl.Chain = *chain
	round, err := cl.Fetch(ctx, r)
	if err != nil {
		return round, err
	}
	if err := h.s.Update(func(tx *store.Tx) error { return store.PutRound(tx, chain.Hash, r, round.Signature) }); err != nil {
		h.log.Warn("beacon round not kept", "round", r, "err", err) // used all the same: it verified
	}
	return round, nil
}

// resumeRound writes round r as the open step's beacon record and resolves the step, then runs
// the game on.
func (h *Host) resumeRound(tx *store.Tx, id ident.GameID, r beacon.Round) error {
	g, err := loadGame(tx, id)
	if err != nil || g == nil || g.Status == store.StatusOver { // ended while the step waited (ENDGAME)
		return err
	}
	eng, err := h.engine(tx, id)
	if err != nil {
		return err
	}
	st := eng.Next()
	if err := ledger.PutRound(tx, id, st.Turn, st.Act, r); err != nil {
		if errors.Is(err, ledger.ErrSequence) { // written already (a pass that raced), or no longer named
			return nil
		}
		return err
	}
	if g.paused() { // nothing is adjudicated while paused: RESUME resolves the step
		return nil
	}
	start, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	if g.Step != nil {
		err = h.resolve(tx, id, g, eng)
	} else {
		var res play.Result
		if res, err = h.resolveAuto(tx, id, g, eng, nil); err == nil {
			err = h.advanceFrom(tx, id, g, eng, start, res.Checkpoint)
		}
	}
	if err != nil && !isAwait(err) {
		return err
	}
	return h.saveGame(tx, id, g)
}

// resolveAuto resolves an automatic step already opened, once its round is in the log (in a
// beacon game).
func (h *Host) resolveAuto(tx *store.Tx, id ident.GameID, g *game, eng adjudicator.Game, ckpt *gamelog.Checkpoint) (play.Result, error) {
	if err := h.fixRound(tx, id, g, eng.Next(), nil, nil); err != nil {
		return play.Result{Checkpoint: ckpt}, err
	}
	res, err := play.Resolve(tx, id, eng, nil, nil)
	if res.Checkpoint == nil {
		res.Checkpoint = ckpt
	}
	return res, err
}

func isAwait(err error) bool {
	var a *awaitRound
	return errors.As(err, &a)
}
