package gamelog

import (
	"bytes"
	"strings"
)

// OldParseFile is the parser as it was before it was made parallel (oldparse_test.go), for the tests
// that compare it with ParseFile.
var OldParseFile = oldParseFile

// VerifySerial is Verify with every roll derived in its place, on one goroutine: the mode
// whose report Verify must always give.
func VerifySerial(f *File, opts VerifyOptions) *Report {
	rep, _ := verify(f, opts, true)
	return rep
}

// GoodPath reports whether ParseFile takes data the good way (parse_good.go).
func GoodPath(data []byte) bool {
	f := &File{}
	str := string(data)
	header, _, _ := strings.Cut(str, "\n\n")
	return f.parseHeader(header) == nil && parseGood(data, str, len(header), f.Format, f.View) != nil
}

// SetParallelMin makes ParseFile parse files of n bytes or more on several cores, until the
// function it returns restores the size.
func SetParallelMin(n int) (restore func()) {
	old := parallelMin
	parallelMin = n
	return func() { parallelMin = old }
}

// StreamOnly verifies data as VerifyStream does in stretches of about size bytes, without
// its falling back to the whole log: why is "" where the stream verified it, "failed"
// where something did not check, and otherwise why the stream left the log to the whole
// verifier.
func StreamOnly(data []byte, opts VerifyOptions, size int) (rep *Report, why string) {
	_, rep, why = verifyStream(bytes.NewReader(data), opts, size)
	return rep, why
}
