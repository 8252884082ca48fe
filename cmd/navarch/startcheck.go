package main

import (
	"cmp"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"time"

	navmail "navarch/mail"
)

// checkTimeout bounds each server's check at start.
const checkTimeout = 30 * time.Second

// checkServers tries each server once at start, as the daemon will use it: the IMAP login and
// mailbox, the SMTP connection, TLS, login and navarch's sender address. A refusal that is
// plainly a setting (the password, the certificate, the sender address) is returned naming
// the field: the daemon does not start on it. A server that does not answer is logged and
// the daemon starts, retrying it (a mail server restarted at the same time is no mistake).
func checkServers(ctx context.Context, cfg *fileConfig, log *slog.Logger) error {
	in := cfg.intake()
	in.Log = log
	ictx, cancel := context.WithTimeout(ctx, checkTimeout)
	err := in.Check(ictx)
	cancel()
	if err := setting("imap", cfg.IMAP, navmail.ErrorKind(err), err); err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, checkTimeout)
	serr := cfg.smtp().Check(sctx)
	cancel()
	if errors.Is(serr, navmail.ErrSenderRefused) {
		return fmt.Errorf("config: address: the SMTP server refuses %s as the sender for smtp.username %q (the provider lets a login send only as its own addresses): %w",
			cfg.Address, cfg.SMTP.Username, serr)
	}
	if err := setting("smtp", cfg.SMTP, navmail.SendErrorKind(serr), serr); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		err  error
	}{{"IMAP", err}, {"SMTP", serr}} {
		if s.err != nil {
			log.Warn("a mail server did not answer at start; the daemon starts and keeps trying", "server", s.name, "err", s.err)
		}
	}
	return nil
}

// setting turns a server's refusal at start into a configuration error naming the field,
// or nil when the failure is not plainly a setting.
func setting(name string, s serverConf, kind string, err error) error {
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case err == nil:
		return nil
	case kind == navmail.KindAuth && s.Username == "":
		return fmt.Errorf("config: %s.username: the server wants a login and none is set: %w", name, err)
	case kind == navmail.KindAuth:
		return fmt.Errorf("config: %s.password: the server refuses the login of %s.username %q: %w", name, name, s.Username, err)
	case errors.As(err, &unknown) && s.CAFile == "":
		return fmt.Errorf("config: %s.ca_file: the certificate of %s is signed by an authority the system does not trust; "+
			"for a private CA, set %s.ca_file to its certificate (PEM): %w", name, s.Host, name, err)
	case errors.As(err, &unknown):
		return fmt.Errorf("config: %s.ca_file: the certificate of %s is not signed by an authority of %s: %w", name, s.Host, s.CAFile, err)
	case errors.As(err, &hostname):
		return fmt.Errorf("config: %s.host: the server's certificate is not for %s: %w", name, s.Host, err)
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return fmt.Errorf("config: %s.host: the certificate of %s has expired or is not yet valid: renew it on the server (or mend its clock, or ours): %w", name, s.Host, err)
	case errors.As(err, &invalid):
		return fmt.Errorf("config: %s.ca_file: the certificate of %s is not valid for a server by %s: %w", name, s.Host, cmp.Or(s.CAFile, "the system's authorities"), err)
	case kind == navmail.KindTLS:
		return fmt.Errorf("config: %s.tls: TLS (%s) with %s failed: %w", name, s.TLS, s.Host, err)
	}
	return nil
}
