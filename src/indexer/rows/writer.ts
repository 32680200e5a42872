/**
 * @module Writer: the rows of whole heights in one database transaction, one COPY (or, where a key
 * may repeat, one multi-row INSERT) per table per batch, and the sync state beside them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Queryable } from '../../db/connection/pool.ts';
import {
  foldChannelEvents,
  foldNameActions,
  foldOracleActions,
  resolveNameQueries,
  resolveNameReferences,
} from './chain-state.ts';
import type {
  AccountPairRow,
  AccountTxRow,
  ChannelEventRow,
  GenerationRows,
  NameEventRow,
  OracleEventRow,
  OracleQueryRow,
  ResolvedRows,
} from './rows.ts';
import { accountPairs } from './account-pairs.ts';
import { TABLES, type IdNumbers, type TableColumns } from './tables.ts';
import { AccountNumbers } from '../../db/writes/account-numbers.ts';
import { CopyPayloads } from '../../db/writes/copy-in.ts';
import { copyMany, insertMany } from '../../db/writes/bulk-load.ts';
import { priorChannelStates, priorNameStates, priorOracleStates } from '../../db/queries/state-events.ts';
import { writeGenerationTxis } from '../../db/writes/generation-txis.ts';
import { takeNameStates } from '../../db/writes/name-state.ts';
import { NAME_STATE_COLUMNS, nameStateRows } from './name-state-rows.ts';
import { generationTotals } from './generation-totals.ts';
import { addTxTypeTotals } from '../../db/writes/tx-type-totals.ts';
import { txTypeTotals } from './tx-type-totals.ts';
import { TxTypeCodes, type UnknownTxType } from '../../db/writes/tx-type-codes.ts';
import { isKnownTxType, txTypeCode } from '../../chain/id-key.ts';

/** UnresolvedTypeError: a type the code does not know has its code only inside the writer's transaction. */
class UnresolvedTypeError extends Error {
  override readonly name = 'UnresolvedTypeError';
}

/**
 * NO_NUMBERS serves the tables that name no id by its number and no type the code does not know (they are encoded
 * before the transaction).
 */
const NO_NUMBERS: IdNumbers = {
  number: (id) => {
    throw new Error(`an id's number asked outside the writer's transaction: ${id.slice(0, 60)}`);
  },
  typeCode: (type) => {
    if (!isKnownTxType(type)) throw new UnresolvedTypeError(type);
    return txTypeCode(type);
  },
};

/**
 * copyRows adds the COPY text lines of rows `from`..`to` of one table to `out`, value by value (a plain loop: it runs
 * for every value written).
 */
function copyRows<R>(
  out: CopyPayloads,
  spec: TableColumns<R>,
  rows: readonly R[],
  from = 0,
  to = rows.length,
  numbers: IdNumbers = NO_NUMBERS,
): void {
  const columns = spec.columns;
  for (let r = from; r < to; r++) {
    const row = rows[r]!;
    for (let c = 0; c < columns.length; c++) out.value(columns[c]![1], columns[c]![2](row, numbers));
    out.end();
  }
}

/** copyPayloads are the COPY payloads of one table's rows, as the writer writes them. */
export function copyPayloads<R>(spec: TableColumns<R>, rows: readonly R[], numbers?: IdNumbers): Buffer[] {
  const out = new CopyPayloads();
  copyRows(out, spec, rows, 0, rows.length, numbers);
  return out.payloads();
}

const ENCODE_TURN = 500;

/** writeTableRows writes rows of one table as the writer does (one COPY); the caller owns the transaction. */
export async function writeTableRows<R>(db: Queryable, spec: TableColumns<R>, rows: readonly R[]): Promise<void> {
  if (rows.length === 0) return;
  await copyMany(
    db,
    spec.table,
    spec.columns.map(([name]) => name),
    copyPayloads(spec, rows),
  );
}

/** EncodedRows are the COPY payloads of the tables that need no stored state, made before the transaction. */
export type EncodedRows = ReadonlyMap<string, Buffer[]>;

