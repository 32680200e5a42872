/**
 * @module AEX-N detection of a batch, before its database transaction: contracts created by transactions
 * and, since the node does not list them, contracts created inside calls, found when one first emits an
 * event or is called; their code is fetched once (the contract decoder's cache and lookups), detected
 * (aexn-detect.ts), and their meta info and AEX-9 holders read by a dry-run at the creation block. Also which
 * emitters of `PairCreated` events are DEX factories by their code (their pairs are the ones /v3/dex lists).
 */
import { LRUCache } from 'lru-cache';
import { countedCache } from '../../base/counted-cache.ts';
import { isJsonObject } from '../../chain/json.ts';
import { createdIds } from '../../chain/tx-fields.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { contractsCreatedAt, type CreatedAt } from '../../db/writes/aexn.ts';
import { ErrorCode } from '../../base/errors.ts';
import { NodeError } from '../../node/errors.ts';
import { detectAexn, detectDexFactory, type AexnDetection } from './aexn-detect.ts';
import { readHoldings } from './aex9-holdings.ts';
import { callEvents } from '../rows/call-events.ts';
import { PAIR_CREATED } from './dex-events.ts';
import { fateCall, OVER_TIME_LIMIT, PRUNED, REFUSED, type DryRunResult } from '../../node/dry-run.ts';
import type { AexnCallCreatedRow, AexnContractRow, Aex9SeedRow } from '../../db/writes/token-rows.ts';
import { ContractDecoder, contractTx } from './contract-decoder.ts';
import type { Config } from '../../config/middleware.ts';
import type { NodeClient } from '../../node/client.ts';
import type { OutboundMetrics } from '../../node/outbound-metrics.ts';
import type { AexnFindings, FetchedGeneration, TxPosition } from '../rows/rows.ts';
import { mapLimit } from '../../base/workers.ts';

export interface AexnDetectorOptions {
  /**
   * asks the dry-runs: in a slot of the populator's node set, urgent (the batch waits for them), retried as its
   * other requests, so that one 503 does not redo the batch
   */
  readonly node: Pick<NodeClient, 'dryRun'>;
  /** finds contract code (cached) and keeps the FATE encoders */
  readonly decoder: ContractDecoder;
  readonly db: Queryable;
  /** contracts counted as wrapped AE whatever their code says (Config.dex.wrappedAe: an override, not a requirement) */
  readonly wrappedAe: readonly string[];
}

/** Contracts whose creation place is remembered (a busy chain calls a few thousand contracts). */
const KNOWN_CONTRACTS = 100_000;
/** Contracts whose being a DEX factory or not is remembered (few contracts emit `PairCreated`) */
const KNOWN_FACTORIES = 10_000;
/** Characters of bytecode whose detection is remembered: the same code is deployed again and again (tokens, pairs). */
const DETECTED_CODE_CHARS = 8_000_000;

const before = (a: CreatedAt, b: CreatedAt): boolean =>
  a.height < b.height || (a.height === b.height && a.microIndex < b.microIndex);

/** A contract tx of the batch with what detection needs: its place, its block and the contracts it touches. */
interface ContractTxAt extends TxPosition {
  readonly blockHash: string;
  /** the contract it creates (a successful ContractCreateTx), with its code */
  readonly creates?: { readonly id: string; readonly code: string };
  /** the contract it calls and the contracts that emitted its events */
  readonly touches: readonly string[];
}

