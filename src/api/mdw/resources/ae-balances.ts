/**
 * @module An account's AE balance at a height or a time and the changes that made it (issue 76), read from
 * account_balance_changes: the balance is its latest change's at or before the block (one index probe), the history a
 * keyset walk of its changes.
 */
import {
  AFTER_BLOCK,
  blockAtTime,
  blockHashAt,
  blockOfHash,
  changesPage,
  firstChangeAfter,
  lastChangeAt,
  WHOLE_GENERATION,
  type BalanceChange,
  type BlockEnd,
  type ChangeKey,
} from '../../../db/queries/balance-changes.ts';
import { topHeight } from '../../../db/queries/blocks.ts';
import { pendingBackfills } from '../../../db/queries/pending-backfills.ts';
import { isEncoded, reprefix } from '../../../chain/encoding.ts';
import type { Queryable } from '../../../db/connection/pool.ts';
import type { Json } from '../../../chain/json.ts';
import { INDEX_CURSOR, cursorCodec, type CursorCodec } from './cursors.ts';
import {
  dayText,
  intervalBalances,
  INTERVALS,
  openingInterval,
  type IntervalBalance,
  type IntervalBy,
} from './balance-intervals.ts';
import { listPage } from './list.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { ALL_HEIGHTS, one, parseId, parseNonNegative, parsePaging, rejectUnknown } from './mdw-params.ts';
import type { Query } from './page.ts';
import type { KeyWindow } from '../../../db/queries/positions.ts';
import { page, resource, type Answer, type V3Env } from './resource.ts';
import type { ShapeValue } from '../../../shapes/shape-table.ts';
import { NodeError, unlessGone } from '../../../node/errors.ts';
import type { GenesisBalances, UntouchedBalance } from './genesis-balances.ts';
import { AE_BALANCE, AE_BALANCE_CHANGE, BALANCES_MAX } from '../../../shapes/v3/shapes-balances.ts';

/** CHANGE_CURSOR: a change's `<height>-<micro index>-<tx index>-<seq>` (−1 at key-block level). */
export const CHANGE_CURSOR: CursorCodec<ChangeKey> = cursorCodec({
  encode: (k) => `${k.height}_${k.microIndex}_${k.txIndex}_${k.seq}`,
  decode(text) {
    if (text === undefined) return undefined;
    const parts = text.split('_');
    const n = parts.map((p) => (/^-1$/.test(p) ? -1 : parseNonNegative(p)));
    if (parts.length !== 4 || n.some((x) => x === undefined)) throw v3BadRequest(`invalid cursor: ${text}`);
    return { height: n[0]!, microIndex: n[1]!, txIndex: n[2]!, seq: n[3]! };
  },
});

/**
 * balanceAccount reads an account's id: an `ak_`, or a contract's `ct_`, whose AE is in the account of the same key (the
 * node answers `/v3/accounts/ct_…` with it, `id` as `ak_…`); the changes are stored under the `ak_` form.
 */
function balanceAccount(id: string | undefined): string {
  return reprefix(parseId(id, ['ak', 'ct']), 'ak');
}

/**
 * getAccountBalance: `{account, height, block_hash, balance, last_change}` after generation `height=`, after the block
 * `hash=` names, after the last block at or before `time=` (unix seconds), or after the top.
 */
export const getAccountBalance = resource(AE_BALANCE, async ({ pool, genesis }, req) => {
  const account = balanceAccount(req.params.accountId);
  rejectUnknown(req.query, new Set(['height', 'time', 'hash']));
  const end = await blockEndOf(pool, req.query);
  return balanceOf({ pool, genesis }, account, end, await blockHashAt(pool, end));
});

/** getAccountBalanceHistory: an account's balance changes, newest first unless asked forward, in keyset pages. */
export const getAccountBalanceHistory = resource(page(AE_BALANCE_CHANGE), async ({ pool, genesis }, req) => {
  const account = balanceAccount(req.params.accountId);
  rejectUnknown(req.query, new Set(['interval_by']));
  const paging = parsePaging(req.query);
  const by = one(req.query.interval_by);
  if (by !== undefined) {
    if (!INTERVALS.includes(by as IntervalBy)) throw v3BadRequest(`invalid interval_by: ${by}`);
    if (paging.scope !== undefined) throw v3BadRequest('interval_by takes no scope');
    return listPage(paging, {
      cursor: INDEX_CURSOR,
      read: async (window) => {
        const intervals = await intervalBalances(pool, { account, by: by as IntervalBy }, window);
        if (intervals.length > 0) return intervals;
        // an untouched genesis account: its genesis balance, in the interval of the genesis key block
        const opening = await genesisOpening({ pool, genesis }, account);
        const interval = opening && openingInterval(by as IntervalBy, opening, window);
        return interval ? [interval] : intervals;
      },
      key: (r: IntervalBalance) => r.interval.start,
      item: ({ interval, last }) => ({
        account,
        interval_by: by,
        date: dayText(interval.start),
        height: last.height,
        balance: BigInt(last.balance),
      }),
    });
  }
  const heights = paging.scope ?? ALL_HEIGHTS;
  return listPage(paging, {
    cursor: CHANGE_CURSOR,
    read: async (window) => {
      const changes = await changesPage(pool, { account, heights }, window);
      if (changes.length > 0 || !holdsGenesisPlace(heights, window)) return changes;
      const opening = await genesisOpening({ pool, genesis }, account);
      return opening ? [opening] : changes;
    },
    key: (r: BalanceChange) => ({ height: r.height, microIndex: r.microIndex, txIndex: r.txIndex, seq: r.seq }),
    item: (r) => ({ account, ...changeItem(r) }),
  });
});

