/**
 * @module Verify (-v): compare stored heights with the node (key block, micro-block list,
 * transaction hashes and counts; with `full`, every stored JSON object, that each stored tx of
 * a known layout serialises to its hash, and every derived row: see compareDerived) and report each
 * difference. Over the whole chain it also re-derives the areas derived from stored rows alone (transfers,
 * statistics: verify-derived.ts) and compares them, and with `full` compares the derived state at the top with the
 * chain's own (verify-state.ts): a re-derivation shares our rules, the chain's state does not. A top generation stored
 * while open, of which the node has more now, is reported and counted apart, its stored part compared (openTop). With
 * `state` (`-v --state`) it does that last comparison only, without reading a height or re-deriving anything. It
 * writes nothing to the verified schema and always terminates.
 */
import type { Config } from '../../config/middleware.ts';
import { isJsonObject, stringifyJson, type Json } from '../../chain/json.ts';
import { signedTxBytes, txHash } from '../../chain/tx-serialize.ts';
import type { Pool, Queryable } from '../../db/connection/pool.ts';
import { storedHeightCount, storedHeightsAbove } from '../../db/queries/block-hashes.ts';
import { keyBlockAt, microBlocksBetween, topHeight } from '../../db/queries/blocks.ts';
import { storedCallInfos, type StoredCallInfo } from '../../db/queries/contract-calls.ts';
import { transactionsBetween } from '../../db/queries/transactions.ts';
import { derivedTables, rowsOnlyIn } from '../../db/queries/derived-rows.ts';
import { lowestMissing } from '../../db/queries/sync-state.ts';
import { pendingBackfills } from '../../db/queries/pending-backfills.ts';
import { isTransientDecodeError } from '../contracts/contract-decoder.ts';
import type { Logger } from '../../base/log.ts';
import { ProgressLine } from '../../base/progress-line.ts';
import type { NodeClient } from '../../node/client.ts';
import { NodeError } from '../../node/errors.ts';
import { fetchGeneration } from '../sync/fetch.ts';
import { mapLimit } from '../../base/workers.ts';
import { openOneShot } from './one-shot.ts';
import { reloadHeights } from './reload.ts';
import { emptyScratch, planScratch, scratchSchemaOf } from './verify-scratch.ts';
import { chainTransferRules } from '../derived/chain-transfer-rules.ts';
import { DERIVED_AREAS, pendingAreaTables } from '../derived/derived-areas.ts';
import { compareStoredDerivations, failedAreaLines, pendingState } from './verify-derived.ts';
import { verifyState, type StateCost } from './verify-state.ts';
import { lastBlockHashAt } from '../../db/queries/chain-state-check.ts';
import { contractReaders } from '../contracts/aexn-detector.ts';
import { classifyTopMicroBlocks } from '../sync/forks.ts';
import type { FetchedGeneration, JsonObject } from '../rows/rows.ts';

/** A height as stored: key block, then micro blocks in order with their txs in order. */
export interface StoredGeneration {
  readonly height: number;
  readonly keyBlock: JsonObject;
  readonly microBlocks: readonly {
    hash: string;
    header: JsonObject;
    txs: readonly { hash: string; tx: JsonObject; signatures: string[] | null }[];
  }[];
}

/** canonical is JSON with sorted keys, so objects compare by content whatever their key order. */
export function canonical(value: Json | undefined): string {
  const sort = (v: Json | undefined): Json | undefined =>
    Array.isArray(v)
      ? v.map((x) => sort(x) as Json)
      : isJsonObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort(v[k]) as Json]),
          )
        : v;
  return stringifyJson(sort(value)) ?? 'undefined';
}