function contractTxs(gen: FetchedGeneration): ContractTxAt[] {
  const found: ContractTxAt[] = [];
  gen.microBlocks.forEach((mb, i) => {
    const microIndex = (gen.continuesAt ?? 0) + i;
    mb.transactions.forEach((signed, txIndex) => {
      const txHash = String(signed.hash);
      const tx = isJsonObject(signed.tx) ? contractTx(signed.tx, gen.gaInfos?.get(txHash)) : undefined;
      if (!tx) return;
      const info = gen.callInfos.get(txHash);
      const touches: string[] = tx.type === 'ContractCallTx' ? [String(tx.contract_id)] : [];
      for (const entry of Array.isArray(info?.log) ? info.log : [])
        if (isJsonObject(entry) && typeof entry.address === 'string') touches.push(entry.address);
      const id = tx.type === 'ContractCreateTx' ? createdIds(tx).contract_id : undefined;
      // without call info (pruned) the creation is taken as done: the node stored the contract's code
      const created =
        id !== undefined && typeof tx.code === 'string' && (info === undefined || info.return_type === 'ok');
      found.push({
        height: gen.height,
        microIndex,
        txIndex,
        txHash,
        blockHash: String(mb.header.hash),
        creates: created ? { id, code: String(tx.code) } : undefined,
        touches: [...new Set(touches)],
      });
    });
  });
  return found;
}

/** pairAnnouncers are the contracts that emitted a `PairCreated` event in a generation (DEX factories, if their code says so). */
const pairAnnouncers = (gen: FetchedGeneration): string[] => [
  ...new Set(
    [...gen.callInfos.values()].flatMap((info) =>
      callEvents(info).flatMap((e) => (e.topics[0] === PAIR_CREATED ? [e.address] : [])),
    ),
  ),
];

/** A contract first seen in the batch: created by a transaction (with its code) or inside a call. */
interface Step {
  readonly id: string;
  readonly code?: string;
  readonly at: TxPosition;
  readonly blockHash: string;
}

/** What a Step found: the contract's AEX-N type (null: none) and, for an AEX-N one, its rows. */
interface Found {
  readonly type: AexnCallCreatedRow['aexnType'];
  readonly contract: AexnContractRow | undefined;
  readonly seeds: readonly Aex9SeedRow[];
}

/**
 * NODE_REQUESTS: code look-ups and dry-runs of one batch in flight at once. Enough to ask a batch's few dozen new
 * contracts in one or two round trips; few against the node's slots, which the fetch-ahead fills.
 */
const NODE_REQUESTS = 16;

/**
 * CodeUnknown: no node sent the code of a contract a batch creates inside a call or calls before its creation is
 * stored. The batch is loaded without its token area, which the backfill derives once a node gives the code.
 */
export class CodeUnknown extends NodeError {
  constructor(id: string) {
    super(ErrorCode.NODE_BAD_RESPONSE, `no node sent the code of ${id}`, {
      path: `/contracts/${id}/code`,
      transient: true,
    });
  }
}

/** refusedAt: the node runs dry-runs but does not know the block, which left the chain (a fork the next step finds). */
const refusedAt = (blockHash: string): NodeError =>
  new NodeError(ErrorCode.NODE_BAD_RESPONSE, `the node refused a dry-run at block ${blockHash}`, {
    path: '/dry-run',
    transient: true,
  });

