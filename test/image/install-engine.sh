#!/usr/bin/env bash
# Installs what `make image-local` needs from Debian's packages, when one is missing (.ci/run calls it; apt-get needs
# root): podman (its build needs no buildah), runc (crun, podman's default, refuses these machines' hybrid cgroups), and
# debootstrap (the stand-in base). Quiet and quick when all are there.
set -euo pipefail
missing=()
for tool in podman runc debootstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
[ "${#missing[@]}" -eq 0 ] && exit 0
echo "install-engine.sh: installing ${missing[*]} from Debian's packages" >&2
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
