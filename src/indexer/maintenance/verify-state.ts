/**
 * @module `mdw -v --full` against the chain's state: what the database derived (AEX-9 balances, AEX-141 owners, names,
 * oracles and their open queries, channels, accounts' AE balances) compared with what the chain itself holds at the
 * verified top, the node's state and not a derivation of ours: a wrong rule or a wrong setting shows, which a
 * re-derivation with the same rules and settings never can. Contracts are asked by dry-run and accounts by
 * `/accounts/{id}/hash/{block}` at the stored top's last block; names, oracles and channels, which the node gives at
 * its own top only, are compared when the node's top is the stored one, and an entry that the blocks the node has
 * beyond it touch is left out (said in one line). Requests go in batches, at most `concurrency` at once through the
 * node client's slots; a pruned state (a 410, or the dry-run's 400 saying the state was garbage collected: a pruning
 * node keeps no state at that block) is noted, not counted; a contract the node would not or could not answer for any
 * other reason (a refusal, a failing call such as `wrong_abi_version`, a crash) is a difference, each said as what it
 * was (Unread): verify must not pass a token it could not read.
 */
import { isJsonObject, type Json } from '../../chain/json.ts';
import { NO_CHANNEL_STATE } from '../../chain/channel-state.ts';
import { ProgressLine, type ProgressOptions } from '../../base/progress-line.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import {
  aex141Owners,
  aex9Holdings,
  aexnContractsPage,
  balancesPage,
  channelIdsPage,
  storedNamesPage,
  storedOraclesPage,
  sampledBalances,
  unansweredQueries,
  type AexnContract,
  type StoredBalance,
} from '../../db/queries/chain-state-check.ts';
import { channelById, type ChannelRow } from '../../db/queries/channels.ts';
import { lastChangeAt, WHOLE_GENERATION } from '../../db/queries/balance-changes.ts';
import { storedLink } from '../../db/queries/block-hashes.ts';
import type { NodeClient } from '../../node/client.ts';
import { fateCall, OVER_TIME_LIMIT, PRUNED, REFUSED } from '../../node/dry-run.ts';
import { NodeError } from '../../node/errors.ts';
import type { BytecodeEncoder, ContractDecoder } from '../contracts/contract-decoder.ts';
import { readHoldings } from '../contracts/aex9-holdings.ts';
import { mapLimit } from '../../base/workers.ts';
import { fetchGeneration } from '../sync/fetch.ts';
import {
  aex141Differences,
  aex9Differences,
  balanceDifference,
  capped,
  channelDifferences,
  nameDifferences,
  oracleDifferences,
  queryDifferences,
  type StoredChannel,
} from './state-compare.ts';

export interface StateCheckDeps {
  readonly pool: Queryable;
  readonly node: NodeClient;
  /** finds a contract's code and its encoder, for the dry-runs */
  readonly decoder: ContractDecoder;
  /** where each kind's progress line goes (PROGRESS_LOG_MS); none: no line */
  readonly progress?: Pick<ProgressOptions, 'log' | 'intervalMs'>;
}

export interface StateCheckOptions {
  /** the verified top: every height up to it is stored */
  readonly top: number;
  /** the last stored block of the top generation, at which contracts and accounts are asked */
  readonly topBlock: string;
  /** accounts checked: all of them when undefined, else that many drawn at random */
  readonly sample?: number;
  /** node requests in flight at once */
  readonly concurrency: number;
  /** differences written out per entry (a token, a name…); the rest are counted */
  readonly shown: number;
  /** the areas whose derivation is still under way: their tables are not compared (`tokens`, `balances`) */
  readonly pending: ReadonlySet<string>;
  /** compare the accounts' AE balances only (a snapshot's import samples them), not the tokens, names and the rest */
  readonly accountsOnly?: boolean;
}

/** What one kind of entry cost: how many were checked, the node requests they took and the time. */
export interface StateCost {
  readonly what: string;
  readonly items: number;
  readonly requests: number;
  readonly ms: number;
}

export interface StateReport {
  readonly differences: string[];
  /** entries the node keeps no state for (a pruned state): noted, not counted; every other unread entry is a difference */
  readonly unverifiable: string[];
  /** what was left out and why (an area still deriving, entries the node changed after the verified top) */
  readonly notes: string[];
  readonly costs: StateCost[];
}

