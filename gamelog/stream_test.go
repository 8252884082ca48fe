package gamelog_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestStreamVerifiesHonestLogs: the streaming verifier decides an honest log itself, in
// every view and in stretches of every size down to a few hundred bytes, with Verify's
// report: no log is left to the whole verifier that the stream should read.
func TestStreamVerifiesHonestLogs(t *testing.T) {
	over := ledgertest.Small
	over.End = true
	long := ledgertest.Script{Seed: "stream", Turns: 4, Activations: 12, Rolls: 9, Reveal: -1, End: true}
	for _, c := range []struct {
		name string
		sc   ledgertest.Script
		view ledger.View
	}{
		{"full, over", over, ledger.View{Full: true}},
		{"public, over", over, ledger.View{}},
		{"public, pending", ledgertest.Small, ledger.View{}},
		{"side, pending", ledgertest.Small, ledger.View{Side: "venice"}}, // with its private block
		{"other side, pending", ledgertest.Small, ledger.View{Side: "ottoman"}},
		{"side, over", over, ledger.View{Side: "venice"}},
		{"full, long", long, ledger.View{Full: true}},
		{"public, long", long, ledger.View{}},
	} {
		g := newGame(t, c.sc, c.view)
		opts := gamelog.VerifyOptions{Key: g.Pub()}
		f, err := gamelog.ParseFile(g.Data)
		if err != nil {
			t.Fatal(err)
		}
		want := gamelog.Verify(f, opts)
		if !want.OK() {
			t.Fatalf("%s: %v", c.name, want.Failure)
		}
		for _, size := range []int{200, 1000, 1 << 20} {
			got, why := gamelog.StreamOnly(g.Data, opts, size)
			if why != "" || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, stretches of %d bytes: %q\n%+v\nVerify gives\n%+v", c.name, size, why, got, want)
			}
		}
		sf, got, err := gamelog.VerifyStream(bytes.NewReader(g.Data), opts)
		if err != nil || !reflect.DeepEqual(got, want) || sf.Format != f.Format || sf.View != f.View {
			t.Errorf("%s: VerifyStream gives %v %+v", c.name, err, got)
		}
	}
}

// FuzzVerifyStream: on any bytes, the streaming verifier never passes a log the whole
// verifier fails, passes with the whole verifier's report where it decides, and
// VerifyStream gives the whole verifier's report or parse error (sameAsStream).
func FuzzVerifyStream(f *testing.F) {
	for _, v := range []ledger.View{{Full: true}, {}} {
		g := newGame(f, ledgertest.Script{Seed: "fuzz", Turns: 2, Activations: 2, Rolls: 3, Reveal: 1, End: true}, v)
		f.Add(g.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := gamelog.VerifyOptions{TrustLogKey: true}
		file, err := gamelog.ParseFile(data)
		var rep *gamelog.Report
		if err == nil {
			rep = gamelog.Verify(file, opts)
		}
		sameAsStream(t, data, opts, rep, err)
	})
}

// TestStreamCheckpointsFarBack: a checkpoint record may sign a chain far shorter than the
// log before it; the stream keeps only the heads of the stretches it checks, so it leaves
// such a log to the whole verifier ("head"), which passes it, and VerifyStream with it. A
// checkpoint from mail of any size is kept while streaming, and decided by the stream.
func TestStreamCheckpointsFarBack(t *testing.T) {
	sc := ledgertest.Small
	sc.End = true
	g := newGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	last := -1
	for i, blk := range b {
		if strings.HasPrefix(blk, "type checkpoint\n") {
			last = i
		}
	}
	c := forge.CheckpointAt(t, g, 3)
	lines := strings.Split(b[last], "\n")
	lines[2], lines[3], lines[4] = fmt.Sprintf("size %d", c.Size), fmt.Sprintf("head %x", c.Head[:]), fmt.Sprintf("signature %x", c.Signature)
	b[last] = strings.Join(lines, "\n")
	data := forge.Rechain(t, tamperKey, b)
	opts := gamelog.VerifyOptions{Key: g.Pub()}
	rep, err := verifyData(t, data, opts)
	if err != nil || !rep.OK() {
		t.Fatalf("a checkpoint of size 3 at record %d: %v %v", last-1, err, rep.Failure)
	}
	if _, why := gamelog.StreamOnly(data, opts, 300); why != "head" {
		t.Errorf("the stream says %q of a checkpoint of size 3 at the log's end, want head", why)
	}
	opts.Checkpoints = []gamelog.Checkpoint{forge.CheckpointAt(t, g, 2)}
	got, why := gamelog.StreamOnly(g.Data, opts, 300)
	if why != "" || got.External != 1 {
		t.Errorf("a checkpoint of size 2 from mail: the stream says %q, %d checked", why, got.External)
	}
}

