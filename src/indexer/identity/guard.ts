/**
 * @module The check every role runs before it writes or serves (docs/operations.md, "Chain identity"): the schema was
 * not migrated by a newer version, holds the chain its nodes serve and belongs to the Middleware that runs this; a
 * writer records what the schema did not hold yet. Nothing is written when the check refuses.
 */
import type { Config } from '../../config/middleware.ts';
import { checkKnown } from '../../db/schema/baseline.ts';
import { migrationNames } from '../../db/schema/migrator.ts';
import { createWritePool } from '../../db/connection/pool.ts';
import { schemaFacts, type SchemaFacts } from '../../db/queries/schema-identity.ts';
import { recordIdentity } from '../../db/writes/schema-identity.ts';
import { databaseNow, untilDatabaseAnswers } from '../../db/connection/wait.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { nodeChains, type NodeChain, type NodeMeters } from '../../node/chain-identity.ts';
import { judgeDrop, judgeIdentity } from './judge.ts';

export interface GuardOptions {
  /** the role writes chain data (the populator, -H): it records the identity and must own an owned schema */
  readonly writes: boolean;
  /**
   * wait for every node to answer (a role that needs the node anyway); without, a node that is away is left
   * unchecked (a server serves the database without its node, `mdw migrate` needs none)
   */
  readonly waitForNodes: boolean;
  /**
   * a one-shot command (-v, -H, migrate): the database away, or every node when it needs them, fails it at once for
   * its Job's retry policy to decide; a long-running role (populator, server) waits for them
   */
  readonly oneShot?: boolean;
  /** the role's own migration step, run once the schema passed the check and before the identity is recorded */
  readonly migrate?: () => Promise<unknown>;
  readonly signal?: AbortSignal;
  /** the role's node metrics, which count the check's requests too */
  readonly nodeMeters?: NodeMeters;
}

/**
 * guardSchema refuses (AppError MDW_DB_SCHEMA_NEWER or MDW_CHAIN_IDENTITY_MISMATCH, one line) a schema this role must
 * not touch, else migrates it (options.migrate) and, for a writer, records the chain and the owner it lacked.
 */
export async function guardSchema(cfg: Config, log: Logger, options: GuardOptions): Promise<void> {
  const schema = cfg.databaseSchema;
  const pool = createWritePool(cfg, 'mdw-identity', log, 1);
  // the nodes are asked while the database is read (a start waits for the slower, not for both in turn); a schema
  // this binary must not touch ends the nodes' wait at once
  const refused = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, refused.signal]) : refused.signal;
  const asked = nodeChains(
    cfg.nodeUrls,
    {
      timeoutMs: cfg.nodeTimeoutMs,
      wait: options.waitForNodes,
      ...(options.oneShot ? { attempts: 1 } : {}),
      signal,
      ...(options.nodeMeters ? { meters: options.nodeMeters } : {}),
    },
    log,
  );
  asked.catch(() => {});
  try {
    const answered = <T>(what: string, step: () => Promise<T>): Promise<T> =>
      options.oneShot ? databaseNow(what, step) : untilDatabaseAnswers(what, step, log, options);
    const read = () => answered('identity check', () => schemaFacts(pool, schema));
    const files = migrationNames();
    let facts: SchemaFacts;
    try {
      facts = await read();
      checkKnown(schema, facts.applied, files);
    } catch (err) {
      refused.abort();
      throw err;
    }
    const nodes = await asked;
    const verdict = judge(cfg, facts, nodes, options.writes);
    // a schema with every migration of this binary applied has nothing to migrate: the migrator's own connection,
    // lock and history check are spared (migrations only ever add, so none can be undone meanwhile); unless the users'
    // configuration is to move to a schema of its own (DATABASE_CONFIG_SCHEMA set since), which the migrator does
    const applied = new Set(facts.applied);
    const toShare = facts.holdsConfiguration && cfg.databaseConfigSchema !== schema;
    if (!files.every((name) => applied.has(name)) || toShare) await options.migrate?.();
    if (!verdict.record) return;
    // the schema as migrated, the table there now; the row as recorded, another starter's if it came first
    const recorded = await answered('identity record', () => recordIdentity(pool, verdict.record!));
    judge(cfg, { ...(await read()), identity: recorded }, nodes, options.writes);
    log.info({ schema, ...recorded }, 'schema identity recorded');
  } finally {
    await pool.end();
  }
}

/**
 * guardDrop refuses (AppError MDW_CHAIN_IDENTITY_MISMATCH, one line) to drop a schema another Middleware owns, before
 * `mdw migrate --drop` drops it; a schema that is gone or has no owner may be dropped.
 */
export async function guardDrop(cfg: Config, log: Logger): Promise<void> {
  if (cfg.owner.uid === undefined) return;
  const pool = createWritePool(cfg, 'mdw-identity', log, 1);
  try {
    const { identity } = await schemaFacts(pool, cfg.databaseSchema);
    const refusal = judgeDrop(cfg.databaseSchema, identity, cfg.owner);
    if (refusal !== undefined) throw new AppError(ErrorCode.CHAIN_IDENTITY_MISMATCH, 409, refusal);
  } finally {
    await pool.end();
  }
}

function judge(cfg: Config, facts: SchemaFacts, nodes: readonly NodeChain[], writes: boolean) {
  const verdict = judgeIdentity({ schema: cfg.databaseSchema, facts, nodes, owner: cfg.owner, writes });
  if (verdict.refused !== undefined) throw new AppError(ErrorCode.CHAIN_IDENTITY_MISMATCH, 409, verdict.refused);
  return verdict;
}
