package gamelog

// OldParseFile is the parser as it was before issue 14 (oldparse_test.go), for the tests
// that compare it with ParseFile.
var OldParseFile = oldParseFile
