package mail

import (
	"encoding/json"
	"fmt"
)

// Outgoing is a mail navarch will send, as the outbox keeps it: decided inside the
// transaction that caused it, sent after that transaction commits (docs/DESIGN.md 5).
type Outgoing struct {
	MessageID   string // without <>; chosen when queued, so that a resend is the same mail
	To          []string
	ReplyTo     string `json:",omitempty"` // a player's tokenized reply address, if any
	Subject     string
	InReplyTo   string
	References  []string
	Text, HTML  string
	Attachments []Attachment
	// Game and Kind (the game's tag, the template's name) are for the sender's log and
	// metrics only: no header carries them.
	Game string `json:",omitempty"`
	Kind string `json:",omitempty"`
}

// Attachment is a file sent with a mail (the map PNG, an exported log).
type Attachment struct {
	Name, ContentType string
	Inline            bool // shown in the HTML part as cid:Name
	Data              []byte
	// Draw, if set, says what the sender makes Data from before sending (a map drawn after
	// the transaction that queued the mail committed, outside it); opaque to this package.
	Draw string `json:",omitempty"`
}

// Marshal encodes an outgoing mail for the outbox.
func (o Outgoing) Marshal() []byte {
	b, _ := json.Marshal(o) // a struct of strings and bytes always encodes
	return b
}

// UnmarshalOutgoing decodes an outbox entry.
func UnmarshalOutgoing(b []byte) (Outgoing, error) {
	var o Outgoing
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("outbox entry: %w", err)
	}
	return o, nil
}
