#!/usr/bin/env bash
# Checks the deployment files of docs/deploy. First the systemd unit, by systemd-analyze
# verify (on a copy whose ExecStart names a freshly built binary). Then the container: it
# builds the Dockerfile and runs the image as an operator would (docs/deploy/README.md):
# the daemon in the background with its configuration and database in a host directory
# mounted at /data, the health check turning healthy, `game new` through the running daemon's
# control socket, then `game new` and `game list` in one-off containers while the daemon is
# stopped, and the daemon started again.
#
# It uses podman (daemonless; Docker needs an engine this workplace does not run). Where the
# registries of the base images cannot be reached, as here, it builds stand-ins for them
# from this machine, marked "stand-in", and says so: golang:1.26 (busybox's sh, this
# machine's Go and CA bundle) and gcr.io/distroless/static-debian12:nonroot (passwd with
# nonroot = 65532, CA bundle, zoneinfo). The Dockerfile itself is built unchanged.
#
# Needs root, Go, systemd (systemd-analyze), podman, runc and busybox-static (.ci/run installs
# them). Usage:
#   test/deploy/check.sh            # from the repository's top
set -euo pipefail

cd "$(dirname "$0")/../.."
image=localhost/navarch:check
name=navarch-check
work=$(mktemp -d /tmp/navarch-container.XXXXXX)
# This sandbox refuses podman's default rlimits and crun's cgroup handling; these flags make
# runc start containers here. On an ordinary host they are harmless.
# Without systemd, podman logs at level error that it cannot schedule health checks; this
# script runs them itself.
podman() { command podman --log-level=fatal "$@"; }
run=(podman --runtime runc run --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)

