/**
 * @module The chain a node serves, as its own answers say it: `/v2/status`'s network_id and the hash of its key block
 * at height 0. Read from each node of NODE_URLS alone, so that one node of another network cannot hide behind another.
 */
import type { Logger } from '../log.ts';
import { errorMessage } from '../errors.ts';
import { retry, type BackoffOptions } from '../retry.ts';
import { NodeClient } from './client.ts';
import { badResponse, NodeError } from './errors.ts';

/** The chain one node serves. */
export interface NodeChain {
  readonly url: string;
  readonly networkId: string;
  readonly genesisHash: string;
}

const WAIT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5000, jitter: 0.2 };

/** nodeChain asks one node which chain it serves (one attempt: the caller decides whether to wait). */
export async function nodeChain(url: string, timeoutMs: number, log: Logger, signal?: AbortSignal): Promise<NodeChain> {
  const node = new NodeClient({ url, timeoutMs, attempts: 1, ...(signal ? { signal } : {}) }, log);
  const [status, genesis] = await Promise.all([node.get('/status'), node.keyBlock(0)]);
  const networkId = typeof status === 'object' && status !== null && 'network_id' in status ? status.network_id : null;
  if (typeof networkId !== 'string') throw badResponse('/status', `node ${url} sent no network_id in /v2/status`);
  if (typeof genesis.hash !== 'string')
    throw badResponse('/key-blocks/height/0', `node ${url} sent no hash at height 0`);
  return { url, networkId, genesisHash: genesis.hash };
}

/**
 * nodeChains asks every node which chain it serves. With `wait`, a node that does not answer is asked again with
 * backoff until it does (its absence logged once, its return once); without, it is left out and logged.
 */
export async function nodeChains(
  urls: readonly string[],
  opts: { timeoutMs: number; wait: boolean; signal?: AbortSignal },
  log: Logger,
): Promise<NodeChain[]> {
  const asked = await Promise.all(
    urls.map(async (url) => {
      if (!opts.wait)
        return nodeChain(url, opts.timeoutMs, log, opts.signal).catch((err: unknown) => {
          if (!(err instanceof NodeError)) throw err;
          log.warn({ node: url, reason: errorMessage(err) }, 'node unavailable: its chain identity is not checked');
          return undefined;
        });
      let since: number | undefined;
      const chain = await retry(() => nodeChain(url, opts.timeoutMs, log, opts.signal), {
        ...WAIT_BACKOFF,
        attempts: Infinity,
        signal: opts.signal,
        retryable: (err) => err instanceof NodeError,
        onRetry: (_attempt, err) => {
          if (since !== undefined) return;
          since = Date.now();
          log.warn(
            { dependency: 'node', node: url, reason: errorMessage(err) },
            'node unavailable: waiting for it to check the chain it serves',
          );
        },
      });
      if (since !== undefined)
        log.info(
          { dependency: 'node', node: url, seconds: Math.round((Date.now() - since) / 1000) },
          'node available again',
        );
      return chain;
    }),
  );
  return asked.filter((c): c is NodeChain => c !== undefined);
}
