#!/usr/bin/env bash
# Builds Prometheus' promtool from the Go module proxy, once per machine, into a cache outside the clone keyed by
# version (as test/control-plane/build.sh builds the control plane). A second run with the binary present does nothing.
# Prints the path of the binary on its last line.
#
#   test/promtool/build.sh            # MDW_PROMTOOL_CACHE (default ~/.cache/mdw-promtool)/prometheus-<v>/bin/promtool
#
# github.com/prometheus/prometheus publishes its v3 releases as v0.3XX.Y module versions (v0.316.0 is 3.16.0); a small
# module of our own requires it as a tool, so the build uses the release's own go.mod pins.
set -euo pipefail

# shellcheck source=versions
. "$(dirname "$0")/versions"
CACHE=${MDW_PROMTOOL_CACHE:-$HOME/.cache/mdw-promtool}
ROOT="$CACHE/prometheus-$PROMETHEUS_VERSION"
BIN="$ROOT/bin"

if [ -x "$BIN/promtool" ]; then
  echo "$BIN/promtool"
  exit 0
fi
command -v go >/dev/null || { echo 'promtool: go is not on PATH' >&2; exit 3; }

mkdir -p "$ROOT/module" "$BIN"
echo "promtool: building Prometheus $PROMETHEUS_VERSION's promtool into $BIN" >&2
(
  cd "$ROOT/module"
  printf 'module mdw.test/promtool\n\ngo 1.24\n' >go.mod
  go get -tool "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION"
  # remove_all_sd: without the service discoveries and their cloud SDKs, which rule tests never use (far less to build)
  CGO_ENABLED=0 go build -trimpath -tags remove_all_sd -ldflags '-s -w' -o "$BIN/" \
    github.com/prometheus/prometheus/cmd/promtool
)

"$BIN/promtool" --version 2>&1 | head -1 >&2
echo "$BIN/promtool"
