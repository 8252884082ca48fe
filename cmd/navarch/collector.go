package main

import "runtime/debug"

// ownProcess is set by main: the command runs in a process of its own that exits after it,
// not inside a test binary or another program whose collector it must leave alone.
var ownProcess bool

// quietCollector turns the collector off for a command that parses one log of size bytes
// and exits (replay; verify streams the log instead, gamelog.VerifyStream): nearly all it
// allocates, the parsed File, lives to its end, so that a collection frees little and costs
// its marking and its write barriers. Past a limit of six times the log (at least 256 MiB)
// the collector runs again, so memory stays bounded.
func quietCollector(size int64) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(max(256<<20, 6*size))
}
