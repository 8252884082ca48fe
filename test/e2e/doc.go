// Package e2e holds the end-to-end test: navarch against a real IMAP server (Dovecot) and a
// real MTA (Postfix) on loopback, started by mailservers.sh (as .ci/run does). Without
// NAVARCH_E2E=1 in the environment the test is skipped.
package e2e
