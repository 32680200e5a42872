#!/usr/bin/env bash
# Builds a real Kubernetes control plane (kube-apiserver, kube-controller-manager) and etcd from the Go module proxy,
# once per machine, into a cache outside the clone keyed by version. A second run with the binaries present does
# nothing. Prints the directory holding the binaries on its last line.
#
#   test/control-plane/build.sh            # MDW_KUBE_CACHE (default ~/.cache/mdw-control-plane)/k8s-<v>-etcd-<v>/bin
#
# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them by ./staging paths, which a dependent's
# build ignores; so a small module of our own requires it and pins each staging module to the release's v0.Y.Z.
# etcd gets a module of its own so its pins never move Kubernetes'.
set -euo pipefail

# shellcheck source=versions
. "$(dirname "$0")/versions"
CACHE=${MDW_KUBE_CACHE:-$HOME/.cache/mdw-control-plane}
ROOT="$CACHE/k8s-$KUBE_VERSION-etcd-$ETCD_VERSION"
BIN="$ROOT/bin"

if [ -x "$BIN/kube-apiserver" ] && [ -x "$BIN/kube-controller-manager" ] && [ -x "$BIN/etcd" ]; then
  echo "$BIN"
  exit 0
fi
command -v go >/dev/null || { echo 'control-plane: go is not on PATH' >&2; exit 3; }

mkdir -p "$CACHE"
free_gb=$(df -Pk "$CACHE" | awk 'NR==2 { print int($4 / 1048576) }')
if [ "$free_gb" -lt 8 ]; then
  echo "control-plane: $free_gb GB free under $CACHE; the build needs about 8 (module and build caches)" >&2
  exit 3
fi

mkdir -p "$ROOT/kube" "$ROOT/etcd" "$BIN"
minor=${KUBE_VERSION#v1.}          # 37.2
staging_version="v0.$minor"        # v0.37.2
major_minor=${minor%%.*}           # 37

echo "control-plane: building Kubernetes $KUBE_VERSION and etcd $ETCD_VERSION into $BIN" >&2
kube_dir=$(cd "$ROOT" && go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$kube_dir" ] || { echo "control-plane: k8s.io/kubernetes@$KUBE_VERSION not found on the module proxy" >&2; exit 3; }

(
  cd "$ROOT/kube"
  {
    echo 'module mdw.test/controlplane'
    echo
    echo "go $(sed -n 's/^go \(.*\)$/\1/p' "$kube_dir/go.mod")"
    sed -n 's/^godebug .*/&/p' "$kube_dir/go.mod"
    echo
    echo "require k8s.io/kubernetes $KUBE_VERSION"
    echo
    sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/k8s.io/.*$#replace \1 => \1 '"$staging_version"'#p' \
      "$kube_dir/go.mod"
  } >go.mod
  go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@$KUBE_VERSION" "k8s.io/kubernetes/cmd/kube-controller-manager@$KUBE_VERSION"
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags="$ldflags -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$major_minor"
    ldflags="$ldflags -X $pkg.gitTreeState=clean"
  done
  CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$BIN/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
)

(
  cd "$ROOT/etcd"
  cat >go.mod <<MOD
module mdw.test/etcd

go 1.24
MOD
  cat >main.go <<'GO'
// The etcd server, built from its published module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  go mod tidy
  CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$BIN/etcd" .
)

"$BIN/kube-apiserver" --version >&2
"$BIN/etcd" --version | head -1 >&2
echo "$BIN"
