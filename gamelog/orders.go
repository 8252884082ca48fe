package gamelog

import (
	"strings"
)

// Block markers of the orders as recorded, quoted in every receipt.
const (
	OrdersBegin = "-----BEGIN NAVARCH ORDERS-----"
	OrdersEnd   = "-----END NAVARCH ORDERS-----"
)

// CanonicalOrders returns the canonical order text of lines: each line with mail quoting
// ("> ") removed, trimmed and its white space runs folded to one space; empty lines dropped;
// every line ended by LF. If text holds an orders block (as in a receipt), only the block's
// lines count.
func CanonicalOrders(text string) []byte {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if _, after, ok := strings.Cut(text, OrdersBegin); ok {
		text, _, _ = strings.Cut(after, OrdersEnd)
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "> ")
		if f := strings.Fields(line); len(f) > 0 {
			b.WriteString(strings.Join(f, " "))
			b.WriteByte('\n')
		}
	}
	return []byte(b.String())
}

// OrdersText joins canonical order lines into canonical order text.
func OrdersText(lines []string) []byte {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// OrdersBlock returns canonical order text framed as the block a receipt quotes.
func OrdersBlock(canonical []byte) string {
	return OrdersBegin + "\n" + string(canonical) + OrdersEnd + "\n"
}
