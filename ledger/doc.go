// Package ledger writes a game's log: the commitments at creation, joins, activations,
// orders, closes, rolls, events, reveals, checkpoints and hidden set-up, through store
// transactions.
//
// Every function takes the *store.Tx of its caller, so that everything one activation writes
// (close, rolls, events, state, and the caller's own status and outbox) commits together.
// Secrets (the seed X_N, hidden set-up) stay in the store's secret bucket; Export never
// writes them, and a side's export holds only what that side may see.
package ledger
