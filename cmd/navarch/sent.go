package main

import (
	"bytes"
	"fmt"
	"os"

	"navarch/gamelog"
	"navarch/mail"
)

// readSent reads a player's own sent mail for verify --sent: each file is one mail (.eml)
// or an mbox of many. Each mail gives its Message-ID and the entropy it carried (an ENTROPY
// line, or the text after JOIN), read exactly as the daemon reads them.
func readSent(names []string) ([]gamelog.SentMail, error) {
	var out []gamelog.SentMail
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for i, raw := range splitMbox(data) {
			m, err := sentMail(raw)
			if err != nil {
				return nil, fmt.Errorf("%s: mail %d: %w", name, i+1, err)
			}
			out = append(out, m)
		}
	}
	return out, nil
}

func sentMail(raw []byte) (gamelog.SentMail, error) {
	in, err := mail.Parse(raw, mail.Options{MaxSize: 1 << 26})
	if in == nil {
		return gamelog.SentMail{}, err
	}
	if in.MessageID == "" {
		return gamelog.SentMail{}, fmt.Errorf("no Message-ID")
	}
	req, _ := mail.ReadRequest(in.Subject, in.Text)
	return gamelog.SentMail{MessageID: in.MessageID, Entropy: []byte(req.Entropy), Join: req.Command == mail.CmdJoin}, nil
}

// splitMbox splits an mbox (mails each starting with a "From " line) into its mails; a file
// that does not start with "From " is one mail.
func splitMbox(data []byte) [][]byte {
	if !bytes.HasPrefix(data, []byte("From ")) {
		return [][]byte{data}
	}
	var out [][]byte
	for _, part := range bytes.Split(data, []byte("\nFrom ")) {
		_, body, _ := bytes.Cut(part, []byte("\n")) // the "From " separator line
		body = bytes.ReplaceAll(body, []byte("\n>From "), []byte("\nFrom "))
		if len(bytes.TrimSpace(body)) > 0 {
			out = append(out, body)
		}
	}
	return out
}
