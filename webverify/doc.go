// Package webverify holds the browser verifier: verify.html, a single self-contained page
// (inline JavaScript and CSS, no network) that checks an exported game log as `navarch
// verify` does, written as a second, independent implementation of docs/LOG-FORMAT.md.
package webverify

import _ "embed"

// Page is verify.html, for the release and anything that serves or mails it.
//
//go:embed verify.html
var Page []byte
