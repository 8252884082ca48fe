package gamelog_test

import (
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger/forge"
)

// TestSecrecyAttacksFail: in a game whose genesis declares secrecy, verify requires every
// orders text sealed exactly when its activation declared itself secret ("secret yes", before
// any orders), for its player's side alone; so the operator, who knows X_t, cannot choose
// afterwards which texts enter E as zero bytes (docs/LOG-FORMAT.md 2; forge.SecrecyAttacks).
// The attacks on a genesis that declares nothing are checked with --allow-undeclared, which
// lets such a log reach the checks they aim at.
func TestSecrecyAttacksFail(t *testing.T) {
	attacks, g := forge.SecrecyAttacks(t)
	for _, a := range attacks {
		t.Run(a.Name, func(t *testing.T) {
			idx, why := failure(t, a.Data, gamelog.VerifyOptions{Key: g.Pub(), AllowUndeclared: true})
			if idx != a.Index || !strings.Contains(why, a.Reason) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, a.Index, a.Reason)
			}
		})
	}
}

// TestSecrecyUndeclared: a v2 genesis without "secrecy declared" fails, since its daemon
// could seal a public text and so choose among 2^k keys (docs/LOG-FORMAT.md 2); with
// --allow-undeclared (a game created before navarch declared secrecy) it verifies, with a
// note saying what is left to replay, also where the operator sealed a public text
// (play.TestReplayChecksSecrecy shows replay refusing that).
func TestSecrecyUndeclared(t *testing.T) {
	honest, sealedPublic, g := forge.Undeclared(t)
	for name, data := range map[string][]byte{"honest": honest, "a public text sealed": sealedPublic} {
		idx, why := failure(t, data, gamelog.VerifyOptions{Key: g.Pub()})
		if idx != 0 || !strings.Contains(why, "--allow-undeclared") {
			t.Errorf("%s: failure at %d: %s; want the genesis refused", name, idx, why)
		}
		rep, err := verifyData(t, data, gamelog.VerifyOptions{Key: g.Pub(), AllowUndeclared: true})
		if err != nil || !rep.OK() || !strings.Contains(strings.Join(rep.Notes, "\n"), "do not declare their secrecy") {
			t.Errorf("%s: %v %v, notes %q", name, err, rep.Failure, rep.Notes)
		}
	}
}
