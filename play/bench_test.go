package play_test

import (
	"testing"

	"navarch/gamelog"
	"navarch/play"
)

// BenchmarkReplayFullBattle is what the host does for every mail to a game, at the end of
// the longest game there is: the whole log of the full battle (13.1) parsed and replayed
// through the engine (play.Load less the store read).
func BenchmarkReplayFullBattle(b *testing.B) {
	data, _, _ := selfPlay(b, "battle-of-lepanto", "full battle")
	for b.Loop() {
		f, err := gamelog.ParseFile(data)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := play.Replay(f, rulesets)
		if err != nil {
			b.Fatal(err)
		}
		if rr.States != rr.Steps {
			b.Fatalf("replay %+v", rr)
		}
	}
	b.ReportMetric(float64(len(data))/1024, "KiB-log")
}
