/**
 * @module The scale bench's PostgreSQL in a memory cgroup (BENCH_SCALE_PG_MEMORY=128M; cgroup v1, as root): the
 * embedded server's processes are moved into /sys/fs/cgroup/memory/mdw-bench-pg-<pid>-<postmaster> whose
 * memory.limit_in_bytes is that size. A v1 limit counts the page cache the server's reads and writes bring in as well
 * as its processes' own memory, so the data no longer fits in memory, as on a mainnet deployment whose data is four
 * times its RAM. Backends forked later are born in the cgroup; pages cached before the move stay charged where they
 * were (a new data directory has none but initdb's; a kept one's are the load's, charged to the parent once its cgroup
 * went: drop them from the cache first, e.g. posix_fadvise(POSIX_FADV_DONTNEED) on each file, as bench/scale-ops.ts
 * was run).
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup/memory';

/** CgroupMemory is what the cgroup's counters say, in bytes. */
export interface CgroupMemory {
  readonly limit: number;
  /** memory.max_usage_in_bytes: the peak of page cache and processes together */
  readonly maxUsage: number;
  readonly usage: number;
  /** memory.stat's cache and rss: the page cache charged to the server, and its processes' anonymous memory */
  readonly cache: number;
  readonly rss: number;
}

/** bytesOf reads a size as 128M, 1G or a number of bytes. */
export function bytesOf(size: string): number {
  const match = /^(\d+)([KMG]?)$/i.exec(size.trim());
  if (!match) throw new Error(`BENCH_SCALE_PG_MEMORY: not a size: ${size}`);
  return Number(match[1]) * 1024 ** ' KMG'.indexOf((match[2] || ' ').toUpperCase());
}

/** confinePostgres moves the server of `dataDir` (its postmaster and every child) into a cgroup of `limit` bytes. */
export function confinePostgres(dataDir: string, limit: number): { read(): CgroupMemory; release(): void } {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // one cgroup per server: the scale bench runs two sizes at once, each in a limit of its own
  const cgroup = join(ROOT, `mdw-bench-pg-${process.pid}-${postmaster}`);
  mkdirSync(cgroup, { recursive: true });
  writeFileSync(join(cgroup, 'memory.limit_in_bytes'), String(limit));
  const children = readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        // the fourth field of stat, past the command in parentheses, is the parent's pid
        return Number(readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    });
  for (const pid of [postmaster, ...children]) writeFileSync(join(cgroup, 'cgroup.procs'), String(pid));
  const counter = (file: string): number => Number(readFileSync(join(cgroup, file), 'utf8'));
  const stat = (field: string): number =>
    Number(new RegExp(`^${field} (\\d+)$`, 'm').exec(readFileSync(join(cgroup, 'memory.stat'), 'utf8'))?.[1] ?? 0);
  return {
    read: () => ({
      limit: counter('memory.limit_in_bytes'),
      maxUsage: counter('memory.max_usage_in_bytes'),
      usage: counter('memory.usage_in_bytes'),
      cache: stat('cache'),
      rss: stat('rss'),
    }),
    // once the server has stopped: an empty cgroup hands its charges to its parent and can go
    release: () => rmdirSync(cgroup),
  };
}
