/**
 * @module The opening of the one-shot commands (`-H`, `-v`): the schema checked to be this chain's and this
 * Middleware's (and migrated first by one that writes), a pool of their own, and the node client with its nodes'
 * tops read.
 */
import type { Logger } from '../../base/log.ts';
import type { Config } from '../../config/middleware.ts';
import { migrate } from '../../db/schema/migrator.ts';
import { createReadPool, createWritePool, type Pool } from '../../db/connection/pool.ts';
import { NodeSet } from '../../node/node-set.ts';
import { NodeClient } from '../../node/client.ts';
import { guardSchema } from '../identity/guard.ts';

/** OneShot is what a one-shot command works with: its pool (the caller ends it) and its node client. */
export interface OneShot {
  readonly pool: Pool;
  readonly node: NodeClient;
}

/**
 * openOneShot checks the schema (waiting for the database and the nodes; `writes` migrates it too), opens a pool of
 * four connections named `applicationName` (a writer's or a reader's) and a node client whose nodes' tops are read.
 */
export async function openOneShot(
  cfg: Config,
  log: Logger,
  role: { applicationName: string; writes: boolean },
): Promise<OneShot> {
  await guardSchema(cfg, log, {
    writes: role.writes,
    waitForNodes: true,
    oneShot: true,
    ...(role.writes && {
      migrate: () =>
        migrate(
          { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, configSchema: cfg.databaseConfigSchema },
          log,
        ),
    }),
  });
  const pool = role.writes
    ? createWritePool(cfg, role.applicationName, log, 4)
    : createReadPool(cfg, role.applicationName, log, { max: 4 });
  const nodes = new NodeSet(cfg.nodeUrls, {}, cfg.nodeAdmits);
  const node = new NodeClient({ url: nodes, timeoutMs: cfg.nodeTimeoutMs, attempts: 6 }, log);
  // with several nodes their tops are read first: one on another fork leaves the set before any height is read
  await node.topHeight().catch(() => {});
  return { pool, node };
}