/**
 * postAccountsBalances: `[{account, height, balance, last_change}]` for the body's `{"accounts": [ak_…], "height": H}`
 * (1 to BALANCES_MAX accounts, each answered once in the order given; `height` optional, default the stored top).
 */
export async function postAccountsBalances({ pool, genesis }: V3Env, body: unknown): Promise<Answer> {
  const usage = 'the body must be {"accounts": ["ak_…" or "ct_…", …], "height": H} (height optional)';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw v3BadRequest(usage);
  const { accounts, height, ...rest } = body as { accounts?: unknown; height?: unknown };
  if (!Array.isArray(accounts) || Object.keys(rest).length > 0) throw v3BadRequest(usage);
  if (accounts.length === 0 || accounts.length > BALANCES_MAX)
    throw v3BadRequest(`accounts: give 1 to ${BALANCES_MAX}, not ${accounts.length}`);
  const ids = [...new Set(accounts.map((a) => balanceAccount(typeof a === 'string' ? a : String(a))))];
  if (height !== undefined && (typeof height !== 'number' || !Number.isSafeInteger(height)))
    throw v3BadRequest(`invalid height: ${String(height)}`);
  const end = await blockEndOf(pool, height === undefined ? {} : { height: String(height) });
  const blockHash = await blockHashAt(pool, end);
  const answers: Json[] = [];
  // one probe each, one after the other: a request holds one connection
  for (const id of ids) answers.push(await balanceOf({ pool, genesis }, id, end, blockHash));
  return answers;
}

/**
 * balanceOf is an account's balance at the end of a block (`blockHash` its hash), with the change that made it. One
 * without a stored change, where no genesis file told the genesis balances, holds its genesis balance as the node
 * tells it, shown as the change the genesis file would have stored (`accounts_roma` at height 0; none where the
 * node, its genesis state garbage-collected, told the balance after the block instead).
 */
async function balanceOf(
  { pool, genesis }: Pick<V3Env, 'pool' | 'genesis'>,
  account: string,
  end: BlockEnd,
  blockHash: string,
): Promise<Json> {
  const last = await lastChangeAt(pool, account, end);
  const answer = { account, height: end.height, block_hash: blockHash };
  if (last !== undefined)
    return { ...answer, balance: BigInt(last.balance), last_change: changeItem(last) } satisfies ShapeValue<
      typeof AE_BALANCE
    >;
  const untouched = await untouchedBalance(genesis, account, blockHash);
  const opened = untouched?.genesisTimeMs !== undefined && untouched.balance > 0n;
  return {
    ...answer,
    balance: untouched?.balance ?? 0n,
    last_change: opened ? changeItem(genesisChange(untouched.balance, untouched.genesisTimeMs!)) : null,
  } satisfies ShapeValue<typeof AE_BALANCE>;
}

/** untouchedBalance is GenesisBalances.untouched, a state the node no longer holds a 400 saying the balance is unknown. */
async function untouchedBalance(
  genesis: GenesisBalances,
  account: string,
  blockHash: string,
): Promise<UntouchedBalance | undefined> {
  try {
    return await genesis.untouched(account, blockHash);
  } catch (err) {
    if (!(err instanceof NodeError && err.gone)) throw err;
    throw v3BadRequest(
      `the balance of ${account} is not known: no transaction touched it, and the node no longer holds its state ` +
        '(garbage-collected); GENESIS_ACCOUNTS_FILE tells the genesis balances',
    );
  }
}

/**
 * genesisOpening is the genesis balance change of an account without a change stored, where no genesis file told the
 * genesis balances: its genesis balance as the node tells it, as the change the file would have stored (none for a
 * balance of 0, nor where the node no longer holds the genesis state).
 */
