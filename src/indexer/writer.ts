/**
 * @module Writer: the rows of whole heights in one database transaction, one COPY (or, where a key
 * may repeat, one multi-row INSERT) per table per batch, and the sync state beside them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { quoteIdent, type Queryable } from '../db/pool.ts';
import {
  foldNameActions,
  foldOracleActions,
  resolveNameQueries,
  resolveNameReferences,
  type NameState,
  type OracleState,
} from './chain-state.ts';
import type {
  AccountTxRow,
  GenerationRows,
  NameEventRow,
  OracleEventRow,
  OracleQueryRow,
  ResolvedRows,
} from './rows.ts';
import { TABLES, type TableSpec } from './tables.ts';
import { copyChunks, copyIn, copyText } from './copy-in.ts';

/** insertMany inserts column-wise arrays with one statement, keeping the first row of a repeated key; names are constants (tables.ts). */
async function insertMany(
  db: Queryable,
  table: string,
  columns: readonly (readonly [string, string])[],
  values: unknown[][],
): Promise<void> {
  if (values[0]!.length === 0) return;
  const names = columns.map(([n]) => quoteIdent(n)).join(', ');
  // text[] values travel as space-joined text: signatures and field names never contain spaces
  const sources = columns.map(([, t], i) => (t === 'text[]' ? `string_to_array(c${i}, ' ')` : `c${i}`)).join(', ');
  const unnest = columns.map(([, t], i) => `$${i + 1}::${t === 'text[]' ? 'text' : t}[]`).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  await db.query(
    `INSERT INTO ${quoteIdent(table)} (${names}) SELECT ${sources} FROM unnest(${unnest}) AS u(${aliases}) ON CONFLICT DO NOTHING`,
    values,
  );
}

/** copyLines encodes the rows of one table as COPY text lines. */
function copyLines<R>(spec: TableSpec<R>, rows: readonly R[]): string[] {
  return rows.map((row) => spec.columns.map(([, type, value]) => copyText(type, value(row))).join('\t'));
}

/** copyMany loads encoded rows of one table with COPY … FROM STDIN, PostgreSQL's bulk path. */
async function copyMany<R>(db: Queryable, spec: TableSpec<R>, chunks: readonly Buffer[]): Promise<void> {
  if (chunks.length === 0) return;
  await copyIn(
    db,
    `COPY ${quoteIdent(spec.table)} (${spec.columns.map(([name]) => quoteIdent(name)).join(', ')}) FROM STDIN`,
    chunks,
  );
}

const ENCODE_TURN = 500;

/** EncodedRows are the COPY payloads of the tables that need no stored state, made before the transaction. */
export type EncodedRows = ReadonlyMap<string, Buffer[]>;

/**
 * encodeRows prepares the COPY payloads of a batch; the populator does it while the previous batch
 * is written, so it gives the event loop a turn every ENCODE_TURN rows (that write's statements wait on it).
 */
export async function encodeRows(gens: readonly GenerationRows[]): Promise<EncodedRows> {
  const direct = flatten(gens, NO_STATE_ROWS);
  const encoded = new Map<string, Buffer[]>();
  for (const spec of TABLES) {
    if (spec.firstWins || spec.needsState) continue;
    const rows = spec.rows(direct);
    const chunks: Buffer[] = [];
    for (let i = 0; i < rows.length; i += ENCODE_TURN) {
      chunks.push(...copyChunks(copyLines(spec, rows.slice(i, i + ENCODE_TURN))));
      await nextTurn();
    }
    encoded.set(spec.table, chunks);
  }
  return encoded;
}

/** deleteFrom removes every height ≥ `height` (key_blocks' delete trigger removes everything that belongs to them). */
export async function deleteFrom(db: Queryable, height: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
  return rowCount ?? 0;
}

/** deleteHeights removes exactly the listed heights. */
export async function deleteHeights(db: Queryable, heights: readonly number[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height = ANY($1::int[])', [heights]);
  return rowCount ?? 0;
}

/** Where a batch starts: events before it are the prior state. */
interface BatchStart {
  readonly height: number;
  readonly microIndex: number;
}

async function priorNameStates(db: Queryable, hashes: string[], before: BatchStart): Promise<Map<string, NameState>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{
    name_hash: string;
    name: string | null;
    kind: string;
    owner: string;
    expires_at: number | null;
    auction_end: number | null;
    name_fee: string | null;
    pointers: NameState['pointers'];
  }>(
    `SELECT h.name_hash, e.name, e.kind, e.owner, e.expires_at, e.auction_end, e.name_fee, e.pointers
       FROM unnest($1::text[]) AS h(name_hash)
       CROSS JOIN LATERAL (
         SELECT * FROM name_events e WHERE e.name_hash = h.name_hash AND (e.height, e.micro_index) < ($2, $3)
          ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) e`,
    [hashes, before.height, before.microIndex],
  );
  return new Map(
    rows.map((r) => [
      r.name_hash,
      {
        name: r.name,
        kind: r.kind,
        owner: r.owner,
        expiresAt: r.expires_at,
        auctionEnd: r.auction_end,
        nameFee: r.name_fee,
        pointers: r.pointers,
      },
    ]),
  );
}

