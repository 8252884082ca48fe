#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (default 10s; go test runs one fuzz
# target per call). The targets are found, not listed: every `func FuzzX(` at the start of a
# line in a _test.go file, by package. With -l it only lists them, "PACKAGE TARGET" a line.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-10s}

targets() {
	grep -rlE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(' . | LC_ALL=C sort | while read -r f; do
		for name in $(grep -oE '^func Fuzz[A-Za-z0-9_]*\(' "$f" | sed 's/^func //; s/($//'); do
			echo "./$(dirname "${f#./}") $name"
		done
	done
}

list=$(targets)
if [ -z "$list" ]; then
	echo "fuzz-smoke: no fuzz targets found" >&2
	exit 1
fi
if [ "${1:-}" = "-l" ]; then
	echo "$list"
	exit 0
fi
while read -r pkg name; do
	echo "== $pkg $name ($FUZZTIME)"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"
done <<<"$list"