// TestStreamFindsOrders: verify --orders is decided by the stream, as Verify finds them.
func TestStreamFindsOrders(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{})
	opts := gamelog.VerifyOptions{TrustLogKey: true, Orders: [][]byte{gamelog.CanonicalOrders("VEN-1 MOVE 1507 1407\nVEN-1 FIRE OTT-1")}}
	want, _ := verifyData(t, g.Data, opts)
	got, why := gamelog.StreamOnly(g.Data, opts, 300)
	if why != "" || !reflect.DeepEqual(got, want) || len(got.Orders) != 1 || len(got.Orders[0].Records) == 0 {
		t.Errorf("the stream says %q, %+v; Verify %+v", why, got, want)
	}
}

// pipe is a reader that cannot seek, as a pipe (verify <(curl …)).
type pipe struct{ *bytes.Reader }

func (pipe) Seek(int64, int) (int64, error) { return 0, errors.New("illegal seek") }

// TestStreamFromAPipe: a log that cannot be read twice is read whole at once, so that its
// failure is still named.
func TestStreamFromAPipe(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Full: true})
	bad := bytes.Replace(g.Data, []byte("\ntype roll\n"), []byte("\ntype roll \n"), 1)
	for _, data := range [][]byte{g.Data, bad} {
		want, werr := verifyData(t, data, gamelog.VerifyOptions{Key: g.Pub()})
		_, got, err := gamelog.VerifyStream(pipe{bytes.NewReader(data)}, gamelog.VerifyOptions{Key: g.Pub()})
		if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("from a pipe: %v %+v; Verify %v %+v", err, got, werr, want)
		}
	}
}

// TestStreamChecksSentMail: verify --sent is decided by the stream, which keeps the player's
// join, orders, standing and sender records as they pass: a side's copy with standing
// orders, the player named or found from his mail, and a team game's sender records.
func TestStreamChecksSentMail(t *testing.T) {
	g := newGame(t, forge.StandingScript(), ledger.View{Side: "ottoman"})
	sent := []gamelog.SentMail{{MessageID: "<bob-join@example.com>", Join: true}}
	for _, id := range []string{"<1.1.standing@bob.example>", "<2.1.standing@bob.example>", "<3.1.standing@bob.example>"} {
		sent = append(sent, gamelog.SentMail{MessageID: id})
	}
	s, c := forge.TeamGame(t, 2)
	team := forge.TeamExport(t, s, c, ledger.View{Full: true})
	for _, k := range []struct {
		name string
		data []byte
		opts gamelog.VerifyOptions
	}{
		{"standing, bob named", g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: sent, Player: "bob"}},
		{"standing, bob found", g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: sent}},
		{"team, bob", team.Data, gamelog.VerifyOptions{Key: team.Pub(), Sent: []gamelog.SentMail{{MessageID: "<2@bob.example>"}}, Player: "bob"}},
	} {
		want, err := verifyData(t, k.data, k.opts)
		if err != nil || !want.OK() {
			t.Fatalf("%s: %v %v", k.name, err, want.Failure)
		}
		if got, why := gamelog.StreamOnly(k.data, k.opts, 300); why != "" || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the stream says %q\n%+v\nVerify\n%+v", k.name, why, got, want)
		}
	}
}
