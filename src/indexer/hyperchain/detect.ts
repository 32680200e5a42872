/**
 * @module Whether the node runs a hyperchain: its `GET /v3/hyperchain/contracts` (the endpoint group only a hyperchain
 * node serves; any other node answers 404), asked of the configured nodes in turn, with backoff while none answers.
 */
import { isJsonObject, parseJson } from '../../chain/json.ts';
import { HttpGetError, httpGet } from '../../node/http-get.ts';
import type { HyperchainRecord } from '../../db/queries/hyperchain.ts';
import { retry } from '../../retry.ts';

const PATH = '/v3/hyperchain/contracts';

/** What asking takes: the nodes, a request's timeout, the populator's stop signal, the backoff. */
export interface DetectOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly attempts?: number;
}

/**
 * detectHyperchain asks each node until one answers 200 (a hyperchain: its contracts) or 404 (not one); a node that
 * fails otherwise (unreachable, 5xx, a malformed answer) is passed over, and a round in which none answered is asked
 * again after a backoff.
 */
export function detectHyperchain(opts: DetectOptions): Promise<HyperchainRecord> {
  return retry(
    async () => {
      const failures: string[] = [];
      for (const url of opts.urls) {
        try {
          const { status, text } = await httpGet(new URL(`${url}${PATH}`), opts.timeoutMs, { signal: opts.signal });
          if (status === 404) return { hyperchain: false, contracts: undefined };
          if (status === 200) return readContracts(text);
          failures.push(`${url}: ${status}`);
        } catch (err) {
          if (!(err instanceof HttpGetError) && !(err instanceof SyntaxError) && !(err instanceof TypeError)) throw err;
          failures.push(`${url}: ${err.message}`);
        }
      }
      throw new Error(`no node answered ${PATH} (${failures.join('; ')})`);
    },
    { attempts: opts.attempts ?? Infinity, initialMs: 500, maxMs: 30_000, jitter: 0.2, signal: opts.signal },
  );
}

/** readContracts reads the answer: `staking` is required, `election` and `rewards` optional (the node's schema). */
function readContracts(text: string): HyperchainRecord {
  const body = parseJson(text);
  if (!isJsonObject(body) || typeof body.staking !== 'string')
    throw new TypeError(`${PATH} answered without a staking contract`);
  const optional = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    hyperchain: true,
    contracts: { staking: body.staking, election: optional(body.election), rewards: optional(body.rewards) },
  };
}
