package play_test

import (
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/play"
)

// The secrecy of each step is the rules' (docs/LOG-FORMAT.md 2): a log whose orders texts
// are sealed where the rules' step is not secret, or public where it is, lets the daemon
// choose which texts enter E as zero bytes. verify checks a declared game's texts against
// its activation records; replay checks the activation records, and every game's texts,
// against the rules.

// secrecyPlaces returns the indexes of the first secret activation record and of the first
// sealed orders text after it, and of the first public orders text of a step that is not
// secret.
func secrecyPlaces(t *testing.T, f *gamelog.File) (act, sealed, public int) {
	t.Helper()
	act, sealed, public = -1, -1, -1
	for i, e := range f.Entries {
		r := e.Record
		switch {
		case r.Type == gamelog.TypeActivation && r.Get("secret") == "yes" && act < 0:
			act = i
		case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeOrdersText && act >= 0 && sealed < 0:
			sealed = i
		case r.Type == gamelog.TypeOrdersText && public < 0 && len(r.All("line")) > 0:
			public = i
		}
	}
	if act < 0 || sealed < 0 || public < 0 {
		t.Fatalf("no secret step, sealed text or public text: %d %d %d", act, sealed, public)
	}
	return act, sealed, public
}

func TestReplayChecksSecrecy(t *testing.T) {
	data, key, _ := selfPlay(t, "lions-at-sea", "secrecy")
	if !strings.Contains(string(data), "\nsecrecy declared\n") {
		t.Fatal("a new game's genesis does not declare secrecy")
	}
	fresh := func() *gamelog.File { return verified(t, data, key) }
	if _, err := play.Replay(fresh(), rulesets); err != nil {
		t.Fatalf("honest log: %v", err)
	}

	// A declared game whose secret step's activation record says nothing.
	f := fresh()
	act, _, _ := secrecyPlaces(t, f)
	r := rebuilt(t, f.Entries[act].Record, func(fl gamelog.Field) (gamelog.Field, bool) { return fl, fl.Key != "secret" })
	f.Entries[act].Record = &r
	if _, err := play.Replay(f, rulesets); err == nil || !strings.Contains(err.Error(), "declared secret false; by the rules it is true") {
		t.Errorf("a secret step declared public: %v", err)
	}

	// A game that declares nothing (as before navarch declared secrecy), the daemon sealing
	// a public text (and writing E with zero bytes for it).
	f = legacy(t, fresh())
	_, _, public := secrecyPlaces(t, fresh())
	inner := rebuilt(t, f.Entries[public].Record, func(fl gamelog.Field) (gamelog.Field, bool) { return fl, true })
	withSide := gamelog.New(gamelog.TypeOrdersText).Add("orders", inner.Get("orders")).Add("side", "christian")
	for _, fl := range inner.Fields()[1:] {
		withSide.Add(fl.Key, fl.Value)
	}
	in, err := withSide.Build(inner.Index)
	if err != nil {
		t.Fatal(err)
	}
	seal, err := gamelog.New(gamelog.TypeSealed).Add("turn", "1").Add("activation", "1").Add("side", "christian").
		Add("what", gamelog.TypeOrdersText).Add("commitment", strings.Repeat("ab", 32)).Build(inner.Index)
	if err != nil {
		t.Fatal(err)
	}
	f.Entries[public].Record, f.Entries[public].Inner = &seal, &in
	if _, err := play.Replay(f, rulesets); err == nil || !strings.Contains(err.Error(), "sealed true in a step the rules make secret false") {
		t.Errorf("a public text sealed: %v", err)
	}

	// The same game, a secret step's text made public.
	f = legacy(t, fresh())
	_, sealed, _ := secrecyPlaces(t, fresh())
	open := rebuilt(t, f.Entries[sealed].Inner, func(fl gamelog.Field) (gamelog.Field, bool) { return fl, fl.Key != "side" })
	f.Entries[sealed].Record, f.Entries[sealed].Inner = &open, nil
	if _, err := play.Replay(f, rulesets); err == nil || !strings.Contains(err.Error(), "sealed false in a step the rules make secret true") {
		t.Errorf("a secret text made public: %v", err)
	}
}

// legacy is f as a game created before navarch declared secrecy: no secrecy in its genesis,
// no secret in its activations.
func legacy(t *testing.T, f *gamelog.File) *gamelog.File {
	t.Helper()
	for i, e := range f.Entries {
		if r := e.Record; r.Type == gamelog.TypeGenesis || r.Type == gamelog.TypeActivation {
			b := rebuilt(t, r, func(fl gamelog.Field) (gamelog.Field, bool) { return fl, fl.Key != "secrecy" && fl.Key != "secret" })
			f.Entries[i].Record = &b
		}
	}
	if _, err := play.Replay(f, rulesets); err != nil {
		t.Fatalf("the honest log, declaring nothing: %v", err)
	}
	return f
}
