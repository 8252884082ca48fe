#!/usr/bin/env bash
# mailservers.sh start DIR | stop DIR: the mail servers of the end-to-end test, on loopback
# ports that were free at start, everything they write kept in DIR (the machine's own mail
# configuration is left untouched):
#
#   - a test CA and a server certificate for 127.0.0.1 and mx.test.example (DIR/ca.pem,
#     DIR/server.pem), made with openssl;
#   - Dovecot: IMAP (clear text, for the mail clients), IMAPS (the test CA's certificate),
#     LMTP on a unix socket only Postfix opens, SASL for Postfix; users navarch, ops (the
#     operator test's navarch), alice, bob, ref, echo @test.example with passwords NAME-secret, for IMAP in DIR/users.imap and for
#     SMTP in DIR/users.smtp (a test breaks one without the other; DIR/users.lmtp: who
#     receives mail);
#   - Postfix as its own instance (config_directory DIR/postfix, queue DIR/postfix-queue):
#     "smtp" (no login, from loopback; the receiving port) and "submission" (STARTTLS and a
#     password required; its mail is signed and then passed through the receiving port, as a
#     provider's signed mail reaches navarch's MX), test.example delivered to Dovecot;
#   - two OpenDKIM instances, following docs/deploy/README.md ("DKIM"): a signer on
#     submission (d=test.example, selector e2e) and a verifier on the receiving port with the
#     authserv-id mx.test.example, Postfix stripping arriving Authentication-Results fields of
#     that id (the verifier's key is read from DIR/dkim/keys, not DNS).
#
# DIR/servers.env holds the ports and paths (shell syntax, NAME=VALUE): the end-to-end test
# reads it (NAVARCH_E2E_SERVERS=DIR). stop stops whatever start got to start, and may be run
# any number of times. Needs root and the Debian packages dovecot-imapd, dovecot-lmtpd,
# postfix, opendkim, opendkim-tools and openssl.
set -euo pipefail
cmd=${1:-} D=${2:-}
if [ -z "$D" ] || { [ "$cmd" != start ] && [ "$cmd" != stop ]; }; then
	echo "usage: $0 start|stop DIR" >&2
	exit 2
fi
if [ "$cmd" = stop ] && [ ! -d "$D" ]; then
	exit 0 # nothing was started there
fi
D=$(cd "$D" && pwd)

