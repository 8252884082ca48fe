package adjudicator

// Kind says what an event is to a player, in one token (the log's kind field, log format
// v4): each ruleset gives its events a kind as it records them, and a report's subject names
// the first event of the heaviest kind (Headline), by kind, never by the event's words.
type Kind string

// The kinds of events, heaviest first.
const (
	KindEnd     Kind = "end"     // the game or battle ends, or a side leaves the field
	KindLoss    Kind = "loss"    // a ship, squadron or leader lost: sunk, captured, killed, fled, off the table
	KindBreak   Kind = "break"   // a wing, squadron or line breaks: it routs, its morale fails
	KindHit     Kind = "hit"     // a blow that tells: a hit, damage, a boarding or melee decided
	KindAttack  Kind = "attack"  // an attack made: a ram, a grapple, a volley, a melee begun
	KindAction  Kind = "action"  // a unit acts or is found: revealed, repaired, rallied, a signal
	KindChange  Kind = "change"  // the field changes: disengaging, lashing, weather, disorder
	KindMove    Kind = "move"    // a unit moves
	KindRoutine Kind = "routine" // a routine of the game that tells a little: initiative, reloading
	KindNote    Kind = "note"    // the rest: draws, set-up, what an order could not do
	KindTold    Kind = "told"    // the player's own order told back: never the news
)

// Kinds lists every kind, heaviest first.
var Kinds = []Kind{KindEnd, KindLoss, KindBreak, KindHit, KindAttack, KindAction, KindChange, KindMove, KindRoutine, KindNote, KindTold}

// Weight is the kind's place in a report's subject: higher is heavier; a note, and an event
// of no kind, weigh 0; a standing order told back -1.
func (k Kind) Weight() int {
	for i, c := range Kinds {
		if c == k {
			return len(Kinds) - 2 - i
		}
	}
	return 0
}