cleanup() {
	podman rm -f "$name" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

say() { printf 'deploy: %s\n' "$*"; }
fail() {
	say "FAIL: $*"
	podman logs "$name" 2>&1 | tail -20 || true
	exit 1
}

# has TEXT PATTERN: whether TEXT holds PATTERN. Never `producer | grep -q` here: under
# pipefail, grep -q leaving at its first match kills a producer that still writes (podman
# logs writes the container's stdout and stderr apart) with SIGPIPE, and the check fails
# although the line is there.
has() { grep -q -- "$2" <<<"$1"; }

# logged PATTERN: whether the daemon's log holds PATTERN, waiting up to 10 s for it.
logged() {
	for _ in $(seq 20); do
		has "$(podman logs "$name" 2>&1)" "$1" && return 0
		sleep 0.5
	done
	return 1
}

standins() {
	if ! podman image exists docker.io/library/golang:1.26; then
		say "golang:1.26 cannot be pulled here: building a stand-in from this machine's Go"
		local root="$work/golang"
		mkdir -p "$root"/{bin,etc/ssl/certs,tmp,go,usr/local}
		cp /bin/busybox "$root/bin/busybox"
		ln -s busybox "$root/bin/sh"
		cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
		cp -a "$(go env GOROOT 2>/dev/null || echo /usr/local/go)" "$root/usr/local/go"
		chmod 1777 "$root/tmp"
		tar -C "$root" -cf "$work/golang.tar" .
		podman import --change 'ENV PATH=/go/bin:/usr/local/go/bin:/bin' --change 'ENV GOPATH=/go' \
			--change 'ENV GOTOOLCHAIN=local' --change 'LABEL navarch.stand-in=true' \
			"$work/golang.tar" docker.io/library/golang:1.26 >/dev/null
		rm -rf "$root" "$work/golang.tar"
	fi
	if ! podman image exists gcr.io/distroless/static-debian12:nonroot; then
		say "distroless cannot be pulled here: building a stand-in"
		local root="$work/distroless"
		mkdir -p "$root"/{etc/ssl/certs,usr/share,tmp,home/nonroot}
		cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
		cp -a /usr/share/zoneinfo "$root/usr/share/"
		printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$root/etc/passwd"
		printf 'root:x:0:\nnonroot:x:65532:\n' >"$root/etc/group"
		chmod 1777 "$root/tmp"
		chown 65532:65532 "$root/home/nonroot"
		tar -C "$root" -cf "$work/distroless.tar" .
		podman import --change 'USER 65532' --change 'WORKDIR /home/nonroot' --change 'LABEL navarch.stand-in=true' \
			"$work/distroless.tar" gcr.io/distroless/static-debian12:nonroot >/dev/null
		rm -rf "$root" "$work/distroless.tar"
	fi
}

# healthy waits for the image's own HEALTHCHECK to pass.
healthy() {
	for _ in $(seq 60); do
		if podman healthcheck run "$name" >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.5
	done
	return 1
}

say "verifying the systemd unit"
CGO_ENABLED=0 go build -o "$work/navarch" ./cmd/navarch
for unit in navarch.service navarch-health.service navarch-health.timer; do
	sed "s#/usr/local/bin/navarch#$work/navarch#" "docs/deploy/$unit" >"$work/$unit"
done
for unit in navarch.service navarch-health.service navarch-health.timer; do
	if out=$(cd "$work" && systemd-analyze verify "$work/$unit" 2>&1) && [ -z "$out" ]; then
		say "$unit verifies"
	else
		fail "systemd-analyze verify $unit: $out"
	fi
done

standins
say "building the Dockerfile"
podman build --pull=never --isolation=chroot --format docker -q -t "$image" . >/dev/null

[ "$(podman image inspect "$image" --format '{{.Config.User}}')" = "nonroot:nonroot" ] || fail "the image does not run as nonroot"
has "$(podman image inspect "$image" --format '{{json .Config.Volumes}}')" '"/data"' || fail "/data is not a volume"
has "$(podman image inspect "$image" --format '{{json .Config.Healthcheck}}')" 'health' || fail "no health check"

# The operator's data directory, owned by the image's user (docs/deploy/README.md).
data="$work/data"
install -d -o 65532 -g 65532 "$data"
cat >"$data/navarch.json" <<'EOF'
{"database": "/data/navarch.db", "address": "navarch@host.example", "domain": "navarch.host.example",
 "imap": {"host": "127.0.0.1", "port": 9, "tls": "none", "username": "navarch"},
 "smtp": {"host": "127.0.0.1", "port": 9, "tls": "none"}}
EOF

say "starting the daemon"
"${run[@]}" -d --name "$name" --network none -v "$data:/data" -e NAVARCH_IMAP_PASSWORD=secret "$image" >/dev/null
healthy || fail "the health check never passed"
logged 'navarch serving' || fail "the daemon did not start serving"
[ "$(stat -c %u "$data/navarch.db")" = 65532 ] || fail "the database is not owned by nonroot"
ls "$data"/backups/navarch-*.db >/dev/null 2>&1 || fail "the daemon took no backup at start"
say "healthy: $(podman exec "$name" /usr/local/bin/navarch health -config /data/navarch.json)"

say "creating a game through the running daemon (its control socket)"
out=$(podman exec "$name" /usr/local/bin/navarch game new -config /data/navarch.json \
	-scenario lions-at-sea -player alice:christian:alice@example.org -player bob:ottoman:bob@example.com 2>&1)
has "$out" 'created game lep-' || fail "game new through the daemon: $out"
logged 'control command' || fail "the daemon did not run the command"
say "$out"

say "creating a game while the daemon is stopped"
podman stop -t 10 "$name" >/dev/null
out=$("${run[@]}" --rm --network none -v "$data:/data" "$image" game new -config /data/navarch.json \
	-scenario lions-at-sea -player carol:christian:carol@example.org -player dave:ottoman:dave@example.com)
has "$out" 'created game lep-' || fail "game new: $out"
list=$("${run[@]}" --rm --network none -v "$data:/data" "$image" game list -config /data/navarch.json)
[ "$(echo "$list" | grep -c joining)" = 2 ] || fail "game list, want both games: $list"
say "$out"

podman start "$name" >/dev/null
healthy || fail "the health check did not pass after a restart"

# A new named volume takes /data's owner from the image: the demo writes its game there.
say "playing the demo in the image, on a new named volume"
vol=navarch-check-$$
podman volume create "$vol" >/dev/null
demo=$("${run[@]}" --rm --network none -v "$vol:/data" "$image" demo -out /data/demo -turns 1 2>&1) || {
	podman volume rm -f "$vol" >/dev/null
	fail "demo in the image: $demo"
}
podman volume rm -f "$vol" >/dev/null
has "$demo" 'PASS' || fail "the demo's log did not verify: $demo"
say "PASS: built, ran as nonroot, healthy, games created by the operator's commands, demo played"
if has "$(podman image inspect docker.io/library/golang:1.26 --format '{{index .Config.Labels "navarch.stand-in"}}')" true; then
	say "(on stand-in base images: the real golang and distroless images were not fetched)"
fi
