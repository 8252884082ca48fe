package host

import (
	"strings"

	"navarch/adjudicator"
	"navarch/templates"
)

// requestBody is the request for orders of side for the step awaited: an order form when the
// game gives one (adjudicator.OrderFormer), with the units that may act, what each
// may legally do, the no-orders default, and pre-filled lines the player can send back.
func requestBody(g *game, eng adjudicator.Game, side string) templates.Request {
	req := templates.Request{What: g.Step.What, Waiting: g.Step.Sides, Secret: g.Step.Secret, Default: g.Step.Default}
	fo, ok := eng.(adjudicator.OrderFormer)
	if !ok {
		return req
	}
	form := fo.OrderForm(side)
	for _, u := range form.Units {
		req.Units = append(req.Units, templates.FormUnit{ID: u.ID, Where: u.Where, Facing: u.Facing, Allowance: u.Allowance, May: u.May})
	}
	if form.Default != "" {
		req.Default = form.Default
	}
	if len(form.Lines) > 0 {
		req.Lines = strings.Join(form.Lines, "\n") + "\n"
	}
	return req
}

// worded rewrites the rulebook's result codes in report lines into words when the game can
// ("no effect", not "NE"; adjudicator.Worder).
func worded(eng adjudicator.Game, lines []templates.ReportLine) {
	if w, ok := eng.(adjudicator.Worder); ok {
		for i := range lines {
			lines[i].Text = w.Words(lines[i].Text)
		}
	}
}
