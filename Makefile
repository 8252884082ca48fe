# Common tasks. `make test` is the README's test command and what CI runs.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: demo build test fmt vet bench-smoke staticcheck race long fuzz-smoke bench vectors e2e deploy-check load

# The README's main command: a demo game by real IMAP and SMTP on loopback.
demo:
	go run ./cmd/navarch demo

build:
	CGO_ENABLED=0 go build -trimpath -o navarch ./cmd/navarch

test: fmt vet staticcheck race long

fmt:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }

vet:
	go vet ./...

staticcheck:
	go run $(STATICCHECK) ./...

race:
	go test -race -shuffle=on ./...

# The whole Battle of Lepanto by mail, and the team games' demos, without the race detector,
# which slows them to minutes (they skip under it; Sluys and Knidos race the daemon to the
# end); here the battle draws its maps.
long:
	go test -run '^(TestDemoLepantoToTheEnd|TestDemoTeams|TestDemoTeamsEachRuleset)$$' ./cmd/navarch

# Each fuzz target for FUZZTIME (test/fuzz-smoke.sh finds every func Fuzz… by package;
# test/fuzz-smoke.sh -l lists them).
fuzz-smoke:
	FUZZTIME=$(FUZZTIME) bash test/fuzz-smoke.sh

bench:
	go test -run '^$$' -bench . -benchmem ./...

# Every benchmark once, so that CI notices a benchmark that no longer runs (-short: the
# benchmarks with a long set-up make a smaller one).
bench-smoke:
	go test -short -run '^$$' -bench . -benchtime 1x ./...

# The load test at 10,000 games (about ten minutes on 2 cores): the daemon in a
# subprocess on loopback, bots playing a sample by mail; it fails on a mail lost or doubled and
# prints the figures of docs/BENCHMARKS.md. LOAD_GAMES=2000 for another size.
LOAD_GAMES ?= 10000
load:
	NAVARCH_LOAD=1 NAVARCH_LOAD_GAMES=$(LOAD_GAMES) go test -count=1 -timeout 60m -run '^TestLoad$$' -v ./host

# Rewrites the golden dice vectors. Never once games exist: see docs/LOG-FORMAT.md.
vectors:
	go test ./dice -run TestGoldenVectors -update

# The end-to-end tests alone, through Dovecot, Postfix and OpenDKIM on free loopback ports,
# with mutt and s-nail as real players' mail clients and the navarch binary as an operator
# runs it (needs root and the Debian packages dovecot-imapd, dovecot-lmtpd, postfix,
# opendkim, opendkim-tools, openssl, mutt, s-nail; see docs/DEVELOPING.md).
e2e:
	D=$$(mktemp -d) && { bash test/e2e/mailservers.sh start $$D || { rm -rf $$D; exit 1; }; } && \
	{ NAVARCH_E2E=1 NAVARCH_E2E_SERVERS=$$D go test -race -count=1 -timeout 20m -run $${E2E_RUN:-E2E} -v ./test/e2e; rc=$$?; \
	bash test/e2e/mailservers.sh stop $$D; rm -rf $$D; exit $$rc; }

# The deployment files checked: the Dockerfile built and run as an operator would, with
# podman, and the systemd unit verified (needs root, podman, runc, busybox-static; see
# test/deploy/check.sh).
deploy-check:
	bash test/deploy/check.sh
