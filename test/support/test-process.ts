/**
 * @module What every process of the test run sets before it loads anything else: hooks.ts imports it first, and mocha
 * loads hooks.ts in its main process and in each worker (whose environment is the main process's, these included).
 *
 * V8's code for the modules the process loads is kept in one compile cache, the one the `mdw` processes the tests start
 * use too (bin/mdw.js: os.tmpdir()/node-compile-cache, from an environment without TMPDIR): each compiled the same
 * sources again.
 *
 * The temporary directory is in memory (/dev/shm, when TMPDIR is not set and it is there to write, with MEMORY_ROOM: a
 * container's is often 64 MB, too small for a cluster's copy): the run makes and deletes tens of thousands of files
 * there, chiefly PostgreSQL's (each test database a copy of a migrated template's hundreds of files, dropped when its
 * file ends; each cluster of a test's own a copy of a 40 MB one, removed with it).
 * On ext4 without a journal, as this machine's disk is, creating a file scans the inode bitmap past every inode deleted
 * in the last seconds (perf: find_inode_bit, recently_deleted): 20 copies and drops of the v3 template cost the shared
 * server 7.2 CPU s, 7.07 of them the kernel's, and 25 s of wall in /tmp; 0.8 CPU s and 2.7 s in /dev/shm. What is left
 * behind by a run stopped halfway stays in memory until the machine restarts, as it would stay on disk.
 */
import { accessSync, constants, mkdirSync, statfsSync, statSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');
enableCompileCache();

const MEMORY = '/dev/shm';
/** ten times what the operator's real tier held there at once (0.4 GB: two control planes, the shared server) */
const MEMORY_ROOM = 4 * 2 ** 30;

function roomyWritableDirectory(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return statSync(dir).isDirectory() && bavail * bsize >= MEMORY_ROOM;
  } catch {
    return false;
  }
}

if (process.env.TMPDIR === undefined && roomyWritableDirectory(MEMORY)) {
  // a directory of the user's own: PostgreSQL runs as another user and must be able to enter it (mode 0755)
  const dir = join(MEMORY, `mdw-test-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  process.env.TMPDIR = dir;
}
