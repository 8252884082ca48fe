package gamelog

import "slices"

// Record types (docs/DICE.md 5).
const (
	TypeGenesis    = "genesis"     // game creation: ids, ruleset, players, seed commitment C, verifier key
	TypeJoin       = "join"        // a player's JOIN and entropy
	TypeStart      = "start"       // play starts: S over the joins
	TypeActivation = "activation"  // an activation opens: who must act, deadline
	TypeOrders     = "orders"      // an accepted order mail: hash of the canonical orders, entropy
	TypeClose      = "close"       // the orders an activation uses and E_{t,a}, before any roll
	TypeOrdersText = "orders-text" // the canonical text of orders a close used, for replay
	TypeRoll       = "roll"        // one die request and its values
	TypeEvent      = "event"       // what the engine did
	TypeState      = "state"       // hash of the state after an activation
	TypeReveal     = "reveal"      // X_t at the end of game turn t
	TypeCheckpoint = "checkpoint"  // Ed25519-signed (size, head)
	TypeCommit     = "commit"      // hash of a side's hidden set-up
	TypeDisclose   = "disclose"    // nonce and data of a commit, when the rules reveal it
	TypeNote       = "note"        // referee actions: pause, extend, replace player
	TypeEnd        = "end"         // the game is over
	TypeSealed     = "sealed"      // (v2) a salted commitment to a record withheld from some views
	TypeRound      = "round"       // (v3) names the beacon round R of a step once its inputs are fixed
	TypeBeacon     = "beacon"      // (v3) round R as the beacon published it: its BLS signature
	TypeAssign     = "assign"      // (v4) the commands a team player holds, sealed for his side
	TypeTeam       = "team"        // (v4) a TEAM message among a side's players, sealed for the side
	TypeStanding   = "standing"    // (v4) a player's standing orders, sealed for his side until a close uses them
	TypeSender     = "sender"      // (v5) the player of a team side's orders or standing record, sealed for the side
)

// Log formats. A game keeps the format of its genesis record for its whole life; verify
// checks each log by the rules of its own format (docs/LOG-FORMAT.md).
const (
	// FormatV1 logs redact withheld records to their bare leaf hash and take the verifier
	// key from the log unless pinned.
	FormatV1 = "navarch/v1"
	// FormatV2 logs commit every withheld record and every order text with a salt, enforce
	// one orders record per acting player in each close, and sign the export's trailer.
	FormatV2 = "navarch/v2"
	// FormatV3 logs are v2 logs that may key their dice with a public randomness beacon
	// (named in the genesis record), must declare their secrecy, and mark the orders records
	// of held advance orders, so that any other Message-ID feeds one orders record only.
	FormatV3 = "navarch/v3"
	// FormatV4 logs are v3 logs that keep standing orders sealed until the step that uses
	// them and let several players share a side, each with the commands he was given
	// (docs/LOG-FORMAT.md 9).
	FormatV4 = "navarch/v4"
	// FormatV5 logs are v4 logs whose standing orders are sealed by kind, so that a step
	// applies only the kinds its rules read, and whose team sides keep from the other side
	// which of their players each step asks (docs/LOG-FORMAT.md 9).
	FormatV5 = "navarch/v5"
)

// Formats lists the log formats verify knows, oldest first.
var Formats = []string{FormatV1, FormatV2, FormatV3, FormatV4, FormatV5}

// AtLeast reports whether format is min or a later format of Formats (a later format keeps
// every rule of the earlier ones unless docs/LOG-FORMAT.md says otherwise).
func AtLeast(format, min string) bool {
	return slices.Index(Formats, format) >= slices.Index(Formats, min) && slices.Contains(Formats, format)
}

// SecrecyDeclared is the genesis record's "secrecy" of a v2 game whose activation records
// declare their secrecy ("secret yes") when they open, before any orders: an orders text of
// such a game is sealed, and enters E as zero bytes, exactly when its activation declared
// it secret, for its player's side alone. Without it (a log written before navarch
// declared secrecy) the daemon could choose, text by text, between the two inputs of E;
// verify says so, and replay checks each sealed text against the rules.
const SecrecyDeclared = "declared"

// MaxTurns bounds the seed chain a genesis record may commit to (docs/DICE.md 1: the scenario's
// turns plus a margin), so that checking a reveal costs at most this many hashes.
const MaxTurns = 1 << 17

// kind is the syntax of a field's value.
type kind int

const (
	kUint   kind = iota // decimal, no leading zeros
	kHex                // lowercase hex, even length, may be empty
	kHex16              // 16 bytes as lowercase hex
	kHex32              // 32 bytes
	kHex64              // 64 bytes
	kToken              // 1-200 printable ASCII bytes, no space
	kTokens             // tokens separated by one space, may be empty
	kUints              // uints separated by one space, at least one
	kText               // UTF-8 without control characters or edge spaces, may be empty
	kTime               // RFC 3339 UTC with seconds ("2006-01-02T15:04:05Z") or "none"
	kDice               // "<count>d<sides>"
	kPair               // two tokens: "<player> <side>"
)

// count is how often a field may occur.
type count int

const (
	one  count = iota // exactly once
	opt               // at most once
	many              // zero or more
	some              // one or more
)

type field struct {
	key  string
	kind kind
	n    count
}

