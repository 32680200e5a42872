/** @module NodeClient: the node's HTTP API with timeouts, capped exponential backoff and lossless JSON. */
import { isJsonObject, parseJson, parseJsonMember, type Json } from '../chain/json.ts';
import type { Logger } from '../base/log.ts';
import { badResponse, noAnswer, NodeError, unreachable } from './errors.ts';
import { backoffDelay, sleep, waitBefore } from '../base/retry.ts';
import {
  askNode,
  countLasting,
  CRASHED,
  DRY_RUN_PATH,
  dryRunBody,
  inChunks,
  inRounds,
  LASTING_ROUNDS,
  nodeAnswered,
  OVER_TIME_LIMIT,
  readResults,
  roundOutcome,
  type DryRunCall,
  type DryRunOutcome,
  type DryRunResult,
  type Lasting,
} from './dry-run.ts';
import { httpBase, httpGet, type HttpBase } from './http-get.ts';
import { readReplay, replayBody, type Replayed } from './dry-run-events.ts';
import { LAST, NodeSet, URGENT } from './node-set.ts';
import type { SlotKind } from './node-pace.ts';
import type { Meter, OutboundMetrics } from './outbound-metrics.ts';
import { failsOver } from './rotation.ts';

export type JsonObject = { [key: string]: Json };

export interface NodeClientOptions {
  /**
   * Base URL of the node's external API, without `/v2`; with several, requests spread over them (see NodeSet)
   * and one that fails over (see failsOver) goes to another node. Clients sharing a NodeSet share its slots.
   */
  readonly url: string | readonly string[] | NodeSet;
  readonly timeoutMs: number;
  /** Attempts per request for transient failures (1 = no retry). */
  readonly attempts?: number;
  /**
   * Whether a request refused for load (the node's 503, a 429) waits it out at the node's pace (node-pace.ts), up to
   * MAX_REFUSALS times, rather than spending an attempt: by default when it has attempts to spare. The populator's
   * poll of the top, asked once, waits too: a refusal is the node's pace, not an outage of the populator's step.
   */
  readonly paced?: boolean;
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
  /** Aborts waits and requests when the owner stops. */
  readonly signal?: AbortSignal;
  /** Counts and times every request sent (`read`, `dry_run`), as every other request of the process to the node. */
  readonly metrics?: OutboundMetrics;
  /** Called on every failed attempt (for metrics). */
  readonly onError?: (err: NodeError) => void;
  /** Called on every answer the node gave, an error status included (for metrics: requests, round trips). */
  readonly onAnswer?: (node: string, ms: number) => void;
  /** Told when a node leaves the set (on another fork than the most advanced one) or comes back. */
  readonly onFork?: (node: string, dropped: boolean) => void;
}

/** How long a node that failed transiently is passed over while another can serve. */
const COOL_DOWN_MS = 1000;

/**
 * MAX_REFUSALS: how many times a request that may be retried is refused for load (each followed by the node's pause,
 * node-pace.ts: about a minute in all) before a refusal counts as a failed attempt: a node that refuses that long is
 * away rather than busy.
 */
const MAX_REFUSALS = 20;

/**
 * OVER_TIME_LIMIT_SAID: the node URLs whose dry-runs were said to end at their time limit. Once per process, not per
 * client: a populator holds several clients of the same nodes (populator.ts), and a dependency's trouble is logged
 * once, not per request.
 */
const OVER_TIME_LIMIT_SAID = new Set<string>();

/**
 * NodeClient reads chain data from one node or spreads it over several; every answer is parsed without losing
 * digits, and a request already in flight for the same path is shared, never sent twice.
 */
