#!/usr/bin/env bash
# `make image-local`: the Dockerfile built by podman through `make image`, on the stand-in base (base-image.sh), where
# no registry of images can be reached. Its `npm ci` steps reach the npm registry through the host's network and trust
# the host's CA bundle as npm on the host does (a proxy of the network may re-sign TLS): a directory with that bundle
# and an npmrc naming it is mounted over npm's global config directory, /usr/local/etc (empty in the base), for the
# build's steps only, so nothing of it is in a layer of the image.
# Usage: NODE_VERSION=24.21.0 IMAGE=mdw:dev test/image/build-local.sh (the Makefile passes both)
set -euo pipefail
: "${NODE_VERSION:?}" "${IMAGE:?}"
cd "$(dirname "$0")/../.."
command -v podman >/dev/null || { echo 'make image-local: needs podman (apt-get install podman runc debootstrap)' >&2; exit 2; }
base=$(test/image/base-image.sh)
etc=$(mktemp -d)
trap 'rm -rf "$etc"' EXIT
cp "${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}" "$etc/ca-certificates.crt"
echo 'cafile=/usr/local/etc/ca-certificates.crt' >"$etc/npmrc"
chmod -R a+rX "$etc"
# a failed build leaves no image of that name: test/e2e/image.test.ts then skips rather than run an older one
make --no-print-directory image IMAGE="$IMAGE" NODE_IMAGE="$base" DOCKER='podman --cgroup-manager=cgroupfs' \
  BUILD_FLAGS="--isolation chroot --network=host --volume $etc:/usr/local/etc:ro" \
  || { podman --cgroup-manager=cgroupfs untag "$IMAGE" 2>/dev/null; exit 1; }
