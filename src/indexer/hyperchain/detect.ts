/**
 * @module Whether the node runs a hyperchain: its `GET /v3/hyperchain/contracts` (the endpoint group only a hyperchain
 * node serves; any other node answers 404), asked of the configured nodes in turn, with backoff while none answers.
 */
import { isJsonObject, parseJson } from '../../chain/json.ts';
import { HttpGetError, httpGet } from '../../node/http-get.ts';
import type { HyperchainRecord } from '../../db/queries/hyperchain.ts';
import { retry } from '../../retry.ts';

const PATH = '/v3/hyperchain/contracts';

/** What asking takes: the nodes, a request's timeout, the populator's stop signal, the rounds (4 by default). */
export interface DetectOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly attempts?: number;
}

/**
 * detectHyperchain asks each node until one answers 200 (a hyperchain: its contracts) or refuses the path (404, or
 * another 4xx but 408 and 429: not one); a node that fails otherwise (unreachable, 5xx, 408, 429, a malformed answer)
 * is passed over, and a round in which none answered is asked again after a backoff, 4 rounds in all as the batch's
 * other reads (then the batch fails, and the populator retries it as any failed step: logged, in sync_state).
 */
export function detectHyperchain(opts: DetectOptions): Promise<HyperchainRecord> {
  return retry(
    async () => {
      const failures: string[] = [];
      for (const url of opts.urls) {
        try {
          const { status, text } = await httpGet(new URL(`${url}${PATH}`), opts.timeoutMs, { signal: opts.signal });
          // the node refuses the path (404 without the endpoint group, or a node or proxy without /v3): not one
          if (isRefusal(status)) return { hyperchain: false, contracts: undefined };
          if (status === 200) return readContracts(text);
          failures.push(`${url}: ${status}`);
        } catch (err) {
          if (!(err instanceof HttpGetError) && !(err instanceof SyntaxError) && !(err instanceof TypeError)) throw err;
          failures.push(`${url}: ${err.message}`);
        }
      }
      throw new Error(`no node answered ${PATH} (${failures.join('; ')})`);
    },
    { attempts: opts.attempts ?? 4, initialMs: 200, maxMs: 5000, jitter: 0.2, signal: opts.signal },
  );
}

const isRefusal = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;

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
