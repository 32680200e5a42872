/**
 * @module Where a server's resident memory is, in MB: V8's heap by space (its own /metrics: prom-client's default
 * nodejs_heap_space_* series), its external memory, and the resident set by kind of mapping (/proc/<pid>/smaps):
 * V8's 256 KiB pages, whether a space holds them or V8 keeps them pooled after freeing them, glibc's main arena, the
 * rest of the anonymous memory (the other malloc arenas and large malloc blocks, V8's large objects and code, stacks)
 * and the mapped files (the node binary's code).
 */
import { readFileSync } from 'node:fs';

/** V8's regular page: what a space grows and shrinks by, one anonymous mapping each. */
const V8_PAGE_KB = 256;

/** the spaces whose objects live on V8's regular pages (the large-object spaces map each object on its own) */
const PAGED_SPACES = new Set(['new', 'old', 'trusted', 'shared', 'shared_trusted']);

export interface MemoryBreakdown {
  readonly rss: number;
  /** V8's heap: committed (total) and in use, over every space, then per space */
  readonly heap: { readonly total: number; readonly used: number };
  readonly spaces: Record<string, { readonly total: number; readonly used: number }>;
  /** memory outside V8's heap that JavaScript objects hold (buffers, array buffers) */
  readonly external: number;
  /** resident V8 pages, and those of them no space holds: freed by a collection, kept by V8 in its pool */
  readonly v8Pages: number;
  readonly v8Pooled: number;
  /** glibc's main arena (the brk heap) */
  readonly mallocMain: number;
  /**
   * other anonymous memory: glibc's other arenas (one per thread that mallocs, up to MALLOC_ARENA_MAX), malloc's own
   * mappings of large blocks, V8's large objects and code, stacks
   */
  readonly otherAnonymous: number;
  /** mapped files: the node binary and libraries */
  readonly files: number;
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** metricValue reads one sample of a Prometheus text exposition (labels exactly as written), NaN when absent. */
export function metricValue(text: string, name: string, labels = ''): number {
  const escaped = `${name}${labels}`.replace(/[{}"]/g, (c) => `\\${c}`);
  return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** spaceNames are the heap spaces a /metrics text reports (V8's names without `_space`). */
function spaceNames(text: string): string[] {
  return [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="([^"]+)"\}/gm)].map((m) => m[1]!);
}

interface Mapping {
  readonly kb: number;
  readonly name: string;
  rssKb: number;
}

/** mappings reads a process's memory mappings with their size and resident kB. */
function mappings(pid: number): Mapping[] {
  const out: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      out.push({ kb: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024, name: head[3]!, rssKb: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && out.length > 0) out[out.length - 1]!.rssKb = Number(rss[1]);
  }
  return out;
}

/** memoryBreakdown reads a server's /metrics text and its process's mappings (`pid`). */
export function memoryBreakdown(text: string, pid: number): MemoryBreakdown {
  const spaces: Record<string, { total: number; used: number }> = {};
  let pagedBytes = 0;
  for (const space of spaceNames(text)) {
    const total = metricValue(text, 'nodejs_heap_space_size_total_bytes', `{space="${space}"}`);
    const used = metricValue(text, 'nodejs_heap_space_size_used_bytes', `{space="${space}"}`);
    if (total > 0) spaces[space] = { total: mb(total), used: mb(used) };
    if (PAGED_SPACES.has(space)) pagedBytes += total;
  }
  const maps = mappings(pid);
  const sum = (pick: (m: Mapping) => boolean): number => maps.filter(pick).reduce((kb, m) => kb + m.rssKb, 0) * 1024;
  const v8Pages = sum((m) => m.name === '' && m.kb === V8_PAGE_KB);
  return {
    rss: mb(sum(() => true)),
    heap: {
      total: mb(metricValue(text, 'nodejs_heap_size_total_bytes')),
      used: mb(metricValue(text, 'nodejs_heap_size_used_bytes')),
    },
    spaces,
    external: mb(metricValue(text, 'nodejs_external_memory_bytes')),
    v8Pages: mb(v8Pages),
    v8Pooled: mb(Math.max(0, v8Pages - pagedBytes)),
    mallocMain: mb(sum((m) => m.name === '[heap]')),
    otherAnonymous: mb(sum((m) => (m.name === '' && m.kb !== V8_PAGE_KB) || m.name.startsWith('[anon'))),
    files: mb(sum((m) => m.name.startsWith('/'))),
  };
}