/** compareGeneration lists the differences between a stored height and the node's. Pure. */
export function compareGeneration(db: StoredGeneration, node: FetchedGeneration, full: boolean): string[] {
  const h = `height ${db.height}`;
  const out: string[] = [];
  if (db.keyBlock.hash !== node.keyBlock.hash)
    out.push(`${h}: key block hash differs: db ${String(db.keyBlock.hash)} node ${String(node.keyBlock.hash)}`);
  else if (full && canonical(db.keyBlock) !== canonical(node.keyBlock))
    out.push(`${h}: key block ${String(db.keyBlock.hash)} content differs`);
  const dbMicro = db.microBlocks.map((m) => m.hash);
  const nodeMicro = node.microBlocks.map((m) => String(m.header.hash));
  if (dbMicro.length !== nodeMicro.length)
    out.push(`${h}: micro block count differs: db ${dbMicro.length} node ${nodeMicro.length}`);
  for (let i = 0; i < Math.max(dbMicro.length, nodeMicro.length); i++) {
    const dm = db.microBlocks[i];
    const nm = node.microBlocks[i];
    if (!dm || !nm) {
      out.push(`${h}: micro block ${i} only in the ${dm ? 'database' : 'node'}: ${dm?.hash ?? nodeMicro[i]}`);
      continue;
    }
    if (dm.hash !== nodeMicro[i]) {
      out.push(`${h}: micro block ${i} hash differs: db ${dm.hash} node ${nodeMicro[i]}`);
      continue;
    }
    if (full && canonical(dm.header) !== canonical(nm.header)) out.push(`${h}: micro block ${dm.hash} header differs`);
    const dbTx = dm.txs.map((t) => t.hash);
    const nodeTx = nm.transactions.map((t) => String(t.hash));
    if (dbTx.length !== nodeTx.length)
      out.push(`${h}: micro block ${dm.hash} transaction count differs: db ${dbTx.length} node ${nodeTx.length}`);
    for (let j = 0; j < Math.max(dbTx.length, nodeTx.length); j++) {
      if (dbTx[j] !== nodeTx[j]) {
        out.push(
          `${h}: micro block ${dm.hash} transaction ${j} differs: db ${dbTx[j] ?? '(none)'} node ${nodeTx[j] ?? '(none)'}`,
        );
      } else if (full) {
        const nt = nm.transactions[j]!;
        const dt = dm.txs[j]!;
        const nodeSigs = Array.isArray(nt.signatures) ? nt.signatures.map(String) : null;
        if (canonical(dt.tx) !== canonical(nt.tx)) out.push(`${h}: transaction ${dt.hash} content differs`);
        else if (canonical(dt.signatures) === canonical(nodeSigs)) {
          // stored and node agree: the content must still hash to the hash both give it
          const rehashed = serialisedHash(dt.tx, dt.signatures);
          if (rehashed !== undefined && rehashed !== dt.hash)
            out.push(`${h}: transaction ${dt.hash} serialises to ${rehashed}`);
        }
        if (canonical(dt.signatures) !== canonical(nodeSigs))
          out.push(`${h}: transaction ${dt.hash} signatures differ`);
      }
    }
  }
  return out;
}

/** What verify found at one height: differences, and what it could not check (the node pruned that state). */
export interface HeightReport {
  readonly differences: string[];
  readonly unverifiable: string[];
  /** the stored top generation, stored while open, of which the node has more now (not a difference) */
  readonly open?: OpenTop;
}

/** A top generation stored while open: its height, its micro blocks stored, and the node's now. */
export interface OpenTop {
  readonly height: number;
  readonly stored: number;
  readonly node: number;
}

/**
 * openTop tells whether stored generation `db`, the stored top, was stored while open and the node has more of it now:
 * the node's key block is the stored one and the stored micro blocks are the first of the node's (issue 79: a populator
 * stopped after storing a key block or part of a generation, the node adding micro blocks after). The populator adds
 * the rest when it runs (the top grew, or the next key block's link leads it to reload the generation), so it is
 * reported apart from the differences; the stored part is compared with the node's first micro blocks. Pure.
 */
export function openTop(db: StoredGeneration, node: FetchedGeneration): OpenTop | undefined {
  if (db.keyBlock.hash !== node.keyBlock.hash) return undefined;
  const nodeMicro = node.microBlocks.map((m) => String(m.header.hash));
  if (
    classifyTopMicroBlocks(
      db.microBlocks.map((m) => m.hash),
      nodeMicro,
    ) !== 'grew'
  )
    return undefined;
  return { height: db.height, stored: db.microBlocks.length, node: nodeMicro.length };
}

/** openTopLine is how verify reports a top generation stored while open. Pure. */
export function openTopLine({ height, stored, node }: OpenTop): string {
  return (
    `height ${height}: the top generation was stored while open: the node has ${node - stored} more micro block(s) ` +
    `of it now (${node} against ${stored} stored), which the populator adds when it runs; not a difference`
  );
}