export class NodeClient {
  readonly #opts: Required<
    Omit<NodeClientOptions, 'signal' | 'onError' | 'onAnswer' | 'onFork' | 'url' | 'metrics' | 'paced'>
  > &
    Pick<NodeClientOptions, 'signal' | 'onError' | 'onAnswer' | 'onFork'>;
  /** the requests' meters, by what they ask */
  readonly #meters: { readonly read?: Meter; readonly dryRun?: Meter };
  readonly #metrics: OutboundMetrics | undefined;
  /** how many refusals for load a request waits out (MAX_REFUSALS when paced, else none) */
  readonly #refusals: number;
  readonly #nodes: NodeSet;
  /** each node's `/v2` base, taken apart once */
  readonly #bases: readonly HttpBase[];
  readonly #log: Logger;
  /** requests in flight by path (and parse), shared by every caller that asks for the same meanwhile */
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(opts: NodeClientOptions, log: Logger) {
    const { url, metrics, paced, ...rest } = opts;
    this.#opts = { attempts: 4, backoffInitialMs: 200, backoffMaxMs: 5000, ...rest };
    this.#refusals = (paced ?? this.#opts.attempts > 1) ? MAX_REFUSALS : 0;
    this.#meters = { read: metrics?.meter('node', 'read'), dryRun: metrics?.meter('node', 'dry_run') };
    this.#metrics = metrics;
    this.#nodes = url instanceof NodeSet ? url : new NodeSet(typeof url === 'string' ? [url] : url);
    this.#bases = this.#nodes.urls.map((u) => httpBase(`${u}/v2`));
    this.#log = log;
    const signal = opts.signal;
    signal?.addEventListener('abort', () => this.#nodes.abandon(signal), { once: true });
  }

  /** nodes is the set of nodes this client reads from. */
  get nodes(): NodeSet {
    return this.#nodes;
  }

  /**
   * get fetches `/v2<path>` and returns the parsed body. An attempt asks the healthy nodes in turn until
   * one answers; when all fail transiently it backs off and tries again, up to `attempts` rounds.
   * A 410 (pruned state) or 404 (a node behind the others) sends the request on to the next node; when no
   * node can answer, the 410 is what the caller gets (so that it can do without that state), at once if no
   * failure was transient. `priority` orders it among the requests waiting for a slot (NodeSet.acquire): the
   * chain's requests carry their generation's height.
   */
  get(path: string, priority = LAST): Promise<Json> {
    return this.#shared(path, path, parseJson, priority);
  }

  /** #shared sends `path` unless the same request (`key`: the path and how its answer is parsed) is in flight. */
  #shared<T>(key: string, path: string, parse: (text: string) => T, priority: number): Promise<T> {
    const shared = this.#inFlight.get(key);
    if (shared) return shared as Promise<T>;
    const request = this.#get(path, parse, undefined, priority).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, request);
    return request;
  }

