package host

import (
	"fmt"
	"strconv"
	"strings"
)

// noteFolded: order lines whose Cyrillic or Greek look-alike letters (or full-width ones)
// were read as the Latin letters they look like (mail.Request.Folded) are named before the
// answer, receipt or refusal, so that a player whose keyboard wrote "ВАR" for "BAR" knows
// what was read. The note follows any other note for the same mail.
func (h *Host) noteFolded(a *actor) {
	if len(a.req.Folded) == 0 || a.msg.MessageID == "" {
		return
	}
	nums := make([]string, len(a.req.Folded))
	for i, n := range a.req.Folded {
		nums[i] = strconv.Itoa(n)
	}
	word := "line"
	if len(nums) > 1 {
		word = "lines"
	}
	text := fmt.Sprintf("Your %s %s had letters that only look Latin (Cyrillic, Greek or full-width); they were read as the Latin letters they look like, as quoted below.",
		word, strings.Join(nums, ", "))
	if prev := a.g.note.For(a.msg.MessageID); prev != "" {
		text = prev + " " + text
	}
	a.g.note = answerNote{msgID: a.msg.MessageID, text: text}
}
