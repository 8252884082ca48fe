# Common tasks. `make test` is the README's test command and what CI runs.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: demo build test fmt vet bench-smoke staticcheck race norace long fuzz-smoke bench vectors e2e deploy-check load

# The README's main command: a demo game by real IMAP and SMTP on loopback.
demo:
	go run ./cmd/navarch demo

build:
	CGO_ENABLED=0 go build -trimpath -o navarch ./cmd/navarch

test: fmt vet staticcheck race norace long

# How make test splits the tests (docs/DEVELOPING.md, "How make test runs the tests"): the
# packages whose code or tests start goroutines or share memory across them run under the race
# detector (make race); the others, whose tests run on one goroutine, where the detector can
# find nothing and slows the code some eight times, run without it (make norace); the tests
# of race packages that the detector slows most, which run on one goroutine or whose
# concurrency other tests race, skip under it (racesplit.Long) and make long runs them without it. test/racesplit's TestRaceSplit fails when
# a package outside RACE_PKGS starts a goroutine or shares memory, or a test skipped under the
# detector is not in LONG_TESTS.
RACE_PKGS = navarch/adjudicator/adjtest navarch/beacon navarch/beacon/beacontest navarch/cmd/navarch \
	navarch/gamelog navarch/host navarch/mail navarch/mail/mailtest navarch/metrics navarch/outbox \
	navarch/render navarch/render/lepantomap navarch/store navarch/test/e2e navarch/webverify
LONG_PKGS = navarch/cmd/navarch navarch/gamelog navarch/host navarch/mail navarch/render navarch/render/lepantomap \
	navarch/store
LONG_TESTS = TestDemoLepantoToTheEnd|TestDemoMedievalToTheEnd|TestDemoTeams|TestDemoTeamsEachRuleset|\
	TestParseFileAsBefore|TestFieldValuesAsBefore|TestUnsealAcrossStretchesAsBefore|\
	TestDueIndexFollowsEveryChange|TestGameCountsFollowEveryChange|TestMailsPerTurn|\
	TestBotOrdersByMailEveryRuleset|TestOrderFormEveryRuleset|TestReportsSayNoEffect|\
	TestCrashLosesNothingAndAnswersOnce|TestPNGDecodesLikeImagePNG|\
	TestRenderLooks|TestFogOfWar|TestWholeMapHexesKept|TestHexesKeptInReusedBuffers|TestEventMarkers|TestReportMapSizes|\
	TestCompact|TestDamagedFileReadOnly|TestFileFollowsItsPages|TestFreelistNotSynced|TestOutboxDictionaries|\
	TestReadOnlyCommandsOnADamagedFile|TestRenderCommand|TestHTMLDeeplyNested
# atexit_sleep_ms=0: a program under the race detector otherwise sleeps a second as it exits
# (every test binary, and every daemon the crash and load tests run in a subprocess).
RACE_ENV = GORACE=atexit_sleep_ms=0
space := $(subst ,, )

fmt:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }

vet:
	go vet ./...

staticcheck:
	go run $(STATICCHECK) ./...

race:
	$(RACE_ENV) go test -race -shuffle=on $(RACE_PKGS)

norace:
	go test -shuffle=on $(filter-out $(RACE_PKGS),$(shell go list ./...))

# The tests that skip under the race detector (racesplit.Long), without it: the whole Battle of
# Lepanto and Sluys by mail, drawing their maps, and the team games' demos (the daemon's
# concurrency is raced by Knidos to the end and the one-turn demos); and the tests of race
# packages that run on one goroutine and take seconds under the detector (property checks of
# the host's indexes, the parser against its old self, the maps' pixels).
long:
	go test -shuffle=on -run '^($(subst $(space),,$(LONG_TESTS)))$$' $(LONG_PKGS)

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
