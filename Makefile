# Common tasks. `make test` is the README's test command and what CI runs.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: demo build test fmt vet bench-smoke staticcheck race fuzz-smoke bench vectors e2e deploy-check

# The README's main command: a demo game by real IMAP and SMTP on loopback.
demo:
	go run ./cmd/navarch demo

build:
	CGO_ENABLED=0 go build -trimpath -o navarch ./cmd/navarch

test: fmt vet staticcheck race

fmt:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }

vet:
	go vet ./...

staticcheck:
	go run $(STATICCHECK) ./...

race:
	go test -race -shuffle=on ./...

# Each fuzz target for FUZZTIME (go test runs one fuzz target per call).
fuzz-smoke:
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./gamelog
	go test -run '^$$' -fuzz '^FuzzParseBlocks$$' -fuzztime $(FUZZTIME) ./gamelog
	go test -run '^$$' -fuzz '^FuzzVerifyFile$$' -fuzztime $(FUZZTIME) ./gamelog
	go test -run '^$$' -fuzz '^FuzzParseFileAsBefore$$' -fuzztime $(FUZZTIME) ./gamelog
	go test -run '^$$' -fuzz '^FuzzParseOrders$$' -fuzztime $(FUZZTIME) ./adjudicator/lepanto
	go test -run '^$$' -fuzz '^FuzzLoadTables$$' -fuzztime $(FUZZTIME) ./adjudicator/lepanto
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./mail
	go test -run '^$$' -fuzz '^FuzzDKIMAligned$$' -fuzztime $(FUZZTIME) ./mail
	go test -run '^$$' -fuzz '^FuzzConfig$$' -fuzztime $(FUZZTIME) ./cmd/navarch
	go test -run '^$$' -fuzz '^FuzzReadRequest$$' -fuzztime $(FUZZTIME) ./cmd/navarch
	go test -run '^$$' -fuzz '^FuzzReadSpec$$' -fuzztime $(FUZZTIME) ./host
	go test -run '^$$' -fuzz '^FuzzHandle$$' -fuzztime $(FUZZTIME) ./host

bench:
	go test -run '^$$' -bench . -benchmem ./...

# Every benchmark once, so that CI notices a benchmark that no longer runs.
bench-smoke:
	go test -run '^$$' -bench . -benchtime 1x ./...

# Rewrites the golden dice vectors. Never once games exist: see docs/LOG-FORMAT.md.
vectors:
	go test ./adjudicator/dice -run TestGoldenVectors -update

# The end-to-end test alone, through Dovecot and Postfix on loopback (needs root and the
# Debian packages dovecot-imapd, dovecot-lmtpd, postfix; see docs/DEVELOPING.md).
e2e:
	D=$$(mktemp -d) && bash test/e2e/mailservers.sh start $$D && \
	{ NAVARCH_E2E=1 go test -race -count=1 -run E2E -v ./test/e2e; rc=$$?; bash test/e2e/mailservers.sh stop $$D; exit $$rc; }

# The deployment files checked: the Dockerfile built and run as an operator would, with
# podman, and the systemd unit verified (needs root, podman, runc, busybox-static; see
# test/deploy/check.sh).
deploy-check:
	bash test/deploy/check.sh