/** Entries read from the database at a time. */
const PAGE = 500;
/** AEX-141 `owner(token)` calls per dry-run request. */
const OWNER_CALLS = 100;
/** Open queries the node lists per request (its maximum). */
const QUERY_PAGE = 1000;
/** Generations past the verified top the node may be at for names, oracles and channels to be compared. */
const MAX_AHEAD = 100;

/** A tally of one kind of entry: its items, requests and time, its differences and what it could not check. */
class Tally {
  readonly differences: string[] = [];
  readonly unverifiable: string[] = [];
  items = 0;
  requests = 0;
  readonly #started = performance.now();
  #ended: number | undefined;
  readonly #progress: ProgressLine | undefined;
  readonly what: string;

  constructor(what: string, progress: StateCheckDeps['progress']) {
    this.what = what;
    // the entries are read page by page: how many there are is not known beforehand
    this.#progress =
      progress &&
      new ProgressLine({
        ...progress,
        message: 'verify: state compared with the chain',
        total: undefined,
        fields: { what },
      });
  }

  /** counted counts one more entry compared */
  counted(): void {
    this.items++;
    this.#progress?.advance(1);
  }

  /** add files what the checks found, in order */
  add(found: readonly Found[]): void {
    for (const f of found) (f.unverifiable ? this.unverifiable : this.differences).push(f.line);
  }

  /** end says its entries are compared: its time stops (the next kind's runs after it) */
  end(): void {
    this.#ended ??= performance.now();
  }

  cost(): StateCost {
    return {
      what: this.what,
      items: this.items,
      requests: this.requests,
      ms: Math.round((this.#ended ?? performance.now()) - this.#started),
    };
  }
}

/** verifyState compares the derived state at the verified top with the chain's; see the module's comment. */
export async function verifyState(deps: StateCheckDeps, opts: StateCheckOptions): Promise<StateReport> {
  const tallies: Tally[] = [];
  const notes: string[] = [];
  // the kinds are compared one after another: each one's time ends as the next begins
  const tally = (what: string): Tally => {
    tallies.at(-1)?.end();
    const t = new Tally(what, deps.progress);
    tallies.push(t);
    return t;
  };
  if (!opts.accountsOnly) {
    if (opts.pending.has('tokens'))
      notes.push('state not compared for AEX-9 and AEX-141 tokens: the populator is still deriving them');
    else {
      await checkAex9(deps, opts, tally('AEX-9 tokens'));
      await checkAex141(deps, opts, tally('AEX-141 collections'));
    }
    notes.push(...(await checkAtNodeTop(deps, opts, tally)));
  }
  if (opts.pending.has('balances'))
    notes.push('state not compared for AE balances: the populator is still deriving them');
  else
    await checkBalances(
      deps,
      opts,
      tally(opts.sample === undefined ? 'accounts' : `accounts (a sample of ${opts.sample})`),
    );
  tallies.at(-1)?.end();
  return {
    differences: tallies.flatMap((t) => t.differences),
    unverifiable: tallies.flatMap((t) => t.unverifiable),
    notes,
    costs: tallies.map((t) => t.cost()),
  };
}

/** PAST_HEIGHTS: heights below the top at which each account's derived AE balance is compared with the node's. */
const PAST_HEIGHTS = 2;

/** pastHeights draws an account's past heights to compare, the same on every run (from its id). Pure. */
export function pastHeights(account: string, top: number): number[] {
  let x = [...account].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 2_147_483_647, 7);
  return Array.from({ length: PAST_HEIGHTS }, () => {
    x = (x * 48_271) % 2_147_483_647;
    return x % Math.max(top, 1);
  });
}

/** pages runs `each` over every entry of a keyset-paged list, `concurrency` at once: what each gives, in list order. */
async function pages<T, R>(
  page: (after: string) => Promise<readonly T[]>,
  key: (item: T) => string,
  concurrency: number,
  each: (item: T) => Promise<readonly R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let after = ''; ;) {
    const items = await page(after);
    if (items.length === 0) return out;
    for (const found of await mapLimit(items, concurrency, each)) out.push(...found);
    after = key(items.at(-1)!);
  }
}

/** Read reads a call's answer (`cb_…`) with the code's encoder; byTypes, its decoding by the code's types. */
type Read<T> = (encoder: BytecodeEncoder, fn: string, answer: string) => T;

const byTypes: Read<unknown> = (encoder, fn, answer) => encoder.decodeResult(fn, answer, 'ok');