/**
 * compareCallInfos checks the stored call info of a height's contract calls. A call stored without it (every node
 * had garbage-collected it) cannot be checked: unverifiable, not a difference; so is one the node has pruned since.
 * With the node's `callInfos` (a full verify), the ones both hold must be equal, and one stored as pruned that the
 * node now holds is a difference a reload (-H) repairs. Pure.
 */
export function compareCallInfos(
  height: number,
  stored: readonly StoredCallInfo[],
  node: Pick<FetchedGeneration, 'callInfos' | 'prunedCallInfos'> | undefined,
): HeightReport {
  const h = `height ${height}`;
  const differences: string[] = [];
  const gone = stored.filter((c) =>
    node ? node.prunedCallInfos?.has(c.txHash) || (c.pruned && !node.callInfos.has(c.txHash)) : c.pruned,
  );
  for (const c of node ? stored : []) {
    const theirs = node!.callInfos.get(c.txHash);
    if (theirs === undefined) continue;
    if (c.pruned)
      differences.push(`${h}: call info of ${c.txHash} was stored without (pruned node); the node has it now`);
    else if (canonical(c.callInfo) !== canonical(theirs)) differences.push(`${h}: call info of ${c.txHash} differs`);
  }
  const unverifiable =
    gone.length === 0
      ? []
      : [
          `${h}: unverifiable: the call info of ${gone.length} contract call(s) was garbage-collected ` +
            `(first ${gone[0]!.txHash})`,
        ];
  return { differences, unverifiable };
}

/**
 * undecodedCalls lists the calls of a height stored undecoded for now (their contract's code or the compiler was not at
 * hand): a load now decodes them, so each is a difference, which the populator's call area repairs once it can
 * (`deferred`: the height waits in derive_backfill) and a reload (-H) of the height does too. Pure.
 */
export function undecodedCalls(height: number, stored: readonly StoredCallInfo[], deferred: boolean): string[] {
  const repair = deferred ? 'the populator decodes it again once it can' : `mdw -H ${height} decodes it again`;
  return stored
    .filter((c) => isTransientDecodeError(c.decodeError))
    .map((c) => `height ${height}: contract call ${c.txHash} stored undecoded (${c.decodeError}): ${repair}`);
}

/** serialisedHash is the th_ of a stored tx re-serialised; undefined for a layout the serialiser does not know. */
function serialisedHash(tx: JsonObject, signatures: string[] | null): string | undefined {
  try {
    return txHash(signedTxBytes({ tx, signatures }));
  } catch {
    return undefined;
  }
}

/** loadStored reads one stored height (undefined when it is not stored). */
export async function loadStored(db: Queryable, height: number): Promise<StoredGeneration | undefined> {
  const kb = await keyBlockAt(db, height);
  if (kb === undefined) return undefined;
  const mbs = await microBlocksBetween(db, height, height);
  const txs = await transactionsBetween(db, height, height);
  return {
    height,
    keyBlock: kb.data as JsonObject,
    microBlocks: mbs.map((m) => ({
      hash: m.hash,
      header: m.header as JsonObject,
      txs: txs
        .filter((t) => t.microBlockHash === m.hash)
        .map((t) => ({ hash: t.hash, tx: t.tx as JsonObject, signatures: t.signatures })),
    })),
  };
}

/** What verify found: heights checked, differences, what it could not check, and what the state check cost. */
export interface VerifyReport {
  readonly checked: number;
  readonly differences: number;
  readonly unverifiable: number;
  /** the stored top generation when it was stored while open and the node has more of it now (counted apart) */
  readonly openTop?: OpenTop;
  /** with `full` over the whole chain, or `state`: each kind of entry compared with the chain's state, and its cost */
  readonly state: readonly StateCost[];
  /** the verified top whose state was compared with the chain's; undefined when none was */
  readonly stateAt?: number;
}

/** What verifyChain is asked: see there. */
export interface VerifyOptions {
  readonly heights?: readonly number[];
  readonly full?: boolean;
  readonly state?: boolean;
  readonly sample?: number;
  readonly accountsOnly?: boolean;
}

type VerifyDeps = { cfg: Config; log: Logger; out: (line: string) => void };

/**
 * verifyChain checks the listed heights (default: every stored height) and prints one line per difference, and
 * one per height it cannot check because the state is garbage-collected (counted apart: not a difference).
 * `state`: only compare the derived state at the stored top with the chain's (no height read, nothing re-derived;
 * not with `heights`). `sample`: with `full` or `state`, how many accounts' AE balances are compared with the node's
 * (all when undefined). `accountsOnly`: with `state`, those balances only (a snapshot's import).
 */