stop() {
	if [ -f "$D/postfix/main.cf" ] && [ -f "$D/postfix-queue/pid/master.pid" ]; then
		postfix -c "$D/postfix" stop >/dev/null 2>&1 || true
	fi
	if [ -f "$D/dovecot.conf" ] && [ -e "$D/dovecot-run/master.pid" ]; then
		doveadm -c "$D/dovecot.conf" stop >/dev/null 2>&1 || true
	fi
	for pidfile in "$D"/dkim/*.pid; do
		[ -f "$pidfile" ] || continue
		pid=$(cat "$pidfile")
		# Only an opendkim of this DIR: its command line names its own configuration here.
		if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$D/dkim/"; then
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 50); do
				[ -e "/proc/$pid" ] || break
				sleep 0.1
			done
		fi
		rm -f "$pidfile"
	done
}
if [ "$cmd" = stop ]; then
	stop
	exit 0
fi

fail() {
	echo "mailservers.sh: $*" >&2
	for log in "$D/dovecot.log" "$D/postfix.log" "$D"/dkim/*.log; do
		[ -s "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }
	done
	stop
	exit 1
}

# Free ports: random ones in 20000-59999 that nothing listens on and that no other server
# here got (a port taken meanwhile makes its server fail to start, which start reports).
declare -A taken=()
free_port() { # free_port NAME sets NAME
	local p
	for _ in $(seq 200); do
		p=$((20000 + RANDOM % 40000))
		[ -z "${taken[$p]:-}" ] || continue
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			taken[$p]=1
			printf -v "$1" %s "$p"
			return
		fi
	done
	fail "no free port found"
}
for name in IMAP_PORT IMAPS_PORT SMTP_PORT SUBMISSION_PORT DKIM_SIGN_PORT DKIM_VERIFY_PORT; do
	free_port "$name"
done
AUTHSERV_ID=mx.test.example
cat >"$D/servers.env" <<ENV
IMAP_PORT=$IMAP_PORT
IMAPS_PORT=$IMAPS_PORT
SMTP_PORT=$SMTP_PORT
SUBMISSION_PORT=$SUBMISSION_PORT
CA_FILE=$D/ca.pem
AUTHSERV_ID=$AUTHSERV_ID
USERS_IMAP=$D/users.imap
USERS_SMTP=$D/users.smtp
ENV
chmod 755 "$D" # the servers' own users (dovecot, postfix, opendkim) read what is here

# The test CA and the servers' certificate.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=navarch e2e test CA" \
	-keyout "$D/ca.key" -out "$D/ca.pem" >/dev/null 2>&1 || fail "openssl: the CA"
openssl req -newkey rsa:2048 -nodes -subj "/CN=mx.test.example" -keyout "$D/server.key" \
	-out "$D/server.csr" >/dev/null 2>&1 || fail "openssl: the request"
printf 'subjectAltName=IP:127.0.0.1,DNS:mx.test.example\nextendedKeyUsage=serverAuth\n' >"$D/server.ext"
openssl x509 -req -in "$D/server.csr" -CA "$D/ca.pem" -CAkey "$D/ca.key" -CAcreateserial -days 2 \
	-extfile "$D/server.ext" -out "$D/server.pem" >/dev/null 2>&1 || fail "openssl: the certificate"
chmod 644 "$D/server.key" # read by Dovecot's and Postfix's unprivileged processes; a test key

# Dovecot.
mkdir -p "$D/mail"
id vmail >/dev/null 2>&1 || useradd -r -M -d /nonexistent -s /usr/sbin/nologin vmail
chown vmail:vmail "$D/mail"
for user in navarch ops alice bob ref echo; do
	echo "$user@test.example:{PLAIN}$user-secret::::"
done | tee "$D/users.imap" "$D/users.lmtp" >"$D/users.smtp"
# The test changes a password while the servers run: under sudo, it runs as the user.
[ -z "${SUDO_USER:-}" ] || chown "$SUDO_USER" "$D/users.imap" "$D/users.smtp"
cat >"$D/dovecot.conf" <<CONF
base_dir = $D/dovecot-run
state_dir = $D/dovecot-state
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$D/server.pem
ssl_key = <$D/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$D/mail/%u
first_valid_uid = 1
mail_uid = vmail
mail_gid = vmail
# %s: the service, imap, smtp (Postfix's SASL) or lmtp (who exists), so that one can refuse
# a password the other takes.
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $D/users.%s
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=$D/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  unix_listener lmtp-postfix {
    user = postfix
    mode = 0600
  }
}
service auth {
  unix_listener auth-postfix {
    user = postfix
    mode = 0600
  }
}
protocol lmtp {
  postmaster_address = postmaster@test.example
}
recipient_delimiter = +
CONF
dovecot -c "$D/dovecot.conf" || fail "dovecot did not start"

# OpenDKIM: the signer's key, published to the verifier by a key file in place of DNS.
mkdir -p "$D/dkim"
opendkim-genkey -D "$D/dkim" -d test.example -s e2e || fail "opendkim-genkey"
{
	printf 'e2e._domainkey.test.example '
	sed -e 's/^[^(]*(//' -e 's/).*$//' "$D/dkim/e2e.txt" | tr -d '\n\t"' | tr -s ' '
	echo
} >"$D/dkim/keys"
chown -R opendkim:opendkim "$D/dkim"
cat >"$D/dkim/sign.conf" <<CONF
Syslog no
Mode s
Domain test.example
Selector e2e
KeyFile $D/dkim/e2e.private
Canonicalization relaxed/simple
Socket inet:$DKIM_SIGN_PORT@127.0.0.1
PidFile $D/dkim/sign.pid
UserID opendkim
RequireSafeKeys no
CONF
cat >"$D/dkim/verify.conf" <<CONF
Syslog no
Mode v
AuthservID $AUTHSERV_ID
Socket inet:$DKIM_VERIFY_PORT@127.0.0.1
PidFile $D/dkim/verify.pid
UserID opendkim
TestPublicKeys $D/dkim/keys
CONF
for conf in sign verify; do
	opendkim -x "$D/dkim/$conf.conf" || fail "opendkim ($conf) did not start"
done

# Postfix, its own instance.
mkdir -p "$D/postfix" "$D/postfix-queue" "$D/postfix-data"
chown postfix "$D/postfix-data"
cat >"$D/postfix/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $D/postfix-queue
data_directory = $D/postfix-data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.test.example
mydomain = test.example
myorigin = test.example
mydestination =
mynetworks = 127.0.0.0/8
relayhost =
default_transport = error
relay_transport = error
virtual_mailbox_domains = test.example
virtual_transport = lmtp:unix:$D/dovecot-run/lmtp-postfix
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject
alias_maps =
alias_database =
recipient_delimiter = +
biff = no
maillog_file = $D/postfix.log
maillog_file_prefixes = $D
smtpd_tls_cert_file = $D/server.pem
smtpd_tls_key_file = $D/server.key
smtpd_tls_security_level = none
smtp_tls_security_level = none
# docs/deploy/README.md, DKIM: the verifier on the receiving port, forged fields of its
# authserv-id dropped as mail arrives.
smtpd_milters = inet:127.0.0.1:$DKIM_VERIFY_PORT
non_smtpd_milters = \$smtpd_milters
milter_default_action = tempfail
header_checks = regexp:$D/postfix/header_checks
CONF
printf '/^Authentication-Results:[[:space:]]*%s([[:space:];]|$)/ IGNORE\n' "${AUTHSERV_ID//./\\.}" >"$D/postfix/header_checks"
# Submission: STARTTLS and a login by Dovecot SASL, the envelope sender the login's own
# (README, DKIM step 4), signed, then handed to the receiving port ("tomx") to be verified.
cat >"$D/postfix/master.cf" <<CONF
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sasl_type=dovecot
  -o smtpd_sasl_path=$D/dovecot-run/auth-postfix
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
  -o smtpd_sender_login_maps=regexp:$D/postfix/sender_logins
  -o smtpd_sender_restrictions=reject_sender_login_mismatch
  -o smtpd_milters=inet:127.0.0.1:$DKIM_SIGN_PORT
  -o content_filter=tomx:[127.0.0.1]:$SMTP_PORT
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
tomx      unix  -       -       n       -       -       smtp
  -o myhostname=submission.test.example
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
CONF
# A login sends only as its own address.
printf '/^(.*)$/ ${1}\n' >"$D/postfix/sender_logins"
postfix -c "$D/postfix" check >/dev/null 2>&1 || true # creates the queue's directories
postfix -c "$D/postfix" start >/dev/null 2>&1 || fail "postfix did not start"

for _ in $(seq 50); do
	up=1
	for port in "$IMAP_PORT" "$IMAPS_PORT" "$SMTP_PORT" "$SUBMISSION_PORT" "$DKIM_SIGN_PORT" "$DKIM_VERIFY_PORT"; do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || up=0
	done
	[ "$up" = 1 ] && exit 0
	sleep 0.2
done
fail "the mail servers did not start listening"
