/**
 * @module Whether the node runs a hyperchain: its `GET /v3/hyperchain/contracts` (the endpoint group only a hyperchain
 * node serves; any other node answers 404), asked of the configured nodes in turn, with backoff while none answers,
 * and counted in the role's node metrics as every request to a node is.
 */
import { isJsonObject, parseJson } from '../../chain/json.ts';
import type { HyperchainRecord } from '../../db/queries/hyperchain.ts';
import type { NodeMeters } from '../../node/chain-identity.ts';
import { badResponse, noAnswer, NodeError } from '../../node/errors.ts';
import { HttpGetError, httpGet } from '../../node/http-get.ts';
import { retry } from '../../base/retry.ts';

const PATH = '/v3/hyperchain/contracts';

/** What asking takes: the nodes, a request's timeout, the populator's stop signal, the rounds (4 by default). */
export interface DetectOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly attempts?: number;
  /** the role's node metrics: each answer, each failure, each request sent */
  readonly meters?: NodeMeters;
}

/**
 * detectHyperchain asks each node until one answers 200 (a hyperchain: its contracts) or refuses the path (404, or
 * another 4xx but 408 and 429: not one); a node that fails otherwise (unreachable, 5xx, 408, 429, a malformed answer)
 * is passed over, and a round in which none answered is asked again after a backoff, 4 rounds in all as the batch's
 * other reads (then the batch fails, and the populator retries it as any failed step: logged, in sync_state).
 */
export function detectHyperchain(opts: DetectOptions): Promise<HyperchainRecord> {
  const { meters, signal, timeoutMs } = opts;
  const meter = meters?.metrics?.meter('node', 'read');
  const failed = (err: NodeError): NodeError => {
    meters?.onError?.(err);
    return err;
  };
  const ask = async (url: string): Promise<HyperchainRecord | NodeError> => {
    const started = performance.now();
    let answer: { status: number; text: string };
    try {
      answer = await httpGet(new URL(`${url}${PATH}`), timeoutMs, { signal, meter });
    } catch (err) {
      if (!(err instanceof HttpGetError)) throw err;
      return failed(noAnswer(PATH, err, timeoutMs));
    }
    meters?.onAnswer?.(url, performance.now() - started);
    const { status, text } = answer;
    if (status === 200) {
      const found = readContracts(text);
      return found instanceof NodeError ? failed(found) : found;
    }
    const refused = failed(badResponse(PATH, `node answered ${PATH}: ${status}`, status));
    // the node refuses the path (404 without the endpoint group, or a node or proxy without /v3): not one
    return isRefusal(status) ? { hyperchain: false, contracts: undefined } : refused;
  };
  return retry(
    async () => {
      const failures: string[] = [];
      for (const url of opts.urls) {
        const found = await ask(url);
        if (!(found instanceof NodeError)) return found;
        failures.push(`${url}: ${found.message}`);
      }
      throw new Error(`no node answered ${PATH} (${failures.join('; ')})`);
    },
    { attempts: opts.attempts ?? 4, initialMs: 200, maxMs: 5000, jitter: 0.2, signal },
  );
}

const isRefusal = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** readContracts reads the answer: `staking` is required, `election` and `rewards` optional (the node's schema). */
function readContracts(text: string): HyperchainRecord | NodeError {
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    body = undefined;
  }
  if (!isJsonObject(body) || typeof body.staking !== 'string')
    return badResponse(PATH, `node answered ${PATH} without a staking contract`);
  const optional = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    hyperchain: true,
    contracts: { staking: body.staking, election: optional(body.election), rewards: optional(body.rewards) },
  };
}
