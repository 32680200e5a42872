/**
 * @module An NFT's metadata as ae_mdw reads it: a dry-run of the collection's `metadata(token_id)` at the
 * node, on top of the newest stored block (so it matches the owner we answer with). A string is given
 * under the collection's metadata type (`{"url": …}`), a map as `{"map": {…}}`.
 */
import { LRUCache } from 'lru-cache';
import { isJsonObject, parseJson, type Json } from '../../../chain/json.ts';
import type { Config } from '../../../config/middleware.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { topBlockHash } from '../../../db/queries/blocks.ts';
import { ErrorCode } from '../../../base/errors.ts';
import { dryRun, fateCall } from '../../../node/dry-run.ts';
import { badResponse, isRefusalStatus, noAnswer, NodeError } from '../../../node/errors.ts';
import { httpGet } from '../../../node/http-get.ts';
import type { Meter, OutboundMetrics } from '../../../node/outbound-metrics.ts';

interface Encoder {
  encodeCall(fn: string, args: unknown[]): string;
  decodeResult(fn: string, data: string, resultType: string): unknown;
}

/** readMetadata reads aepp-calldata's decoded `option(metadata)` (untyped variants `{"<tag>": [values]}`). Pure. */
export function readMetadata(decoded: unknown, metadataType: string | null): Json {
  const variant = (v: unknown): [number, unknown[]] | undefined => {
    if (typeof v !== 'object' || v === null || v instanceof Map) return undefined;
    const entries = Object.entries(v);
    return entries.length === 1 && Array.isArray(entries[0]![1]) ? [Number(entries[0]![0]), entries[0]![1]] : undefined;
  };
  const some = variant(decoded);
  if (!some || some[0] !== 1) return null;
  const metadata = variant(some[1][0]);
  if (metadata?.[0] === 0 && typeof metadata[1][0] === 'string') return { [metadataType ?? 'url']: metadata[1][0] };
  if (metadata?.[0] === 1 && metadata[1][0] instanceof Map)
    return { map: Object.fromEntries([...metadata[1][0]].map(([k, v]) => [String(k), String(v)])) };
  return null;
}

/** Aex141Metadata dry-runs `metadata(token_id)`, keeping an encoder per collection (its bytecode parsed once). */
export class Aex141Metadata {
  readonly #pool: Pool;
  readonly #cfg: Config;
  readonly #encoders = new LRUCache<string, Encoder>({ max: 64 });
  readonly #metrics: OutboundMetrics;
  /** a collection's code is a read of the node's, as the populator's */
  readonly #readMeter: Meter;

  constructor(pool: Pool, cfg: Config, metrics: OutboundMetrics) {
    this.#pool = pool;
    this.#cfg = cfg;
    this.#metrics = metrics;
    this.#readMeter = metrics.meter('node', 'read');
  }

  /**
   * read is the token's metadata, or null when the node does not answer it (pruned state, a failing call). A node
   * that refused for load or could not be reached throws its NodeError: the client's 503 with Retry-After
   * (error-boundary.ts), never a `null` that says the token has no metadata.
   */
  async read(contractId: string, tokenId: string, metadataType: string | null): Promise<Json> {
    try {
      const encoder = await this.#encoder(contractId);
      const top = await topBlockHash(this.#pool);
      if (!encoder || top === undefined) return null;
      // straight to the nodes in turn: a server has no node set (its node traffic is the proxy's, bounded by the
      // requests it serves, and it follows no forks among the nodes), and asks one dry-run per token read
      const results = await dryRun(
        this.#cfg.nodeUrls,
        top,
        [fateCall(contractId, encoder.encodeCall('metadata', [BigInt(tokenId)]))],
        this.#cfg.nodeTimeoutMs,
        undefined,
        this.#metrics,
      );
      // a pruned or refusing node has no answer: the metadata is unknown
      const result = typeof results === 'string' ? undefined : results[0];
      return result?.ok ? readMetadata(encoder.decodeResult('metadata', result.value, 'ok'), metadataType) : null;
    } catch (err) {
      if (err instanceof NodeError && (err.busy || err.code === ErrorCode.NODE_UNREACHABLE)) throw err;
      return null;
    }
  }

  async #encoder(contractId: string): Promise<Encoder | undefined> {
    const known = this.#encoders.get(contractId);
    if (known) return known;
    const path = `/v2/contracts/${contractId}/code`;
    const res = await httpGet(new URL(`${this.#cfg.nodeUrl}${path}`), this.#cfg.nodeTimeoutMs, {
      meter: this.#readMeter,
    }).catch((err: unknown) => {
      throw noAnswer(path, err, this.#cfg.nodeTimeoutMs);
    });
    if (isRefusalStatus(res.status))
      throw badResponse(path, `node refused ${path}: ${res.status}`, res.status, res.retryAfter);
    const body = res.status === 200 ? parseJson(res.text) : null;
    if (!isJsonObject(body) || typeof body.bytecode !== 'string') return undefined;
    // imported here: aepp-calldata's 130 modules were 0.08 CPU-s of every server's start, for this route alone
    const { BytecodeContractCallEncoder } = await import('@aeternity/aepp-calldata');
    const encoder = new BytecodeContractCallEncoder(body.bytecode as `cb_${string}`) as unknown as Encoder;
    this.#encoders.set(contractId, encoder);
    return encoder;
  }
}