/**
 * Unread is why a contract's state could not be read, by its kind: PRUNED (every node keeps no state at the block: its
 * 410, or the dry-run's 400 saying the state was garbage collected) and TIME LIMIT (every node gave the call up at its
 * dry-run time limit, round after round) are those a node's configuration explains, notes; the others are the verify's
 * failure, each a difference: REFUSED (every node refused the request: another
 * 4xx), CALL FAILED (the node ran the call and it failed: `wrong_abi_version`, a revert), CRASHED (every node answered
 * 500, round after round), UNREADABLE (no code at hand to encode the call with, an answer of another type).
 */
export interface Unread {
  readonly kind: 'PRUNED' | 'TIME LIMIT' | 'REFUSED' | 'CALL FAILED' | 'CRASHED' | 'UNREADABLE';
  readonly why: string;
}

const unread = (kind: Unread['kind'], why: string): Unread => ({ kind, why });

/** oneLine is a node's reason on one line (`Internal error:\n  wrong_abi_version\n` → `Internal error: wrong_abi_version`). Pure. */
export const oneLine = (reason: string): string => reason.replace(/\s+/g, ' ').trim();

/**
 * dryRun asks one contract's read-only `calls` (function names and arguments) at block `top`: their results as `read`
 * reads them, or why not (Unread).
 */
async function dryRun<T>(
  deps: StateCheckDeps,
  top: string,
  t: Tally,
  contractId: string,
  calls: readonly { fn: string; args: unknown[] }[],
  read: Read<T>,
): Promise<T[] | Unread> {
  const code = await deps.decoder.code(contractId);
  if (code === undefined) return unread('UNREADABLE', 'its code is at hand nowhere');
  const encoder = deps.decoder.encoder(code);
  const requests = calls.map((c) => fateCall(contractId, encoder.encodeCall(c.fn, c.args)));
  t.requests++;
  let results: Awaited<ReturnType<NodeClient['dryRun']>>;
  try {
    results = await deps.node.dryRun(top, requests);
  } catch (err) {
    // every node's 500 in every round (the client's retries spent): a request no node serves, not a passing failure
    if (err instanceof NodeError && err.nodeStatus === 500) return unread('CRASHED', `${err.message} (every round)`);
    throw err;
  }
  if (results === PRUNED) return unread('PRUNED', `every node had garbage-collected the state at ${top}`);
  if (results === REFUSED) return unread('REFUSED', `every node refused a dry-run at ${top}`);
  if (results === OVER_TIME_LIMIT)
    return unread('TIME LIMIT', `every node gave a dry-run at ${top} up at its time limit, round after round`);
  const decoded: T[] = [];
  for (const [i, r] of results.entries()) {
    if (!r.ok) return unread('CALL FAILED', `${calls[i]!.fn}() at ${top}: ${oneLine(r.reason)}`);
    decoded.push(read(encoder, calls[i]!.fn, r.value));
  }
  return decoded;
}

/** A line of the report: a difference, or an entry the chain cannot be asked about. */
interface Found {
  readonly unverifiable: boolean;
  readonly line: string;
}

const differences = (lines: readonly string[]): Found[] => lines.map((line) => ({ unverifiable: false, line }));

/**
 * notRead is the line of a contract whose state was not read: unverifiable for a pruned state or the nodes' time
 * limit, else a difference (`mdw -v` fails), each saying which kind of failure it was. Pure.
 */
export const notRead = (kind: string, id: string, why: Unread): Found =>
  why.kind === 'PRUNED' || why.kind === 'TIME LIMIT'
    ? { unverifiable: true, line: `${kind} ${id}: unverifiable: ${why.kind}: ${why.why}` }
    : { unverifiable: false, line: `${kind} ${id}: not read: ${why.kind}: ${why.why}` };

const isUnread = (v: unknown): v is Unread => typeof v === 'object' && v !== null && 'kind' in v && 'why' in v;

/**
 * unreadAtCreation is the line of an AEX-9 token stored without its balances at creation: those are read at its
 * creation block (`createdIn`), which a pruning node keeps no state of, or the nodes give up at their time limit
 * (unverifiable); any other reason is a difference, and so is a node that answers there now: a token stored as unread
 * for no reason.
 */
async function unreadAtCreation(
  deps: StateCheckDeps,
  t: Tally,
  contractId: string,
  createdIn: string | null,
): Promise<Found> {
  if (createdIn === null) return notRead('aex9', contractId, unread('UNREADABLE', 'its creation block is not stored'));
  const read = await dryRun(deps, createdIn, t, contractId, [{ fn: 'balances', args: [] }], () => undefined);
  if (!isUnread(read))
    return {
      unverifiable: false,
      line:
        `aex9 ${contractId}: balances at creation stored as unread, yet the node answers balances() at its creation ` +
        `block ${createdIn}: not a pruned state (the token's balances are incomplete)`,
    };
  const found = notRead('aex9', contractId, read);
  return { ...found, line: `${found.line} (its balances at creation were stored as unread)` };
}