/**
 * encodeRows prepares the COPY payloads of a batch; the populator does it while the previous batch
 * is written, so it gives the event loop a turn every ENCODE_TURN rows (that write's statements wait on it).
 */
export async function encodeRows(gens: readonly GenerationRows[]): Promise<EncodedRows> {
  const direct = flatten(gens, NO_STATE_ROWS);
  const encoded = new Map<string, Buffer[]>();
  // one for the batch's tables: its buffer serves them in turn
  const out = new CopyPayloads();
  for (const spec of TABLES) {
    if (spec.firstWins || spec.needsState) continue;
    const rows = spec.rows(direct);
    try {
      for (let i = 0; i < rows.length; i += ENCODE_TURN) {
        copyRows(out, spec, rows, i, Math.min(rows.length, i + ENCODE_TURN));
        await nextTurn();
      }
    } catch (err) {
      // a type the code does not know: the table is encoded in the transaction, once the type has its code
      if (!(err instanceof UnresolvedTypeError)) throw err;
      out.discard();
      continue;
    }
    encoded.set(spec.table, out.payloads());
  }
  return encoded;
}

/** Rows that exist only once the stored state before a batch is known. */
interface StateRows {
  readonly channelEvents: ChannelEventRow[];
  readonly nameEvents: NameEventRow[];
  readonly oracleEvents: OracleEventRow[];
  readonly nameQueries: OracleQueryRow[];
  readonly nameAccountTxs: AccountTxRow[];
  readonly accountPairs: AccountPairRow[];
}

const NO_STATE_ROWS: StateRows = {
  channelEvents: [],
  nameEvents: [],
  oracleEvents: [],
  nameQueries: [],
  nameAccountTxs: [],
  accountPairs: [],
};

/** The generations' kinds of rows that are lists. */
type ListKey = { [K in keyof GenerationRows]: GenerationRows[K] extends unknown[] ? K : never }[keyof GenerationRows];

/**
 * rowsOf is one kind of rows of every generation, in order: a loop, where flatMap's call per generation and check of
 * each item was a visible share of the writer's work outside the COPY.
 */
function rowsOf<K extends ListKey>(gens: readonly GenerationRows[], k: K): GenerationRows[K] {
  const out: unknown[] = [];
  for (const g of gens) for (const row of g[k]) out.push(row);
  return out as GenerationRows[K];
}