async function genesisOpening(
  { pool, genesis }: Pick<V3Env, 'pool' | 'genesis'>,
  account: string,
): Promise<BalanceChange | undefined> {
  if ((await firstChangeAfter(pool, account, BEFORE_GENESIS)) !== undefined) return undefined;
  const opening = await unlessGone(genesis.genesisBalance(account));
  return opening !== undefined && opening.balance > 0n ? genesisChange(opening.balance, opening.timeMs) : undefined;
}

/** genesisChange is the genesis balance change (`accounts_roma`) the balances area stores from a genesis file. */
function genesisChange(balance: bigint, timeMs: number): BalanceChange {
  const amount = String(balance);
  return {
    ...GENESIS_PLACE,
    kind: 'accounts_roma',
    txHash: null,
    delta: amount,
    balance: amount,
    timeMs: String(timeMs),
  };
}

/** holdsGenesisPlace: whether a history window over `heights` reaches GENESIS_PLACE, its first place. */
function holdsGenesisPlace(heights: { readonly first: number }, window: KeyWindow<ChangeKey>): boolean {
  if (heights.first > 0) return false;
  const from = window.from;
  // walking forward from a cursor: only from the genesis place itself (none comes before it)
  return window.walk === 'backward' || from === undefined || CHANGE_CURSOR.encode(from) === GENESIS_CURSOR;
}

/** GENESIS_PLACE: where a genesis balance change is, at key-block level of height 0 (balance-changes.ts). */
const GENESIS_PLACE: ChangeKey = { height: 0, microIndex: -1, txIndex: -1, seq: 0 };
const GENESIS_CURSOR = CHANGE_CURSOR.encode(GENESIS_PLACE);
/** BEFORE_GENESIS: a block end before every change (firstChangeAfter it is an account's first). */
const BEFORE_GENESIS: BlockEnd = { height: -1, microIndex: 0 };

/**
 * blockEndOf is the block a request's `height=` (a whole generation: the node's `/accounts/{id}/height/H` is the state
 * at key block H instead, before the generation's micro blocks), `hash=` (a key or micro block) or `time=` names, or
 * the stored top.
 */
async function blockEndOf(db: Queryable, query: Query): Promise<BlockEnd> {
  const heightText = one(query.height);
  const timeText = one(query.time);
  const hash = one(query.hash);
  if ([heightText, timeText, hash].filter((p) => p !== undefined).length > 1)
    throw v3BadRequest('give one of height, hash or time');
  if (hash !== undefined) {
    if (!isEncoded(hash, ['kh', 'mh'])) throw v3BadRequest(`invalid hash: ${hash} (a kh_ or mh_ block hash)`);
    const end = await blockOfHash(db, hash);
    if (end === undefined) throw v3NotFound(hash);
    return derived(db, end);
  }
  const top = await topHeight(db);
  if (top === undefined) throw v3BadRequest('no height is stored yet');
  if (timeText !== undefined) {
    const seconds = parseNonNegative(timeText);
    if (seconds === undefined) throw v3BadRequest(`invalid time: ${timeText}`);
    const end = await blockAtTime(db, seconds * 1000);
    if (end === undefined) throw v3BadRequest(`no block is stored at or before time ${timeText}`);
    return derived(db, end);
  }
  if (heightText === undefined) return derived(db, { height: top, microIndex: WHOLE_GENERATION });
  const height = parseNonNegative(heightText);
  if (height === undefined) throw v3BadRequest(`invalid height: ${heightText}`);
  if (height > top) throw v3BadRequest(`height ${height} is above the stored top ${top}`);
  return derived(db, { height, microIndex: WHOLE_GENERATION });
}

/**
 * derived is the block end when the balances area has derived the changes up to it, else a 400 saying which heights
 * it is still deriving: a balance is the sum of the changes before it, and one read before they are derived (a
 * catch-up's, or an upgrade's new rules being applied to stored heights) would be made up.
 */
async function derived(db: Queryable, end: BlockEnd): Promise<BlockEnd> {
  const pending = (await pendingBackfills(db)).find((b) => b.area === 'balances');
  if (pending !== undefined && end.height >= pending.next)
    throw v3BadRequest(
      `the AE balances after height ${end.height} are not derived yet: the balances area is deriving heights ` +
        `${pending.next}..${pending.to}${pending.error === undefined ? '' : ` (failing: ${pending.error})`}`,
    );
  return end;
}

/** changeItem renders a stored change (micro and tx index null at key-block level and for an unexplained one). */
function changeItem(r: BalanceChange): { [key: string]: Json } {
  const keyLevel = r.microIndex < 0;
  return {
    height: r.height,
    micro_index: keyLevel ? null : r.microIndex,
    tx_index: keyLevel || r.txIndex === AFTER_BLOCK ? null : r.txIndex,
    time: Number(r.timeMs),
    kind: r.kind,
    tx_hash: r.txHash,
    delta: BigInt(r.delta),
    balance: BigInt(r.balance),
    unexplained: r.kind === 'unexplained',
  };
}