async function priorOracleStates(db: Queryable, ids: string[], before: BatchStart): Promise<Map<string, OracleState>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ oracle_id: string; expires_at: number }>(
    `SELECT o.oracle_id, e.expires_at
       FROM unnest($1::text[]) AS o(oracle_id)
       CROSS JOIN LATERAL (
         SELECT expires_at FROM oracle_events e WHERE e.oracle_id = o.oracle_id AND (e.height, e.micro_index) < ($2, $3)
          ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) e`,
    [ids, before.height, before.microIndex],
  );
  return new Map(rows.map((r) => [r.oracle_id, { expiresAt: r.expires_at }]));
}

/** Rows that exist only once the stored state before a batch is known. */
interface StateRows {
  readonly nameEvents: NameEventRow[];
  readonly oracleEvents: OracleEventRow[];
  readonly nameQueries: OracleQueryRow[];
  readonly nameAccountTxs: AccountTxRow[];
}

const NO_STATE_ROWS: StateRows = { nameEvents: [], oracleEvents: [], nameQueries: [], nameAccountTxs: [] };

function flatten(
  gens: readonly GenerationRows[],
  { nameEvents, oracleEvents, nameQueries, nameAccountTxs }: StateRows,
): ResolvedRows {
  const all = <K extends keyof GenerationRows>(k: K): GenerationRows[K] extends (infer T)[] ? T[] : never =>
    gens.flatMap((g) => g[k] as unknown[]) as never;
  return {
    keyBlocks: gens.filter((g) => g.continuesAt === undefined).map((g) => g.keyBlock),
    microBlocks: all('microBlocks'),
    transactions: all('transactions'),
    accountTxs: all('accountTxs'),
    contracts: all('contracts'),
    contractCalls: all('contractCalls'),
    channelEvents: all('channelEvents'),
    namePointers: all('namePointers'),
    oracleQueries: [...all('oracleQueries'), ...nameQueries],
    oracleResponses: all('oracleResponses'),
    nameEvents,
    oracleEvents,
    nameAccountTxs,
  };
}

/** resolveRows flattens generations (ascending) and resolves name and oracle events against the stored state before them. */
export async function resolveRows(db: Queryable, gens: readonly GenerationRows[]): Promise<ResolvedRows> {
  const from = { height: gens[0]!.keyBlock.height, microIndex: gens[0]!.continuesAt ?? 0 };
  const nameActions = gens.flatMap((g) => g.nameActions);
  const oracleActions = gens.flatMap((g) => g.oracleActions);
  const nameQueries = gens.flatMap((g) => g.nameOracleQueries);
  const nameRefs = gens.flatMap((g) => g.nameReferences);
  const priorNames = await priorNameStates(
    db,
    [...new Set([...nameActions, ...nameQueries, ...nameRefs].map((a) => a.nameHash))],
    from,
  );
  const nameEvents = foldNameActions(priorNames, nameActions);
  const oracleEvents = foldOracleActions(
    await priorOracleStates(db, [...new Set(oracleActions.map((a) => a.oracleId))], from),
    oracleActions,
  );
  const queries = resolveNameQueries(priorNames, nameEvents, nameQueries);
  return flatten(gens, {
    nameEvents,
    oracleEvents,
    nameQueries: queries.queries,
    nameAccountTxs: [...resolveNameReferences(priorNames, nameEvents, nameRefs), ...queries.accountTxs],
  });
}

/**
 * writeGenerations inserts the rows of several heights (ascending); the caller owns the
 * transaction. `encoded` (from encodeRows) saves encoding inside it. Returns the tx count.
 */
export async function writeGenerations(
  db: Queryable,
  gens: readonly GenerationRows[],
  encoded?: EncodedRows,
): Promise<number> {
  if (gens.length === 0) return 0;
  const resolved = await resolveRows(db, gens);
  for (const spec of TABLES) {
    const rows = spec.rows(resolved);
    // COPY cannot skip a repeated key, so the few tables keyed by a derived id take an INSERT
    if (spec.firstWins)
      await insertMany(
        db,
        spec.table,
        spec.columns.map(([name, type]) => [name, type] as const),
        spec.columns.map(([, , value]) => rows.map(value)),
      );
    else await copyMany(db, spec, encoded?.get(spec.table) ?? copyChunks(copyLines(spec, rows)));
  }
  return resolved.transactions.length;
}

/** recordTop sets the loaded top in sync_state (same transaction as the rows it describes). */
export async function recordTop(db: Queryable): Promise<void> {
  await db.query(
    `UPDATE sync_state SET (top_height, top_hash) = (SELECT height, hash FROM key_blocks ORDER BY height DESC LIMIT 1)`,
  );
}