function flatten(
  gens: readonly GenerationRows[],
  { channelEvents, nameEvents, oracleEvents, nameQueries, nameAccountTxs, accountPairs }: StateRows,
  accountTxs = rowsOf(gens, 'accountTxs'),
): ResolvedRows {
  const oracleQueries = rowsOf(gens, 'oracleQueries');
  for (const q of nameQueries) oracleQueries.push(q);
  return {
    keyBlocks: gens.filter((g) => g.continuesAt === undefined).map((g) => g.keyBlock),
    microBlocks: rowsOf(gens, 'microBlocks'),
    transactions: rowsOf(gens, 'transactions'),
    accountTxs,
    contracts: rowsOf(gens, 'contracts'),
    contractCalls: rowsOf(gens, 'contractCalls'),
    channelEvents,
    namePointers: rowsOf(gens, 'namePointers'),
    oracleQueries,
    oracleResponses: rowsOf(gens, 'oracleResponses'),
    nameEvents,
    oracleEvents,
    nameAccountTxs,
    accountPairs,
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
  const channelEvents = gens.flatMap((g) => g.channelEvents);
  const priorChannels = await priorChannelStates(db, [...new Set(channelEvents.map((e) => e.channelId))], from);
  const accountTxs = rowsOf(gens, 'accountTxs');
  const nameAccountTxs = [...resolveNameReferences(priorNames, nameEvents, nameRefs), ...queries.accountTxs];
  // the pairs of the account rows as stored (those reached through names included): made here alone, encodeRows
  // writes no table of stored state
  return flatten(
    gens,
    {
      channelEvents: foldChannelEvents(priorChannels, channelEvents),
      nameEvents,
      oracleEvents,
      nameQueries: queries.queries,
      nameAccountTxs,
      accountPairs: accountPairs(accountTxs, nameAccountTxs),
    },
    accountTxs,
  );
}

/** What writeGenerations stored that the derived areas read after it. */
export interface WrittenRows {
  readonly transactions: number;
  /** the transactions of types the code does not know, by type, and the types first stored by this batch */
  readonly unknownTypes: { readonly counts: ReadonlyMap<string, number>; readonly firstMet: readonly UnknownTxType[] };
  /** the account rows as stored, with the ids' numbers (the statistics count appearances from them) */
  readonly accounts: { readonly rows: readonly (readonly AccountTxRow[])[]; readonly numbers: IdNumbers };
}

/**
 * writeGenerations inserts the rows of several heights (ascending); the caller owns the transaction and derives the
 * areas beside the chain after it (sync/loader.ts). `encoded` (from encodeRows) saves encoding inside it;
 * `accountNumbers` the ids' numbers and `types` the codes of types the code does not know (a populator keeps one of
 * each for its life, and has them forget after a failed transaction).
 */
export async function writeGenerations(
  db: Queryable,
  gens: readonly GenerationRows[],
  encoded?: EncodedRows,
  accountNumbers: AccountNumbers = new AccountNumbers(),
  types: TxTypeCodes = new TxTypeCodes(),
): Promise<WrittenRows> {
  const numbers: IdNumbers = { number: (id) => accountNumbers.number(id), typeCode: (type) => types.code(type) };
  const none = { counts: new Map<string, number>(), firstMet: [] };
  if (gens.length === 0) return { transactions: 0, unknownTypes: none, accounts: { rows: [], numbers } };
  const resolved = await resolveRows(db, gens);
  const ids: string[] = [];
  for (const rows of [resolved.accountTxs, resolved.nameAccountTxs]) for (const r of rows) ids.push(r.account);
  await accountNumbers.resolve(db, ids);
  const unknown = resolved.transactions.filter((t) => !isKnownTxType(t.txType));
  const counts = new Map<string, number>();
  for (const t of unknown) counts.set(t.txType, (counts.get(t.txType) ?? 0) + 1);
  const firstMet = await types.resolve(
    db,
    unknown.map((t) => ({ name: t.txType, height: t.height, hash: t.txHash })),
  );
  // a batch of whole generations above every stored name event (a sync's) writes its names' name_state rows itself
  // from those before it, where the insert trigger of name_events walked each name's events twice (migration 1156)
  const names = [...new Set(resolved.nameEvents.map((e) => e.nameHash))];
  const namesBefore =
    names.length > 0
      ? await takeNameStates(db, names, gens[0]!.continuesAt === undefined ? gens[0]!.keyBlock.height : undefined)
      : undefined;
  for (const spec of TABLES) {
    const rows = spec.rows(resolved);
    // COPY cannot skip a repeated key, so the few tables keyed by a derived id take an INSERT
    if (spec.firstWins)
      await insertMany(
        db,
        spec.table,
        spec.columns.map(([name, type]) => [name, type] as const),
        spec.columns.map(([, , value]) => rows.map((row) => value(row, numbers))),
      );
    else
      await copyMany(
        db,
        spec.table,
        spec.columns.map(([name]) => name),
        encoded?.get(spec.table) ?? copyPayloads(spec, rows, numbers),
      );
  }
  if (namesBefore) await writeTableRows(db, NAME_STATE_COLUMNS, nameStateRows(namesBefore, resolved.nameEvents));
  // the transactions' totals per type from the rows at hand: a trigger on the COPY (1015) copied every row into a
  // transition table to count them again (2.3k PostgreSQL instructions a transaction, migration 1154)
  await addTxTypeTotals(db, txTypeTotals(resolved.transactions, numbers.typeCode));
  await writeGenerationTxis(db, gens[0]!.keyBlock.height, gens.at(-1)!.keyBlock.height, generationTotals(gens));
  return {
    transactions: resolved.transactions.length,
    unknownTypes: { counts, firstMet },
    accounts: { rows: [resolved.accountTxs, resolved.nameAccountTxs], numbers },
  };
}
