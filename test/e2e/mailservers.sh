#!/usr/bin/env bash
# Starts Dovecot (IMAP on 127.0.0.1:10143, LMTP on 10024) and Postfix (SMTP on 127.0.0.1:10025,
# delivering test.example to Dovecot) in DIR, for the end-to-end test. Needs root and the
# Debian packages dovecot-imapd, dovecot-lmtpd and postfix. "stop DIR" stops them.
set -euo pipefail
cmd=$1 D=$2
if [ "$cmd" = stop ]; then
	postfix stop >/dev/null 2>&1 || true
	doveadm -c "$D/dovecot.conf" stop >/dev/null 2>&1 || true
	exit 0
fi
for port in 10143 10024 10025; do
	if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
		echo "port $port is taken: stop the mail servers of an earlier run (mailservers.sh stop DIR)" >&2
		exit 1
	fi
done
mkdir -p "$D/mail"
chmod 755 "$D" # the auth process (user dovecot) reads $D/users
id vmail >/dev/null 2>&1 || useradd -r -M -d /nonexistent -s /usr/sbin/nologin vmail
chown vmail:vmail "$D/mail"
cat >"$D/users" <<USERS
navarch@test.example:{PLAIN}navarch-secret::::
alice@test.example:{PLAIN}alice-secret::::
bob@test.example:{PLAIN}bob-secret::::
ref@test.example:{PLAIN}ref-secret::::
echo@test.example:{PLAIN}echo-secret::::
USERS
cat >"$D/dovecot.conf" <<CONF
base_dir = $D/dovecot-run
state_dir = $D/dovecot-state
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$D/mail/%u
first_valid_uid = 1
mail_uid = vmail
mail_gid = vmail
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $D/users
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=$D/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = 10143
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = 10024
  }
}
protocol lmtp {
  postmaster_address = postmaster@test.example
}
recipient_delimiter = +
CONF
dovecot -c "$D/dovecot.conf"
# Postfix: the machine's own instance, reconfigured for the test (CI machines are disposable;
# an alternate instance needs postmulti's set-up): loopback only, test.example delivered to
# Dovecot over LMTP, submission from loopback on 127.0.0.1:10025 without authentication.
postfix stop >/dev/null 2>&1 || true
postconf -e "inet_interfaces = loopback-only" "inet_protocols = ipv4" "myhostname = mx.test.example" \
	"mydomain = test.example" "mydestination =" "mynetworks = 127.0.0.0/8" \
	"virtual_mailbox_domains = test.example" "virtual_transport = lmtp:inet:127.0.0.1:10024" \
	"smtpd_relay_restrictions = permit_mynetworks, reject" "maillog_file_prefixes = /var, /dev/stdout, $D" \
	"maillog_file = $D/postfix.log" "smtpd_tls_security_level = none" \
	"alias_maps =" "alias_database =" "recipient_delimiter = +"
postconf -M "127.0.0.1:10025/inet=127.0.0.1:10025 inet n - n - - smtpd"
postfix start >/dev/null
for i in $(seq 50); do
	if (exec 3<>/dev/tcp/127.0.0.1/10025) 2>/dev/null && (exec 3<>/dev/tcp/127.0.0.1/10143) 2>/dev/null; then
		exit 0
	fi
	sleep 0.2
done
echo "mail servers did not start" >&2
cat "$D/dovecot.log" "$D/postfix.log" >&2 2>/dev/null || true
exit 1