// schemas gives each record type its fields, in the only order they may appear. Every record
// starts with "type" and then "index".
var schemas = map[string][]field{
	TypeGenesis: {{"format", kToken, one}, {"game", kHex16, one}, {"ruleset", kToken, one},
		{"scenario", kToken, one}, {"options", kTokens, one}, {"tables", kHex, opt}, {"engine", kText, one},
		{"player", kPair, some}, {"turns", kUint, one}, {"commitment", kHex32, one},
		{"verifier", kHex32, one}, {"created", kTime, one}, {"secrecy", kToken, opt},
		{"beacon-chain", kHex32, opt}, {"beacon-key", kHex, opt}, {"beacon-period", kUint, opt}, {"beacon-genesis", kUint, opt}},
	TypeJoin: {{"player", kToken, one}, {"entropy", kHex, one}, {"received", kTime, one},
		{"message-id", kText, opt}},
	TypeStart: {{"by", kToken, one}, {"joined", kToken, many}, {"missing", kToken, many},
		{"start-hash", kHex32, one}},
	TypeActivation: {{"turn", kUint, one}, {"activation", kUint, one}, {"act", kTokens, one},
		{"what", kText, one}, {"deadline", kTime, one}, {"secret", kToken, opt}, {"standing", kTokens, opt},
		{"team-asks", kPair, many}},
	TypeOrders: {{"turn", kUint, one}, {"activation", kUint, one}, {"player", kToken, opt},
		{"side", kToken, opt}, {"orders-hash", kHex32, opt}, {"commitment", kHex32, opt}, {"entropy", kHex, one},
		{"default", kToken, opt}, {"received", kTime, opt}, {"message-id", kText, opt}, {"held", kToken, opt},
		{"for", kToken, opt}, {"replaces", kUint, opt}},
	TypeClose: {{"turn", kUint, one}, {"activation", kUint, one}, {"use", kUint, many},
		{"inputs-hash", kHex32, opt}, {"standing", kUint, many}},
	TypeOrdersText: {{"orders", kUint, one}, {"side", kToken, opt}, {"nonce", kHex32, opt}, {"line", kText, many}},
	TypeRoll: {{"turn", kUint, one}, {"activation", kUint, one}, {"seq", kUint, one},
		{"label", kToken, one}, {"dice", kDice, one}, {"values", kUints, one},
		{"as", kToken, opt}, {"items", kTokens, opt}, {"shown", kTokens, opt},
		{"rule", kText, opt}, {"result", kText, opt}},
	TypeEvent: {{"turn", kUint, one}, {"activation", kUint, one}, {"side", kToken, opt},
		{"rule", kText, opt}, {"text", kText, some}, {"roll", kToken, many}, {"kind", kToken, opt}},
	TypeState:      {{"turn", kUint, one}, {"activation", kUint, one}, {"sealed", kToken, opt}, {"state-hash", kHex32, one}},
	TypeReveal:     {{"turn", kUint, one}, {"seed", kHex32, one}},
	TypeCheckpoint: {{"size", kUint, one}, {"head", kHex32, one}, {"signature", kHex64, one}},
	TypeCommit:     {{"side", kToken, one}, {"what", kToken, one}, {"hidden-hash", kHex32, one}},
	TypeDisclose:   {{"commit", kUint, one}, {"nonce", kHex32, one}, {"data", kHex, one}},
	TypeNote:       {{"by", kToken, one}, {"text", kText, some}},
	TypeEnd:        {{"turn", kUint, one}, {"result", kText, one}},
	TypeSealed: {{"turn", kUint, one}, {"activation", kUint, one}, {"side", kToken, opt},
		{"what", kToken, one}, {"commitment", kHex32, one}, {"kind", kToken, opt}},
	TypeRound:  {{"turn", kUint, one}, {"activation", kUint, one}, {"round", kUint, one}},
	TypeBeacon: {{"turn", kUint, one}, {"activation", kUint, one}, {"round", kUint, one}, {"signature", kHex, one}},
	TypeAssign: {{"turn", kUint, one}, {"activation", kUint, one}, {"side", kToken, one}, {"by", kToken, one},
		{"player", kToken, one}, {"commander", kToken, opt}, {"command", kToken, many}},
	TypeTeam: {{"turn", kUint, one}, {"activation", kUint, one}, {"side", kToken, one}, {"player", kToken, one},
		{"text", kText, some}},
	TypeStanding: {{"turn", kUint, one}, {"activation", kUint, one}, {"player", kToken, opt}, {"side", kToken, one},
		{"received", kTime, opt}, {"message-id", kText, opt}, {"kind", kToken, opt}, {"line", kText, many}},
	TypeSender: {{"turn", kUint, one}, {"activation", kUint, one}, {"orders", kUint, one}, {"side", kToken, one},
		{"player", kToken, one}, {"for", kToken, opt}, {"received", kTime, one}, {"message-id", kText, opt}},
}

// Types lists the record types in a fixed order (for documentation and tests).
var Types = []string{TypeGenesis, TypeJoin, TypeStart, TypeActivation, TypeOrders, TypeClose,
	TypeOrdersText, TypeRoll, TypeEvent, TypeState, TypeReveal, TypeCheckpoint, TypeCommit, TypeDisclose,
	TypeNote, TypeEnd, TypeSealed, TypeRound, TypeBeacon, TypeAssign, TypeTeam, TypeStanding, TypeSender}

// typeSchemas holds schemas[Types[i]] at i.
var typeSchemas = func() [][]field {
	out := make([][]field, len(Types))
	for i, t := range Types {
		out[i] = schemas[t]
	}
	return out
}()

// schemaOf returns the constant that names record type typ, and its schema; ok is false for
// an unknown type. It is the lookup of schemas without hashing typ.
func schemaOf(typ string) (name string, schema []field, ok bool) {
	for i, t := range Types {
		if len(t) == len(typ) && t == typ {
			return t, typeSchemas[i], true
		}
	}
	return "", nil, false
}