export async function verifyChain(deps: VerifyDeps, opts: VerifyOptions): Promise<VerifyReport> {
  const { pool, node } = await openOneShot(deps.cfg, deps.log, { applicationName: 'mdw-verify', writes: false });
  try {
    return await new Verification(deps, pool, node, opts).run();
  } finally {
    await pool.end();
  }
}

/** One verify's run: it owns its counts (what it checked and found) and writes each line as it finds it. */
class Verification {
  readonly #cfg: Config;
  readonly #log: Logger;
  readonly #out: (line: string) => void;
  readonly #pool: Pool;
  readonly #node: NodeClient;
  readonly #opts: VerifyOptions;
  #checked = 0;
  #differences = 0;
  #unverifiable = 0;
  #state: readonly StateCost[] = [];
  #stateAt: number | undefined;
  #open: OpenTop | undefined;

  constructor(deps: VerifyDeps, pool: Pool, node: NodeClient, opts: VerifyOptions) {
    this.#cfg = deps.cfg;
    this.#log = deps.log;
    this.#out = deps.out;
    this.#pool = pool;
    this.#node = node;
    this.#opts = opts;
  }

  async run(): Promise<VerifyReport> {
    if (this.#opts.state) return this.#stateOnly();
    const after = await this.#compareHeights();
    const listed = this.#opts.heights;
    // the areas derived from stored rows alone (transfers, statistics) are re-derived from them, for the whole chain
    if (!listed && this.#checked > 0) await this.#compareStoredDerivations(after);
    if (this.#opts.full && this.#checked > 0) {
      const top = listed ? listed.reduce((a, b) => Math.max(a, b)) : after;
      await this.#compareDerived(top);
      // the state at the top of the whole chain: not the state at a listed height's
      if (!listed) this.#stateAt = await this.#stateAtTop(top);
    }
    // an area whose derivation fails is a difference, not work in progress (issue 39)
    if (this.#checked > 0)
      this.#report({ differences: failedAreaLines(await pendingBackfills(this.#pool)), unverifiable: [] });
    return this.#result(this.#checked);
  }

  /** #result is the report of what was compared: `checked` heights, and the counts and state found */
  #result(checked: number): VerifyReport {
    return {
      checked,
      differences: this.#differences,
      unverifiable: this.#unverifiable,
      state: this.#state,
      stateAt: this.#stateAt,
      ...(this.#open ? { openTop: this.#open } : {}),
    };
  }

  #report(found: HeightReport): void {
    this.#differences += found.differences.length;
    this.#unverifiable += found.unverifiable.length;
    this.#open ??= found.open;
    for (const line of [...found.differences, ...found.unverifiable]) this.#out(line);
    if (found.open) this.#out(openTopLine(found.open));
  }

  /** #stateOnly compares only the state at the stored top with the chain's (`state`), and the failed areas. */
  async #stateOnly(): Promise<VerifyReport> {
    if (this.#opts.heights) throw new Error('the state is compared at the stored top, not at listed heights');
    const top = await topHeight(this.#pool);
    if (top !== undefined) this.#stateAt = await this.#stateAtTop(top);
    if (top !== undefined && this.#stateAt === undefined)
      this.#out(`state not compared: heights 0-${top} are not all stored (names and oracles derive from each)`);
    this.#report({ differences: failedAreaLines(await pendingBackfills(this.#pool)), unverifiable: [] });
    return this.#result(0);
  }

  /** #stateAtTop compares the state at `top` with the chain's when every height up to it is stored; its top or none */
  async #stateAtTop(top: number): Promise<number | undefined> {
    if ((await lowestMissing(this.#pool)) <= top) return undefined;
    const deps = { cfg: this.#cfg, log: this.#log, pool: this.#pool, node: this.#node };
    const found = await compareState(deps, top, this.#opts.sample, this.#opts.accountsOnly ?? false);
    this.#report(found);
    for (const line of found.notes) this.#out(line);
    this.#state = found.costs;
    return top;
  }

  /** #compareHeights compares each height asked (default: each stored) with the node's; the last one compared. */
  async #compareHeights(): Promise<number> {
    const listed = this.#opts.heights;
    const progress = new ProgressLine({
      log: this.#log,
      message: 'verify: heights compared with the node',
      total: listed?.length ?? (await storedHeightCount(this.#pool)),
      intervalMs: this.#cfg.progressLogMs,
    });
    const check = await this.#heightCheck();
    // chunks keep memory flat on a long chain; keyset over stored heights when none are listed
    let after = -1;
    for (;;) {
      const chunk = listed
        ? listed.slice(this.#checked, this.#checked + 200)
        : await storedHeightsAbove(this.#pool, after, 200);
      if (chunk.length === 0) return after;
      const checkCounted = async (height: number): Promise<HeightReport> => {
        const found = await check(height);
        progress.advance(1);
        return found;
      };
      for (const found of await mapLimit(chunk, this.#cfg.fetchConcurrency, checkCounted)) this.#report(found);
      this.#checked += chunk.length;
      after = chunk.at(-1)!;
    }
  }

  /** #heightCheck is the comparison of one height with the node's, knowing what it needs once for all heights. */
  async #heightCheck(): Promise<(height: number) => Promise<HeightReport>> {
    const pool = this.#pool;
    const full = this.#opts.full ?? false;
    const callArea = (await pendingBackfills(pool)).find((p) => p.area === 'calls');
    // the only height that may have been stored while open (a populator runs again from there)
    const storedTop = await topHeight(pool);
    return async (height) => {
      const stored = await loadStored(pool, height);
      if (!stored) return { differences: [`height ${height}: not in the database`], unverifiable: [] };
      try {
        const calls = await storedCallInfos(pool, height);
        // a full verify asks for the call info too; a 410 from every node is noted, not thrown
        const fetched = await fetchGeneration(this.#node, height, { callInfo: full && calls.length > 0 });
        const callReport = compareCallInfos(height, calls, full ? fetched : undefined);
        const deferred = callArea !== undefined && height >= callArea.next && height <= callArea.to;
        const grown = height === storedTop ? openTop(stored, fetched) : undefined;
        // of a generation stored while open, the part stored is compared with the node's
        const asStored = grown ? { ...fetched, microBlocks: fetched.microBlocks.slice(0, grown.stored) } : fetched;
        return {
          differences: [
            ...compareGeneration(stored, asStored, full),
            ...callReport.differences,
            ...undecodedCalls(height, calls, deferred),
          ],
          unverifiable: callReport.unverifiable,
          ...(grown ? { open: grown } : {}),
        };
      } catch (err) {
        if (err instanceof NodeError && err.notFound)
          return { differences: [`height ${height}: the node has no generation there`], unverifiable: [] };
        throw err;
      }
    };
  }

  /** #compareStoredDerivations re-derives the areas derived from stored rows alone, when heights 0-`after` are stored */
  async #compareStoredDerivations(after: number): Promise<void> {
    const cfg = this.#cfg;
    const log = this.#log;
    if ((await lowestMissing(this.#pool)) <= after) {
      this.#out(`derived areas not compared: heights 0-${after} are not all stored (each derives from those below)`);
      return;
    }
    const derived = await compareStoredDerivations(
      this.#pool,
      cfg.databaseSchema,
      await chainTransferRules(cfg, this.#pool, log),
      { shown: ROWS_SHOWN, progress: { log, intervalMs: cfg.progressLogMs } },
    );
    this.#report({ differences: derived.differences, unverifiable: [] });
    if (derived.skipped) this.#out(derived.skipped);
  }

  /** #compareDerived compares the derived rows up to `top` with a re-derivation, when heights 0-`top` are stored */
  async #compareDerived(top: number): Promise<void> {
    // a sparse database derives name and oracle state from the heights it holds: nothing to compare it with
    if ((await lowestMissing(this.#pool)) <= top) {
      this.#out(`derived rows not compared: heights 0-${top} are not all stored (names and oracles derive from each)`);
      return;
    }
    const deps = { cfg: this.#cfg, log: this.#log, pool: this.#pool };
    const derived = await compareDerived(deps, this.#opts.heights, top, this.#open);
    this.#report({ differences: derived.differences, unverifiable: [] });
    for (const line of derived.skipped) this.#out(line);
  }
}

/** compareState compares the derived state at the stored top `top` with the chain's (verify-state.ts). */
async function compareState(
  deps: { cfg: Config; log: Logger; pool: Queryable; node: NodeClient },
  top: number,
  sample: number | undefined,
  accountsOnly: boolean,
): ReturnType<typeof verifyState> {
  const { cfg, log, pool, node } = deps;
  const topBlock = await lastBlockHashAt(pool, top);
  if (topBlock === undefined) throw new Error(`height ${top} is stored without its key block`);
  log.info({ top, topBlock, sample }, 'verify: comparing the derived state with the chain');
  return verifyState(
    {
      pool,
      node,
      decoder: contractReaders(cfg, pool, node).decoder,
      progress: { log, intervalMs: cfg.progressLogMs },
    },
    {
      top,
      topBlock,
      sample,
      concurrency: cfg.fetchConcurrency,
      shown: ROWS_SHOWN,
      pending: new Set((await pendingBackfills(pool)).map((p) => p.area)),
      accountsOnly,
    },
  );
}

/** Differing rows printed per table and direction; the count covers them all. */
const ROWS_SHOWN = 5;

/**
 * compareDerived re-derives every derived row (account index, fees, sizes, names, oracles, channels, contracts and
 * their calls, and any table added later) from the node: it loads heights 0 to `top` into a scratch schema as a
 * sync from scratch would, and compares each table row by row with the verified schema, over the verified heights
 * (state tables, such as name_state and the latest token balances, only when every stored height is verified). The tables of an
 * area the populator is still deriving (derive_backfill) lack rows the scratch load has: they are skipped, one line
 * per area says so. The scratch schema is emptied once compared (unless another run is loading it), left migrated for
 * the next run to load without migrating a new one; a run stopped before leaves it full for the next to go on from
 * (verify-scratch.ts). A top generation stored while open (`open`) is loaded as far as it was stored.
 */
async function compareDerived(
  deps: { cfg: Config; log: Logger; pool: Pool },
  heights: readonly number[] | undefined,
  top: number,
  open: OpenTop | undefined,
): Promise<{ differences: string[]; skipped: string[] }> {
  const { cfg, log, pool } = deps;
  const pending = await pendingBackfills(pool);
  const unfinished = pendingAreaTables(pending);
  const skipped = pending.map(
    (p) =>
      `derived rows of the ${p.area} area not compared: ${pendingState(p)} ` +
      `(${(DERIVED_AREAS.get(p.area)?.tables ?? []).join(', ')})`,
  );
  const scratch = scratchSchemaOf(cfg.databaseSchema);
  const schemas = { db: cfg.databaseSchema, node: scratch };
  const plan = await planScratch(pool, cfg.databaseUrl, scratch, top);
  log.info(
    { scratch, heights: top + 1, ...(plan.heldThrough === undefined ? {} : { goingOnAfter: plan.heldThrough }) },
    plan.heldThrough === undefined
      ? 'verify --full: re-deriving every row from the node'
      : 'verify --full: re-deriving every row from the node, going on from the scratch schema an earlier run left',
  );
  let compared = false;
  try {
    const upTo = open && open.height === top ? new Map([[top, open.stored]]) : undefined;
    // a scratch an earlier run left holding the top: the top loaded again, as stored now (its micro blocks may have
    // been more or fewer then)
    const lists = (plan.heldThrough ?? -1) >= top ? [...plan.lists, [top]] : plan.lists;
    for (const list of lists)
      await reloadHeights({ cfg: { ...cfg, databaseSchema: scratch }, log: log.child({ scratch }) }, list, { upTo });
    const out: string[] = [];
    const tables = (await derivedTables(pool, cfg.databaseSchema)).filter(
      (table) => (table.byHeight || heights === undefined) && !unfinished.has(table.name),
    );
    const progress = new ProgressLine({
      log,
      message: 'verify --full: derived tables compared with the re-derived ones',
      total: tables.length,
      intervalMs: cfg.progressLogMs,
    });
    for (const table of tables) {
      for (const [from, other, where] of [
        [schemas.db, schemas.node, 'only in the database'],
        [schemas.node, schemas.db, 'only re-derived from the node'],
      ] as const) {
        const only = await rowsOnlyIn(pool, table, { from, other, heightsOf: schemas.db }, heights, ROWS_SHOWN);
        for (const row of only.rows) out.push(`derived ${table.name}: row ${where}: ${row}`);
        if (only.total > only.rows.length)
          out.push(`derived ${table.name}: ${only.total - only.rows.length} more row(s) ${where}`);
      }
      progress.advance(1, { table: table.name });
    }
    compared = true;
    return { differences: out, skipped };
  } finally {
    if (compared) await emptyScratch(pool, cfg.databaseUrl, scratch);
  }
}
