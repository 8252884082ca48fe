package mail

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"
)

// DKIMAligned reports whether the mail's receiving server, named by authserv (its
// authserv-id), verified a DKIM signature whose domain aligns with the From domain: the same
// domain or a parent of it (relaxed alignment, RFC 7489 3.1). Only the topmost
// Authentication-Results field with that authserv-id counts (RFC 8601 5: the receiving
// server adds its own on top and must remove any a sender forged under its name).
func DKIMAligned(in *Incoming, authserv string) bool {
	_, from, ok := strings.Cut(in.From, "@")
	if !ok || authserv == "" {
		return false
	}
	for _, v := range in.AuthResults {
		id, results, err := authres.Parse(v)
		if err != nil || !strings.EqualFold(id, authserv) {
			continue
		}
		for _, r := range results {
			d, ok := r.(*authres.DKIMResult)
			if !ok || d.Value != authres.ResultPass || d.Domain == "" {
				continue
			}
			dom := strings.ToLower(strings.TrimSuffix(d.Domain, "."))
			if from == dom || strings.HasSuffix(from, "."+dom) {
				return true
			}
		}
		return false
	}
	return false
}
