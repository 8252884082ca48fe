// Package e2e holds the end-to-end tests: navarch against a real IMAP server (Dovecot), a
// real MTA (Postfix) and DKIM (OpenDKIM) on loopback, started by mailservers.sh (as .ci/run
// and make e2e do). Without NAVARCH_E2E=1 (and NAVARCH_E2E_SERVERS, mailservers.sh's DIR) in
// the environment the tests are skipped.
package e2e
