/** @module The middleware's settings under `mdw dev`: which schema holds which chain, and the role's defaults. Pure. */
import { decode } from '../../chain/encoding.ts';
import { DEV_DEFAULTS, type RoleDefaults } from '../../config/middleware.ts';

/** DEVNODE_SCHEMA_PREFIX starts the schema of each devnode chain; a new devnode run drops the others. */
export const DEVNODE_SCHEMA_PREFIX = 'devnode_';
/** NODE_SCHEMA_PREFIX starts the schema of a chain of a node given with --node-url, kept between runs. */
export const NODE_SCHEMA_PREFIX = 'node_';

/**
 * chainSchema names the schema that holds the chain starting at `genesisHash`: one schema per chain, so a restart
 * never serves a chain the node does not have. The devnode makes a new chain at each start (its genesis carries the
 * time and fresh accounts), so each run gets a fresh schema; a real node's chain keeps its schema between runs.
 */
export function chainSchema(source: 'devnode' | 'node', genesisHash: string): string {
  const prefix = source === 'devnode' ? DEVNODE_SCHEMA_PREFIX : NODE_SCHEMA_PREFIX;
  return `${prefix}${decode(genesisHash, ['kh']).bytes.subarray(0, 8).toString('hex')}`;
}

/** DevSettingsInput is what the middleware's settings under `mdw dev` depend on. */
export interface DevSettingsInput {
  readonly databaseUrl: string;
  readonly schema: string;
  readonly nodeUrl: string;
  /** present when mdw dev runs its own devnode */
  readonly devnode?: {
    readonly internalUrl: string;
    /** the devnode's genesis accounts as the node's accounts file, for the `accounts_roma` transfers */
    readonly genesisAccountsFile: string;
    /** the devnode's hard-fork files, by their variable (MINERVA_ACCOUNTS_FILE, …) */
    readonly forkFiles: Readonly<Record<string, string>>;
    /** the devnode's own DEX, which DEX_FACTORY and DEX_WRAPPED_AE name unless the environment says otherwise */
    readonly dex?: { readonly factory: string; readonly wrappedAe: string };
  };
}

/**
 * devSettings splits the middleware's settings under `mdw dev` into what mdw dev decides (its database, schema and
 * node: the environment cannot move those) and defaults that the environment may override (loopback listeners, and
 * for the devnode its reward rules, a fixed 100 AE per key block at once with fees burnt, and its own DEX).
 */
export function devSettings(input: DevSettingsInput): {
  overrides: Record<string, string>;
  defaults: RoleDefaults;
} {
  const { devnode } = input;
  return {
    overrides: {
      DATABASE_URL: input.databaseUrl,
      DATABASE_SCHEMA: input.schema,
      NODE_URL: input.nodeUrl,
      ...(devnode
        ? {
            NODE_INTERNAL_URL: devnode.internalUrl,
            GENESIS_ACCOUNTS_FILE: devnode.genesisAccountsFile,
            ...devnode.forkFiles,
          }
        : {}),
    },
    defaults: {
      ...DEV_DEFAULTS,
      ...(devnode
        ? {
            REWARD_RULES: 'devnode',
            ...(devnode.dex ? { DEX_FACTORY: devnode.dex.factory, DEX_WRAPPED_AE: devnode.dex.wrappedAe } : {}),
          }
        : {}),
    },
  };
}
