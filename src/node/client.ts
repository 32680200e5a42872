/** @module NodeClient: the node's HTTP API with timeouts, capped exponential backoff and lossless JSON. */
import { isJsonObject, parseJson, type Json } from '../chain/json.ts';
import type { Logger } from '../log.ts';
import { badResponse, NodeError, timedOut, unreachable } from './errors.ts';
import { backoffDelay, sleep } from '../retry.ts';
import { httpGet, HttpGetError } from './http-get.ts';
import { failsOver, NodeRotation } from './rotation.ts';

export type JsonObject = { [key: string]: Json };

export interface NodeClientOptions {
  /**
   * Base URL of the node's external API, without `/v2`; with several, a request that fails over
   * (see failsOver) goes to the next node. A shared NodeRotation keeps clients on the same node.
   */
  readonly url: string | readonly string[] | NodeRotation;
  readonly timeoutMs: number;
  /** Attempts per request for transient failures (1 = no retry). */
  readonly attempts?: number;
  readonly backoffInitialMs?: number;
  readonly backoffMaxMs?: number;
  /** Aborts waits and requests when the owner stops. */
  readonly signal?: AbortSignal;
  /** Called on every failed attempt (for metrics). */
  readonly onError?: (err: NodeError) => void;
}

/**
 * parseNodeJson is parseJson with a fast path: a text without a run of 16 digits holds no integer
 * beyond 2^53 (15 digits stay below 10^15), so the plain parser loses nothing there.
 */
export function parseNodeJson(text: string): Json {
  return /\d{16}/.test(text) ? parseJson(text) : (JSON.parse(text) as Json);
}

/** NodeClient reads chain data from one node or fails over among several; every answer is parsed without losing digits. */
export class NodeClient {
  readonly #opts: Required<Omit<NodeClientOptions, 'signal' | 'onError' | 'url'>> &
    Pick<NodeClientOptions, 'signal' | 'onError'>;
  readonly #nodes: NodeRotation;
  readonly #log: Logger;

  constructor(opts: NodeClientOptions, log: Logger) {
    const { url, ...rest } = opts;
    this.#opts = { attempts: 4, backoffInitialMs: 200, backoffMaxMs: 5000, ...rest };
    this.#nodes = url instanceof NodeRotation ? url : new NodeRotation(typeof url === 'string' ? [url] : url);
    this.#log = log;
  }

  /**
   * get fetches `/v2<path>` and returns the parsed body. An attempt asks each node in turn until
   * one answers; when all fail transiently it backs off and tries again, up to `attempts` rounds.
   * A 410 (pruned state) sends the request on to the next node; when no node can answer, the 410 is
   * what the caller gets (so that it can do without that state), at once if no failure was transient.
   */
  async get(path: string): Promise<Json> {
    let attempt = 0;
    for (;;) {
      attempt++;
      let error: NodeError | undefined;
      let gone: NodeError | undefined;
      let transient = false;
      for (const index of this.#nodes.order()) {
        try {
          const body = await this.#once(this.#nodes.urls[index]!, path);
          this.#nodes.answered(index);
          return body;
        } catch (err) {
          error = err instanceof NodeError ? err : unreachable(path, err);
          this.#opts.onError?.(error);
          if (!failsOver(error) || this.#opts.signal?.aborted) throw error;
          if (error.gone) gone = error;
          transient ||= error.transient;
          if (this.#nodes.urls.length > 1)
            this.#log.debug({ path, node: index, err: error.message }, 'node request failed over');
        }
      }
      if (!transient || attempt >= this.#opts.attempts || this.#opts.signal?.aborted) throw gone ?? error!;
      const delay = backoffDelay(attempt, {
        initialMs: this.#opts.backoffInitialMs,
        maxMs: this.#opts.backoffMaxMs,
        jitter: 0.2,
      });
      this.#log.debug({ path, attempt, delay, err: error!.message }, 'node request retry');
      await sleep(delay, this.#opts.signal);
    }
  }

  async #once(base: string, path: string): Promise<Json> {
    let text: string;
    let status: number;
    try {
      ({ status, text } = await httpGet(new URL(`${base}/v2${path}`), this.#opts.timeoutMs, this.#opts.signal));
    } catch (err) {
      if (err instanceof HttpGetError && err.timedOut) throw timedOut(path, this.#opts.timeoutMs);
      throw unreachable(path, err);
    }
    let body: Json;
    try {
      body = parseNodeJson(text);
    } catch {
      throw badResponse(
        path,
        `node answered ${path} with malformed JSON (status ${status})`,
        status >= 400 ? status : undefined,
      );
    }
    if (status >= 400) {
      const reason = isJsonObject(body) && typeof body.reason === 'string' ? body.reason : `status ${status}`;
      throw badResponse(path, `node answered ${path}: ${status} ${reason}`, status);
    }
    return body;
  }

  async #object(path: string): Promise<JsonObject> {
    const body = await this.get(path);
    if (!isJsonObject(body)) throw badResponse(path, `node answered ${path} with a non-object`);
    return body;
  }

  /** topHeight is the height of the node's current generation. */
  async topHeight(): Promise<number> {
    const body = await this.#object('/key-blocks/current/height');
    if (typeof body.height !== 'number') throw badResponse('/key-blocks/current/height', 'node sent no height');
    return body.height;
  }

  /** generation is `{key_block, micro_blocks}` at a height. */
  generation(height: number): Promise<JsonObject> {
    return this.#object(`/generations/height/${height}`);
  }

  keyBlock(height: number): Promise<JsonObject> {
    return this.#object(`/key-blocks/height/${height}`);
  }

  microBlockHeader(hash: string): Promise<JsonObject> {
    return this.#object(`/micro-blocks/hash/${encodeURIComponent(hash)}/header`);
  }

  /** microBlockTransactions lists the signed txs of a micro block in block order. */
  async microBlockTransactions(hash: string): Promise<JsonObject[]> {
    const path = `/micro-blocks/hash/${encodeURIComponent(hash)}/transactions`;
    const body = await this.#object(path);
    if (!Array.isArray(body.transactions) || !body.transactions.every(isJsonObject)) {
      throw badResponse(path, 'node sent no transactions list');
    }
    return body.transactions as JsonObject[];
  }

  /** transactionInfo is the call info of a contract tx (`{call_info}`, `{ga_info}` or `{tx_info}`). */
  transactionInfo(hash: string): Promise<JsonObject> {
    return this.#object(`/transactions/${encodeURIComponent(hash)}/info`);
  }

  /** contractCode is the deployed bytecode (`cb_…`). */
  async contractCode(id: string): Promise<string> {
    const body = await this.#object(`/contracts/${encodeURIComponent(id)}/code`);
    if (typeof body.bytecode !== 'string') throw badResponse(`/contracts/${id}/code`, 'node sent no bytecode');
    return body.bytecode;
  }
}