/** AexnDetector finds the AEX-N contracts of each batch the populator prepares. */
export class AexnDetector {
  readonly #opts: AexnDetectorOptions;
  readonly #wrappedAe: ReadonlySet<string>;
  /**
   * Where known contracts were created: stored ones, and those of batches prepared before (perhaps not yet
   * committed). Only places before a batch's first block count for it, so nothing needs forgetting: a batch
   * prepared again after a fork or for a reload (its heights and all above them are replaced) finds its own
   * contracts anew, and a batch prepared but never written lies above every batch prepared after it.
   */
  readonly #created = countedCache<string, CreatedAt>(KNOWN_CONTRACTS);
  /** detectAexn's answer per bytecode (decoding the code's functions is the detection's cost) */
  readonly #detected = new LRUCache<string, { readonly detection: AexnDetection | undefined }>({
    maxSize: DETECTED_CODE_CHARS,
    sizeCalculation: (_, code) => code.length,
  });
  /** whether an emitter of `PairCreated` is a DEX factory by its code (a contract's code never changes) */
  readonly #factories = countedCache<string, { readonly factory: boolean }>(KNOWN_FACTORIES);

  constructor(opts: AexnDetectorOptions) {
    this.#opts = opts;
    this.#wrappedAe = new Set(opts.wrappedAe);
  }

  /** detect adds the AEX-N findings to each generation of a batch (ascending); `batchCodes` are its created contracts' code. */
  async detect(
    gens: readonly FetchedGeneration[],
    batchCodes: ReadonlyMap<string, string> = new Map(),
  ): Promise<FetchedGeneration[]> {
    if (gens.length === 0) return [];
    const start: CreatedAt = { height: gens[0]!.height, microIndex: gens[0]!.continuesAt ?? 0 };
    const txs = gens.map(contractTxs);
    const known = await this.#knownBefore(
      start,
      txs.flat().flatMap((t) => t.touches),
    );
    // walk the batch in order deciding what each contract needs (the first place a contract is seen is its
    // creation), then ask the node for all of it at once: asked one after another, each code look-up and dry-run
    // waited its turn behind the fetch-ahead's requests at the nodes, and the batch's write waited for them all
    const steps = txs.map((genTxs) =>
      genTxs.flatMap((t): Step[] => {
        const { blockHash, creates, touches, ...at } = t;
        const place = { height: at.height, microIndex: at.microIndex };
        const found: Step[] = [];
        if (creates) {
          known.add(creates.id);
          this.#created.set(creates.id, place);
          found.push({ id: creates.id, code: creates.code, at, blockHash });
        }
        for (const id of touches) {
          if (known.has(id)) continue;
          known.add(id);
          this.#created.set(id, place);
          found.push({ id, at, blockHash });
        }
        return found;
      }),
    );
    const found = await mapLimit(steps.flat(), NODE_REQUESTS, (step) => this.#find(step, batchCodes));
    const announcers = gens.map(pairAnnouncers);
    const emitters = [...new Set(announcers.flat())];
    const factories = new Set(
      (await mapLimit(emitters, NODE_REQUESTS, (id) => this.#isFactory(id, batchCodes))).flatMap((f, i) =>
        f ? [emitters[i]!] : [],
      ),
    );
    let next = 0;
    return gens.map((gen, i) => {
      const contracts: AexnContractRow[] = [];
      const callCreated: AexnCallCreatedRow[] = [];
      const seeds: Aex9SeedRow[] = [];
      for (const step of steps[i]!) {
        const f = found[next++]!;
        if (step.code === undefined) callCreated.push({ ...step.at, contractId: step.id, aexnType: f.type });
        if (f.contract) contracts.push(f.contract);
        seeds.push(...f.seeds);
      }
      const dexFactories = announcers[i]!.filter((id) => factories.has(id));
      return { ...gen, aexn: { contracts, callCreated, seeds, dexFactories } satisfies AexnFindings };
    });
  }

  /** #find reads a step's contract: its code (unless created by a transaction), its type and, for AEX-N, its rows. */
  async #find(step: Step, batchCodes: ReadonlyMap<string, string>): Promise<Found> {
    const code = step.code ?? (await this.#opts.decoder.code(step.id, batchCodes));
    if (code === undefined) throw new CodeUnknown(step.id);
    const detected = this.#detect(code);
    if (!detected) return { type: null, contract: undefined, seeds: [] };
    return { type: detected.type, ...(await this.#describe(step, code, detected)) };
  }

  /** #isFactory says whether a contract's code is a DEX factory's (its code asked once). */
  async #isFactory(id: string, batchCodes: ReadonlyMap<string, string>): Promise<boolean> {
    const known = this.#factories.get(id);
    if (known) return known.factory;
    const code = await this.#opts.decoder.code(id, batchCodes);
    if (code === undefined) throw new CodeUnknown(id);
    const factory = detectDexFactory(code);
    this.#factories.set(id, { factory });
    return factory;
  }

  #detect(code: string): AexnDetection | undefined {
    const known = this.#detected.get(code);
    if (known) return known.detection;
    const detection = detectAexn(code);
    this.#detected.set(code, { detection });
    return detection;
  }

  /**
   * aex9Balances reads an AEX-9 token's `balances()` in the state after block `blockHash`: undefined when the node
   * keeps no state there (pruned), gives the call up at its time limit round after round (OVER_TIME_LIMIT: as many
   * holders as a node cannot walk in its time) or the call does not answer a map; a block the node does not know fails
   * (a fork).
   */
  async aex9Balances(id: string, blockHash: string): Promise<ReadonlyMap<string, bigint> | undefined> {
    const code = await this.#opts.decoder.code(id, new Map());
    if (code === undefined) throw new CodeUnknown(id);
    const encoder = this.#opts.decoder.encoder(code);
    const results = await this.#opts.node.dryRun(blockHash, [fateCall(id, encoder.encodeCall('balances', []))]);
    if (results === REFUSED) throw refusedAt(blockHash);
    const result = results === PRUNED || results === OVER_TIME_LIMIT ? undefined : results[0];
    const holders = result?.ok ? readHoldings(encoder, result.value) : undefined;
    return holders && new Map([...holders].filter(([, amount]) => amount > 0n));
  }

  /** #knownBefore is the set of `ids` created before `start` (remembered, else stored). */
  async #knownBefore(start: CreatedAt, ids: readonly string[]): Promise<Set<string>> {
    const known = new Set<string>();
    const ask: string[] = [];
    for (const id of new Set(ids)) {
      const at = this.#created.get(id);
      if (at !== undefined && before(at, start)) known.add(id);
      else ask.push(id);
    }
    for (const [id, at] of await contractsCreatedAt(this.#opts.db, ask)) {
      if (!before(at, start)) continue;
      known.add(id);
      this.#created.set(id, at);
    }
    return known;
  }

  /**
   * #describe reads a detected contract's meta info (and AEX-9 holders) at its creation block (the step's) into its
   * rows; a step without code is a contract created by a call.
   */
  async #describe(step: Step, code: string, detected: AexnDetection): Promise<Omit<Found, 'type'>> {
    const { id, at, blockHash } = step;
    const encoder = this.#opts.decoder.encoder(code);
    const extensionsFn = `${detected.type}_extensions`;
    const functions = ['meta_info', ...(detected.type === 'aex9' ? ['balances'] : [])];
    if (detected.extensions === undefined) functions.push(extensionsFn);
    // in the node set's slots: each takes the first slot free at a healthy node, before the fetch-ahead's requests
    const ask = (top: string | undefined, names: readonly string[]): ReturnType<NodeClient['dryRun']> =>
      this.#opts.node.dryRun(
        top,
        names.map((fn) => fateCall(id, encoder.encodeCall(fn, []))),
      );
    let asked = functions;
    let results = await ask(blockHash, asked);
    if (results === OVER_TIME_LIMIT) {
      // the node gives the request up at its time limit, round after round: its `balances()` (a walk of every holder)
      // is too heavy for it; the meta info is read at the creation block without, the balances stay unknown
      asked = functions.filter((fn) => fn !== 'balances');
      results = await ask(blockHash, asked);
    }
    if (results === PRUNED || results === REFUSED) {
      // no state at the creation block: the meta info (which tokens do not change) is read at the top, and the
      // balances at creation stay unknown (the token's balances are marked incomplete)
      const refused = results === REFUSED;
      asked = functions.filter((fn) => fn !== 'balances');
      results = await ask(undefined, asked);
      // the node runs dry-runs but does not know the block: it left the chain (a fork the next step finds)
      if (refused && Array.isArray(results)) throw refusedAt(blockHash);
    }
    const answer = (fn: string): string | undefined => {
      const r: DryRunResult | undefined = Array.isArray(results) ? results[asked.indexOf(fn)] : undefined;
      return r?.ok ? r.value : undefined;
    };
    const value = (fn: string): unknown => {
      const a = answer(fn);
      if (a === undefined) return undefined;
      try {
        return encoder.decodeResult(fn, a, 'ok');
      } catch {
        return undefined;
      }
    };
    const extensions = detected.extensions ?? stringList(value(extensionsFn)) ?? [];
    const meta = readMeta(detected, value('meta_info'));
    const balances = detected.type === 'aex9' ? answer('balances') : undefined;
    const holders = balances === undefined ? undefined : readHoldings(encoder, balances);
    const contract: AexnContractRow = {
      ...at,
      contractId: id,
      aexnType: detected.type,
      createdByCall: step.code === undefined,
      ...meta,
      extensions,
      balancesUnknown: detected.type === 'aex9' && holders === undefined,
      wrappedAe: detected.type === 'aex9' && (detected.wrappedAe === true || this.#wrappedAe.has(id)),
    };
    const seeds: Aex9SeedRow[] = [];
    for (const [account, amount] of holders ?? [])
      // a balance is held: what a contract answers below zero is none (it never makes a negative balance)
      if (amount > 0n) seeds.push({ ...at, contractId: id, account, amount: amount.toString() });
    return { contract, seeds };
  }
}

const stringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined;

type Meta = Pick<AexnContractRow, 'name' | 'symbol' | 'decimals' | 'baseUrl' | 'metadataType' | 'metaInvalid'>;

/** ae_mdw's placeholder for meta info it could not read. */
const INVALID_META: Meta = {
  name: 'format_error',
  symbol: 'format_error',
  decimals: null,
  baseUrl: null,
  metadataType: null,
  metaInvalid: true,
};

/** variantTag reads aepp-calldata's untyped variant (`{"<tag>": [values]}`). */
function variantTag(v: unknown): { tag: number; values: unknown[] } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const entries = Object.entries(v);
  const [tag, values] = entries[0] ?? [];
  return entries.length === 1 && Array.isArray(values) ? { tag: Number(tag), values } : undefined;
}

/** readMeta reads a decoded `meta_info()` (a tuple) as the row's fields, or the placeholder. */
export function readMeta(detected: AexnDetection, decoded: unknown): Meta {
  if (!Array.isArray(decoded)) return INVALID_META;
  const [name, symbol, third, fourth] = decoded as unknown[];
  if (typeof name !== 'string' || typeof symbol !== 'string') return INVALID_META;
  if (detected.type === 'aex9') {
    if (typeof third !== 'bigint' || third < 0n || third > 2n ** 31n - 1n) return INVALID_META;
    return { name, symbol, decimals: Number(third), baseUrl: null, metadataType: null, metaInvalid: false };
  }
  const baseUrl = variantTag(third);
  const metadataType = variantTag(fourth);
  const typeName = metadataType && detected.metadataTypes?.[metadataType.tag];
  if (!baseUrl || typeName === undefined) return INVALID_META;
  const url = baseUrl.tag === 1 && typeof baseUrl.values[0] === 'string' ? baseUrl.values[0] : null;
  return { name, symbol, decimals: null, baseUrl: url, metadataType: typeName, metaInvalid: false };
}

/**
 * contractReaders are the populator's contract decoder and AEX-N detector, sharing the decoder's code cache, both
 * asking the node through `node` (its node set's slots, its retries, its stop signal); `metrics` counts the
 * decoder's requests to the compiler.
 */
export function contractReaders(
  cfg: Pick<Config, 'compilerUrl' | 'nodeTimeoutMs' | 'dex'>,
  db: Queryable,
  node: Pick<NodeClient, 'contractCode' | 'dryRun'>,
  metrics?: OutboundMetrics,
): { decoder: ContractDecoder; aexn: AexnDetector } {
  const decoder = new ContractDecoder({
    compilerUrl: cfg.compilerUrl,
    timeoutMs: cfg.nodeTimeoutMs,
    db,
    node,
    metrics,
  });
  const aexn = new AexnDetector({
    node,
    decoder,
    db,
    wrappedAe: [cfg.dex.wrappedAe],
  });
  return { decoder, aexn };
}