/** checkAex9 compares each AEX-9 token's stored balances with its contract's `balances()`. */
async function checkAex9(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<void> {
  const found = await pages(
    (after) => aexnContractsPage(deps.pool, 'aex9', after, PAGE),
    (c: AexnContract) => c.contractId,
    opts.concurrency,
    async ({ contractId, balancesUnknown, createdIn }): Promise<Found[]> => {
      t.counted();
      if (balancesUnknown) return [await unreadAtCreation(deps, t, contractId, createdIn)];
      const [stored, read] = await Promise.all([
        aex9Holdings(deps.pool, contractId),
        dryRun(deps, opts.topBlock, t, contractId, [{ fn: 'balances', args: [] }], (encoder, _, answer) =>
          readHoldings(encoder, answer),
        ),
      ]);
      if (isUnread(read)) return [notRead('aex9', contractId, read)];
      const [chain] = read;
      if (chain === undefined)
        return [notRead('aex9', contractId, unread('UNREADABLE', 'balances() answered no map(address, int)'))];
      return differences(capped(aex9Differences(contractId, stored, chain), `aex9 ${contractId}`, opts.shown));
    },
  );
  t.add(found);
}

/** optionalAddress reads a decoded `option(address)`: the address, or undefined for None. */
function optionalAddress(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null) return undefined;
  const values = Object.values(v)[0];
  return Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
}

