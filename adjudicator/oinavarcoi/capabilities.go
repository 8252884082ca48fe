package oinavarcoi

import "navarch/adjudicator"

// The capabilities the host finds on this ruleset's games by type assertion; each is asserted
// here so that a renamed or changed method fails to compile instead of silently dropping it.
var (
	_ adjudicator.Game           = (*Game)(nil)
	_ adjudicator.Sealer         = (*Game)(nil)
	_ adjudicator.Summarizer     = (*Game)(nil)
	_ adjudicator.Bot            = (*Game)(nil)
	_ adjudicator.AdvanceOrders  = (*Game)(nil)
	_ adjudicator.OrderFormer    = (*Game)(nil)
	_ adjudicator.StandingOrders = (*Game)(nil)
	_ adjudicator.Teams          = (*Game)(nil)
)