  async #get<T>(
    path: string,
    parse: (text: string) => T,
    only?: number,
    priority = LAST,
    attempts = this.#opts.attempts,
  ): Promise<T> {
    let attempt = 0;
    // a reading asked of one node once (topHeight's of each node) hears of a refusal at once: the others answer
    let refusals = only === undefined ? this.#refusals : 0;
    for (;;) {
      attempt++;
      let error: NodeError | undefined;
      let gone: NodeError | undefined;
      /** a live node's 404: the answer, when every other node only failed to answer (none can say otherwise now) */
      let missing: NodeError | undefined;
      let transient = false;
      /** the soonest a node that answered 503 with Retry-After asked to be asked again */
      let asked: number | undefined;
      const tried: number[] = [];
      for (;;) {
        const index = await this.#nodes.acquire(this.#untried(tried, only), this.#opts.signal, priority);
        if (index === undefined) break;
        tried.push(index);
        const started = performance.now();
        let answered = false;
        let refused = false;
        try {
          return await this.#once(this.#bases[index]!, path, parse, () => (answered = true));
        } catch (err) {
          error = err instanceof NodeError ? err : unreachable(path, err);
          this.#opts.onError?.(error);
          if (error.busy) {
            // the node's pace: it is left alone for a pause, and the request waits for a slot again (this node's
            // after the pause, or another's), without spending an attempt
            refused = true;
            if (this.#paced(index, 'read', error, refusals--)) {
              tried.pop();
              continue;
            }
          } else if (error.transient) this.#nodes.failed(index, waitBefore(COOL_DOWN_MS, error.retryAfterMs));
          if (error.retryAfterMs !== undefined) asked = Math.min(asked ?? Infinity, error.retryAfterMs);
          if (!failsOver(error) || this.#opts.signal?.aborted) throw error;
          if (error.gone) gone = error;
          if (error.notFound) missing = error;
          transient ||= error.transient;
          if (this.#nodes.urls.length > 1)
            this.#log.debug({ path, node: index, err: error.message }, 'node request failed over');
        } finally {
          const ms = performance.now() - started;
          this.#nodes.release(index, answered && !refused ? ms : undefined);
          if (answered) this.#opts.onAnswer?.(this.#nodes.urls[index]!, ms);
        }
      }
      if (error === undefined) throw unreachable(path, new Error('no node left in the set'));
      if (missing !== undefined && gone === undefined) throw missing;
      if (!transient || attempt >= attempts || this.#opts.signal?.aborted) throw gone ?? error;
      const backoff = backoffDelay(attempt, {
        initialMs: this.#opts.backoffInitialMs,
        maxMs: this.#opts.backoffMaxMs,
        jitter: 0.2,
      });
      // a node that asked for a wait (503 with Retry-After) is not asked again before it: that is what it needs
      const delay = waitBefore(backoff, asked);
      if (asked !== undefined) this.#metrics?.waitedAsAsked('node', delay / 1000);
      this.#log.debug({ path, attempt, delay, retryAfterMs: asked, err: error.message }, 'node request retry');
      await sleep(delay, this.#opts.signal);
    }
  }

  /**
   * #paced tells the node set of node `index`'s refusal for load (`error`: its pace, node-pace.ts) and says whether
   * the request waits it out (`waitsLeft`: the refusals it may still wait out) rather than taking it as a failure.
   */
  #paced(index: number, kind: SlotKind, error: NodeError, waitsLeft: number): boolean {
    const pause = this.#nodes.refused(index, kind, error.retryAfterMs);
    if (waitsLeft <= 0) return false;
    if (error.retryAfterMs !== undefined) this.#metrics?.waitedAsAsked('node', pause / 1000);
    return true;
  }

  /** #untried lists the nodes a request may still go to: the healthy ones (or `only`) not `tried` in this round. */
  #untried(tried: readonly number[], only?: number): readonly number[] {
    const nodes = only === undefined ? this.#nodes.healthy() : [only];
    return tried.length === 0 ? nodes : nodes.filter((i) => !tried.includes(i));
  }

  async #once<T>(base: HttpBase, path: string, parse: (text: string) => T, answered: () => void): Promise<T> {
    let text: string;
    let status: number;
    let retryAfter: string | undefined;
    try {
      ({ status, text, retryAfter } = await httpGet({ base, path }, this.#opts.timeoutMs, {
        signal: this.#opts.signal,
        meter: this.#meters.read,
      }));
      answered();
    } catch (err) {
      throw noAnswer(path, err, this.#opts.timeoutMs);
    }
    const malformed = (): NodeError =>
      badResponse(
        path,
        `node answered ${path} with malformed JSON (status ${status})`,
        status >= 400 ? status : undefined,
        retryAfter,
      );
    if (status >= 400) {
      let body: Json;
      try {
        body = parseJson(text);
      } catch {
        throw malformed();
      }
      const reason = isJsonObject(body) && typeof body.reason === 'string' ? body.reason : `status ${status}`;
      throw badResponse(path, `node answered ${path}: ${status} ${reason}`, status, retryAfter);
    }
    try {
      return parse(text);
    } catch {
      throw malformed();
    }
  }

  async #object(path: string, priority = LAST): Promise<JsonObject> {
    const body = await this.get(path, priority);
    if (!isJsonObject(body)) throw badResponse(path, `node answered ${path} with a non-object`);
    return body;
  }

  /**
   * topHeight is the height of the most advanced node's current generation. With several nodes it reads every
   * node's top key block and checks that each agrees with the most advanced one at its own height: a node on
   * another fork is dropped from the set (no request goes to it, said once), and comes back once it agrees.
   * Urgent in the node set: the populator's next step waits for it, behind it wait the heights fetched ahead.
   */
  async topHeight(): Promise<number> {
    if (this.#nodes.urls.length === 1) {
      const body = await this.#object('/key-blocks/current/height', URGENT);
      if (typeof body.height !== 'number') throw badResponse('/key-blocks/current/height', 'node sent no height');
      return body.height;
    }
    // a node paused for refusing a read (its pace) is left out of this reading while another can give it: waiting
    // for its pause would hold the follower (node-pace.ts)
    const all = this.#nodes.urls.map((_, i) => i);
    const pacing = all.filter((i) => !this.#nodes.paused(i));
    const asked = pacing.length > 0 ? pacing : all;
    const read = await Promise.allSettled(asked.map((i) => this.#objectFrom(i, '/key-blocks/current')));
    const tops = read.flatMap((r, k) =>
      r.status === 'fulfilled' && typeof r.value.height === 'number'
        ? [{ i: asked[k]!, height: r.value.height, hash: r.value.hash }]
        : [],
    );
    const inSet = tops.filter((t) => !this.#nodes.isDropped(t.i));
    const reference = (inSet.length > 0 ? inSet : tops).reduce<(typeof tops)[number] | undefined>(
      (best, t) => (best === undefined || t.height > best.height ? t : best),
      undefined,
    );
    if (!reference) {
      const failure = read.find((r) => r.status === 'rejected');
      throw failure?.reason ?? badResponse('/key-blocks/current', 'no node sent its top');
    }
    for (const t of tops) {
      if (t.i === reference.i) continue;
      const theirs =
        t.height === reference.height
          ? reference.hash
          : await this.#objectFrom(reference.i, `/key-blocks/height/${t.height}`).then(
              (b) => b.hash,
              () => undefined,
            );
      if (theirs === undefined) continue;
      const url = this.#nodes.urls[t.i]!;
      if (theirs !== t.hash) {
        if (this.#nodes.drop(t.i)) {
          this.#log.warn(
            { node: url, height: t.height, its: t.hash, theirs, reference: this.#nodes.urls[reference.i] },
            'node left the set: on another fork than the most advanced node',
          );
          this.#opts.onFork?.(url, true);
        }
      } else if (this.#nodes.restore(t.i)) {
        this.#log.info({ node: url, height: t.height }, 'node back in the set: it agrees with the most advanced node');
        this.#opts.onFork?.(url, false);
      }
    }
    return reference.height;
  }

  /**
   * #objectFrom asks one node once: a node that does not answer its top is left out of this reading (topHeight reads
   * the others' and the next poll asks it again); retried with backoff, one dead node of several held every reading
   * for the client's whole backoff (`mdw -v`: six rounds, 11 s, before any height was read)
   */
  async #objectFrom(index: number, path: string): Promise<JsonObject> {
    const body = await this.#get(path, parseJson, index, URGENT, 1);
    if (!isJsonObject(body)) throw badResponse(path, `node answered ${path} with a non-object`);
    return body;
  }

  /** generation is `{key_block, micro_blocks}` at a height; its height is its priority. */
  generation(height: number): Promise<JsonObject> {
    return this.#object(`/generations/height/${height}`, height);
  }

  keyBlock(height: number): Promise<JsonObject> {
    return this.#object(`/key-blocks/height/${height}`);
  }

  /** microBlockHeader is a micro block's header; `priority`: its generation's height while catching up. */
  microBlockHeader(hash: string, priority = LAST): Promise<JsonObject> {
    return this.#object(`/micro-blocks/hash/${encodeURIComponent(hash)}/header`, priority);
  }

  /** microBlockTransactions lists the signed txs of a micro block in block order. */
  async microBlockTransactions(hash: string, priority = LAST): Promise<JsonObject[]> {
    const path = `/micro-blocks/hash/${encodeURIComponent(hash)}/transactions`;
    const body = await this.#object(path, priority);
    if (!Array.isArray(body.transactions) || !body.transactions.every(isJsonObject)) {
      throw badResponse(path, 'node sent no transactions list');
    }
    return body.transactions as JsonObject[];
  }

  /**
   * transactionInfo is the call info of a contract tx (`{call_info}`, `{ga_info}` or `{tx_info}`) and, for a
   * `{call_info}`, the node's own text of it (stored as it is: writing the parsed object out again cost the
   * populator a stringify per contract call).
   */
  async transactionInfo(hash: string, priority = LAST): Promise<{ info: JsonObject; callInfoText?: string }> {
    const path = `/transactions/${encodeURIComponent(hash)}/info`;
    const { whole, memberText } = await this.#shared(
      `${path} call_info`,
      path,
      (text) => parseJsonMember(text, 'call_info'),
      priority,
    );
    if (!isJsonObject(whole)) throw badResponse(path, `node answered ${path} with a non-object`);
    return { info: whole, callInfoText: isJsonObject(whole.call_info) ? memberText : undefined };
  }

  /**
   * dryRun runs `calls` on top of block `top` (the node's top when undefined; dry-run.ts) in a slot of the node
   * set, as every request of the populator: urgent, as a contract's code (a batch being prepared waits for its
   * dry-runs), at the healthy node with the most room, passing over one that just failed while another can serve.
   * A round asks the healthy nodes in turn until one gives results; PRUNED when every node said the state is
   * garbage-collected (410, or the dry-run's 400 saying so), REFUSED when every one refused the request,
   * OVER_TIME_LIMIT when every one gave it up at its time limit in LASTING_ROUNDS rounds in a row; when some node could
   * not answer (5xx, 429, no answer, its time limit) the round is asked again after a backoff, up to the client's
   * `attempts` rounds, then a transient NodeError is thrown.
   */
  dryRun(
    top: string | undefined,
    calls: readonly DryRunCall[],
  ): Promise<DryRunOutcome<DryRunResult[] | typeof OVER_TIME_LIMIT>> {
    // in requests the node's gas cap takes (dry-run.ts CALLS_PER_REQUEST)
    return inChunks<typeof OVER_TIME_LIMIT>(calls, (chunk) =>
      this.#dryRun(top, dryRunBody(top, chunk), (answer) => readResults(answer, chunk.length), [OVER_TIME_LIMIT]),
    );
  }

  /**
   * replay runs a micro block's transactions up to a contract call (`txs`, unsigned, in order) on top of the block
   * before it (`top`), with `tx_events`: that call's internal calls (dry-run-events.ts), asked as dryRun asks.
   */
  replay(top: string, txs: readonly string[]): Promise<DryRunOutcome<Replayed | Lasting>> {
    const read = (answer: Json): Replayed => readReplay(answer, txs.length);
    // every node's 500 again and again: a call the node cannot serialise the events of (dry-run.ts CRASHED); its
    // time limit again and again: a replay too heavy for it (OVER_TIME_LIMIT)
    return this.#dryRun(top, replayBody(top, txs), read, [CRASHED, OVER_TIME_LIMIT]);
  }

  /**
   * #dryRun asks a dry-run (`body`) in rounds over the node set, its answer read by `read` (dryRun's doc), until it
   * ends in one of the `lasting` failures (dry-run.ts countLasting): the nodes' time limit round after round is said
   * once per process and node (OVER_TIME_LIMIT_SAID), a warning.
   */
  async #dryRun<T, K extends Lasting>(
    top: string | undefined,
    body: string,
    read: (answer: Json) => T,
    lasting: readonly K[],
  ): Promise<DryRunOutcome<T | K>> {
    const outcome = await this.#inRounds(countLasting(this.#round(top, body, read), lasting));
    if (outcome === OVER_TIME_LIMIT) this.#sayOverTimeLimit(top);
    return outcome;
  }

  /** #sayOverTimeLimit warns that every node gave a dry-run up at its time limit, unless said of them all before. */
  #sayOverTimeLimit(top: string | undefined): void {
    const unsaid = this.#nodes.urls.filter((url) => !OVER_TIME_LIMIT_SAID.has(url));
    if (unsaid.length > 0) {
      for (const url of unsaid) OVER_TIME_LIMIT_SAID.add(url);
      this.#log.warn(
        { top, rounds: LASTING_ROUNDS, nodes: this.#nodes.urls },
        `every node gave a dry-run up at its time limit (400 dry-run exceeded time limit) ${LASTING_ROUNDS} rounds ` +
          "in a row: what it reads is left untold (a call's internal calls a gap, mdw_incomplete_areas; a token's " +
          "balances unknown); said once per run. Raise the nodes' http.dry_run.timeout_ms (0: unbounded) and " +
          'reload (-H) the heights to fill it in',
      );
    }
  }

  /** #inRounds runs a dry-run's `round` again after a backoff while it fails transiently, as the client retries. */
  #inRounds<T>(round: () => Promise<DryRunOutcome<T>>): Promise<DryRunOutcome<T>> {
    const { attempts, backoffInitialMs: initialMs, backoffMaxMs: maxMs, signal } = this.#opts;
    return inRounds(round, { attempts, initialMs, maxMs, signal });
  }

  /** #round is one round of a dry-run (`body`) over the healthy nodes, its answer read by `read`. */
  #round<T>(top: string | undefined, body: string, read: (answer: Json) => T): () => Promise<DryRunOutcome<T>> {
    const { timeoutMs, signal } = this.#opts;
    return async (): Promise<DryRunOutcome<T>> => {
      const failures: NodeError[] = [];
      const tried: number[] = [];
      let refusals = this.#refusals;
      for (;;) {
        const index = await this.#nodes.acquire(this.#untried(tried), signal, URGENT, 'dryRun');
        if (index === undefined) return roundOutcome(top, failures);
        tried.push(index);
        const started = performance.now();
        const answer = await askNode({ base: this.#bases[index]!, path: DRY_RUN_PATH }, body, read, timeoutMs, {
          signal,
          meter: this.#meters.dryRun,
        });
        // freed without a round trip, as a failure's slot is: the limit reads the node's queue from how long its
        // GETs (lookups) take, and a dry-run's time is something else: the node running contracts (a token's
        // balances() walks every holder), or a refusal at once (a pruning node's 410). Timed with the GETs they would
        // read as queueing, or lower the baseline, and move the limit away from the node's slots
        const answered = nodeAnswered(answer);
        this.#nodes.release(index, undefined, 'dryRun', answered && !(answer instanceof NodeError && answer.busy));
        if (answered) this.#opts.onAnswer?.(this.#nodes.urls[index]!, performance.now() - started);
        if (!(answer instanceof NodeError)) return answer;
        this.#opts.onError?.(answer);
        if (answer.busy) {
          // the node's pace, as for a read (#get): its dry-runs wait out a pause, the round goes on
          if (this.#paced(index, 'dryRun', answer, refusals--)) {
            tried.pop();
            continue;
          }
        } else if (answer.transient && !answer.overTimeLimit) {
          // passed over a while; not for its time limit, which is the request's weight, not the node's health
          this.#nodes.failed(index, waitBefore(COOL_DOWN_MS, answer.retryAfterMs));
        }
        failures.push(answer);
      }
    };
  }

  /**
   * accountBalance is an account's balance in the state after block `hash` (`kh_`/`mh_`), or at the node's top
   * without one; undefined when the account does not exist there. Urgent unless a `priority` is given: a batch's
   * transaction waits for it (the populator asks a batch's balances with its height while it prepares the batch).
   */
  async accountBalance(id: string, hash?: string, priority = URGENT): Promise<bigint | undefined> {
    const path = `/accounts/${encodeURIComponent(id)}${hash === undefined ? '' : `/hash/${encodeURIComponent(hash)}`}`;
    let body: JsonObject;
    try {
      body = await this.#object(path, priority);
    } catch (err) {
      // the node's 404 for a block it lacks says so otherwise ("Block not found", "Hash not available")
      if (err instanceof NodeError && err.notFound && err.message.endsWith('Account not found')) return undefined;
      throw err;
    }
    if (typeof body.balance !== 'number' && typeof body.balance !== 'bigint')
      throw badResponse(path, 'node sent no balance');
    return BigInt(body.balance);
  }

  /**
   * contractCode is the deployed bytecode (`cb_…`). Urgent in the node set: a batch being prepared waits for it,
   * while the fetch-ahead's requests are for later batches.
   */
  async contractCode(id: string): Promise<string> {
    const path = `/contracts/${encodeURIComponent(id)}/code`;
    const body = await this.#shared(path, path, parseJson, URGENT);
    if (!isJsonObject(body) || typeof body.bytecode !== 'string') throw badResponse(path, 'node sent no bytecode');
    return body.bytecode;
  }
}