/** checkAex141 compares each AEX-141 collection's stored token owners with its contract's `owner(token)`. */
async function checkAex141(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<void> {
  const found = await pages(
    (after) => aexnContractsPage(deps.pool, 'aex141', after, PAGE),
    (c: AexnContract) => c.contractId,
    opts.concurrency,
    async ({ contractId }): Promise<Found[]> => {
      t.counted();
      const stored = await aex141Owners(deps.pool, contractId);
      const tokens = [...stored.keys()];
      const chain = new Map<string, string | undefined>();
      for (let i = 0; i < tokens.length; i += OWNER_CALLS) {
        const batch = tokens.slice(i, i + OWNER_CALLS);
        const calls = batch.map((token) => ({ fn: 'owner', args: [BigInt(token)] }));
        const read = await dryRun(deps, opts.topBlock, t, contractId, calls, byTypes);
        if (isUnread(read)) return [notRead('aex141', contractId, read)];
        batch.forEach((token, j) => chain.set(token, optionalAddress(read[j])));
      }
      return differences(capped(aex141Differences(contractId, stored, chain), `aex141 ${contractId}`, opts.shown));
    },
  );
  t.add(found);
}

/** getOrNone is the node's object at `path`, undefined for its 404. */
async function getOrNone(node: NodeClient, path: string, t: Tally): Promise<{ [k: string]: Json } | undefined> {
  t.requests++;
  try {
    const body = await node.get(path);
    return isJsonObject(body) ? body : undefined;
  } catch (err) {
    if (err instanceof NodeError && err.notFound) return undefined;
    throw err;
  }
}

/** One compared entry of the node's top: its differences, and what ties it to blocks the node may add meanwhile. */
interface AtTop {
  readonly lines: readonly string[];
  /** ids a transaction touching the entry names (a name, its hash, an oracle, a channel) */
  readonly ids: readonly string[];
  /** heights at which the entry changes by itself (an expiry, an auction's end) */
  readonly heights: readonly number[];
}

/**
 * checkAtNodeTop compares names, oracles with their open queries, and channels with the node's, which it answers at
 * its top only: with the node at most MAX_AHEAD generations ahead, the entries that the blocks after the verified
 * top touch (or whose expiry falls between) are left out; returns the notes saying so.
 */
async function checkAtNodeTop(
  deps: StateCheckDeps,
  opts: StateCheckOptions,
  tally: (what: string) => Tally,
): Promise<string[]> {
  const before = await deps.node.topHeight();
  if (before - opts.top > MAX_AHEAD)
    return [
      `names, oracles and channels not compared: the node's top (${before}) is more than ${MAX_AHEAD} generations ` +
        `above the verified top (${opts.top}); it gives them at its top only`,
    ];
  const compared: { tally: Tally; entries: AtTop[] }[] = [];
  for (const [what, check] of [
    ['names', checkNames],
    ['oracles', checkOracles],
    ['channels', checkChannels],
  ] as const) {
    const t = tally(what);
    compared.push({ tally: t, entries: await check(deps, opts, t) });
  }
  const after = await deps.node.topHeight();
  const touched = await touchedAfter(deps.node, opts, after);
  const changed = (e: AtTop): boolean =>
    e.ids.some((id) => touched.has(id)) || (after > opts.top && e.heights.some((h) => h >= opts.top && h <= after));
  let left = 0;
  for (const { tally: t, entries } of compared)
    for (const e of entries) {
      if (e.lines.length > 0 && changed(e)) left++;
      else t.differences.push(...e.lines);
    }
  return left === 0
    ? []
    : [
        `${left} name(s), oracle(s) or channel(s) not compared: the node (at ${after}) changed them after the ` +
          `verified top (${opts.top})`,
      ];
}

/**
 * touchedAfter collects the ids the node's transactions after the verified top's last block name (an account's
 * `ak_` also as the oracle `ok_` it may register), up to the node's top `nodeTop`.
 */
async function touchedAfter(node: NodeClient, opts: StateCheckOptions, nodeTop: number): Promise<Set<string>> {
  const ids = new Set<string>();
  const collect = (v: Json | undefined): void => {
    if (typeof v === 'string') {
      ids.add(v);
      if (v.startsWith('ak_')) ids.add(`ok_${v.slice(3)}`);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (isJsonObject(v)) Object.values(v).forEach(collect);
  };
  for (let h = opts.top; h <= nodeTop; h++) {
    // the ids the transactions name: no call info (nor a GA transaction's outcome) needed
    const gen = await fetchGeneration(node, h, { callInfo: false });
    const stored = gen.microBlocks.findIndex((m) => m.header.hash === opts.topBlock);
    for (const m of h === opts.top ? gen.microBlocks.slice(stored + 1) : gen.microBlocks)
      for (const tx of m.transactions) collect(tx.tx);
  }
  return ids;
}

function checkNames(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<AtTop[]> {
  return pages(
    (after) => storedNamesPage(deps.pool, after, PAGE),
    (n) => n.nameHash,
    opts.concurrency,
    async (n) => {
      t.counted();
      const node = await getOrNone(deps.node, `/names/${encodeURIComponent(n.name)}`, t);
      const lines = capped(nameDifferences(n, node, opts.top), `name ${n.name}`, opts.shown);
      return [{ lines, ids: [n.name, n.nameHash], heights: [n.expiresAt ?? -1, n.auctionEnd] }];
    },
  );
}

async function checkOracles(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<AtTop[]> {
  const entries: AtTop[] = [];
  for (let after = ''; ;) {
    const oracles = await storedOraclesPage(deps.pool, after, PAGE);
    if (oracles.length === 0) return entries;
    const queries = await unansweredQueries(
      deps.pool,
      oracles.map((o) => o.oracleId),
    );
    const found = await mapLimit(oracles, opts.concurrency, async (o): Promise<AtTop> => {
      t.counted();
      const node = await getOrNone(deps.node, `/oracles/${encodeURIComponent(o.oracleId)}`, t);
      const stored = queries.get(o.oracleId) ?? [];
      const lines = oracleDifferences(o, node, opts.top);
      if (node && o.expiresAt > opts.top)
        lines.push(...queryDifferences(o.oracleId, stored, await openQueries(deps.node, o.oracleId, t), opts.top));
      return {
        lines: capped(lines, `oracle ${o.oracleId}`, opts.shown),
        ids: [o.oracleId, ...stored.map((q) => q.queryId)],
        heights: [o.expiresAt, ...stored.map((q) => q.expiresAt)],
      };
    });
    entries.push(...found);
    after = oracles.at(-1)!.oracleId;
  }
}

/** openQueries lists an oracle's open queries as the node gives them, page by page. */
async function openQueries(node: NodeClient, oracleId: string, t: Tally): Promise<{ [k: string]: Json }[]> {
  const all: { [k: string]: Json }[] = [];
  for (let from: string | undefined; ;) {
    const path =
      `/oracles/${encodeURIComponent(oracleId)}/queries?type=open&limit=${QUERY_PAGE}` +
      (from === undefined ? '' : `&from=${encodeURIComponent(from)}`);
    t.requests++;
    const body = await node.get(path);
    const page = (isJsonObject(body) && Array.isArray(body.oracle_queries) ? body.oracle_queries : []).filter(
      isJsonObject,
    );
    // `from` is the first query of the next page: the previous page's last, given again
    const fresh = from === undefined ? page : page.filter((q) => q.id !== from);
    all.push(...fresh);
    if (page.length < QUERY_PAGE || fresh.length === 0) return all;
    from = String(page.at(-1)!.id);
  }
}

/** storedChannel is what the database says of a channel, in the node's Channel fields. */
function storedChannel(c: ChannelRow): StoredChannel {
  const create = c.createTx;
  // a state not derived yet (the channels area pending) differs from the node's as none
  const state = c.state ?? NO_CHANNEL_STATE;
  const big = (v: Json | undefined): bigint => BigInt(String(v ?? 0));
  return {
    id: c.channelId,
    active: c.active,
    initiator: create.initiator_id ?? null,
    responder: create.responder_id ?? null,
    amount: big(create.initiator_amount) + big(create.responder_amount) + BigInt(c.deposited) - BigInt(c.withdrawn),
    channelReserve: big(create.channel_reserve),
    lockPeriod: create.lock_period ?? null,
    round: state.round,
    soloRound: state.soloRound,
    stateHash: state.stateHash,
    initiatorAmount: state.initiatorAmount,
    responderAmount: state.responderAmount,
  };
}

function checkChannels(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<AtTop[]> {
  return pages(
    (after) => channelIdsPage(deps.pool, after, PAGE),
    (id) => id,
    opts.concurrency,
    async (id) => {
      t.counted();
      const [row, node] = await Promise.all([
        channelById(deps.pool, id),
        getOrNone(deps.node, `/channels/${encodeURIComponent(id)}`, t),
      ]);
      return row ? [{ lines: channelDifferences(storedChannel(row), node), ids: [id], heights: [] }] : [];
    },
  );
}

/** checkBalances compares accounts' stored AE balances (all, or a sample) with the node's at the verified top. */
async function checkBalances(deps: StateCheckDeps, opts: StateCheckOptions, t: Tally): Promise<void> {
  let pruned = 0;
  let prunedPast = 0;
  const blocks = new Map<number, Promise<string | undefined>>();
  const blockAt = (height: number): Promise<string | undefined> => {
    let hash = blocks.get(height);
    if (hash === undefined)
      blocks.set(height, (hash = storedLink(deps.pool, height).then((l) => l && (l.lastMicroHash ?? l.keyHash))));
    return hash;
  };
  const nodeAt = async (account: string, block: string): Promise<bigint | undefined | typeof PRUNED> => {
    t.requests++;
    try {
      return await deps.node.accountBalance(account, block);
    } catch (err) {
      if (!(err instanceof NodeError && err.gone)) throw err;
      if (block === opts.topBlock) pruned++;
      else prunedPast++;
      return PRUNED;
    }
  };
  // each account's latest balance, and its balance after the top and PAST_HEIGHTS heights drawn at random from its
  // changes (account_balance_changes), each against the node's state there
  const check = async ({ account, balance }: StoredBalance): Promise<string[]> => {
    t.counted();
    const atTop = await nodeAt(account, opts.topBlock);
    if (atTop === PRUNED) return [];
    const lines = balanceDifference(account, balance, atTop);
    for (const height of [opts.top, ...pastHeights(account, opts.top)]) {
      const block = await blockAt(height);
      const node = block === opts.topBlock ? atTop : block === undefined ? PRUNED : await nodeAt(account, block);
      if (node === PRUNED) continue;
      const derived = await lastChangeAt(deps.pool, account, { height, microIndex: WHOLE_GENERATION });
      lines.push(...balanceDifference(`${account}@${height}`, derived?.balance ?? '0', node));
    }
    return lines;
  };
  const lines =
    opts.sample === undefined
      ? await pages(
          (after) => balancesPage(deps.pool, after, PAGE),
          (b) => b.account,
          opts.concurrency,
          check,
        )
      : (await mapLimit(await sampledBalances(deps.pool, opts.sample), opts.concurrency, check)).flat();
  t.differences.push(...lines);
  if (pruned > 0)
    t.unverifiable.push(`${pruned} account balance(s) unverifiable: every node answered 410 at ${opts.topBlock}`);
  if (prunedPast > 0)
    t.unverifiable.push(`${prunedPast} past account balance(s) unverifiable: every node answered 410 there`);
}
