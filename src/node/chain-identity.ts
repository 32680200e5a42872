/**
 * @module The chain a node serves, as its own answers say it: `/v2/status`'s network_id and genesis_key_block_hash (the
 * hash of its key block at height 0). Read from each node of NODE_URLS alone, so that one node of another network
 * cannot hide behind another.
 */
import type { Logger } from '../base/log.ts';
import { errorMessage } from '../base/errors.ts';
import { AwayLog, DEPENDENCY_BACKOFF, retry } from '../base/retry.ts';
import { NodeClient, type NodeClientOptions } from './client.ts';
import { badResponse, NodeError, unreachable } from './errors.ts';

/** The chain one node serves. */
export interface NodeChain {
  readonly url: string;
  readonly networkId: string;
  readonly genesisHash: string;
}

/** How a role counts its requests to the node (its metrics): the identity's requests are counted with the rest. */
export type NodeMeters = Pick<NodeClientOptions, 'metrics' | 'onError' | 'onAnswer'>;

/** nodeChain asks one node which chain it serves (one attempt: the caller decides whether to wait). */
export async function nodeChain(
  url: string,
  opts: { timeoutMs: number; signal?: AbortSignal; meters?: NodeMeters },
  log: Logger,
): Promise<NodeChain> {
  const { timeoutMs, signal, meters } = opts;
  const node = new NodeClient({ url, timeoutMs, attempts: 1, ...(signal ? { signal } : {}), ...meters }, log);
  // one request: /v2/status names both (a node of every version since 5 does), and no stored block is asked again
  const status = await node.get('/status');
  const field = (name: string): unknown =>
    typeof status === 'object' && status !== null && !Array.isArray(status)
      ? (status as Record<string, unknown>)[name]
      : undefined;
  const networkId = field('network_id');
  const genesisHash = field('genesis_key_block_hash');
  if (typeof networkId !== 'string') throw badResponse('/status', `node ${url} sent no network_id in /v2/status`);
  if (typeof genesisHash !== 'string')
    throw badResponse('/status', `node ${url} sent no genesis_key_block_hash in /v2/status`);
  return { url, networkId, genesisHash };
}

/**
 * nodeChains asks every node which chain it serves, leaving out (and logging once each) a node that does not answer:
 * the nodes that do are compared (one of another chain that answers only later is refused at the next start, and kept
 * out meanwhile by the NodeSet's fork check and MAX_FORK_DEPTH). With `wait`, it asks again with backoff until at
 * least one answers (logged once, with the return): a populator with one node away of several starts on the others;
 * `attempts` bounds the asking (a one-shot command asks once and fails with MDW_NODE_UNREACHABLE when none answers).
 */
export async function nodeChains(
  urls: readonly string[],
  opts: { timeoutMs: number; wait: boolean; attempts?: number; signal?: AbortSignal; meters?: NodeMeters },
  log: Logger,
): Promise<NodeChain[]> {
  const askAll = async (): Promise<{ chains: NodeChain[]; away: { url: string; reason: string }[] }> => {
    const asked = await Promise.all(
      urls.map((url) =>
        nodeChain(url, opts, log).then(
          (chain) => ({ url, chain }),
          (err: unknown) => {
            if (!(err instanceof NodeError)) throw err;
            return { url, reason: errorMessage(err) };
          },
        ),
      ),
    );
    return {
      chains: asked.flatMap((a) => ('chain' in a ? [a.chain] : [])),
      away: asked.flatMap((a) => ('reason' in a ? [{ url: a.url, reason: a.reason }] : [])),
    };
  };
  const waiting = new AwayLog(
    log,
    { dependency: 'node', nodes: urls },
    { away: 'node unavailable: waiting for one to check the chain it serves', back: 'node available again' },
  );
  const { chains, away } = await retry(
    async () => {
      const answers = await askAll();
      if (opts.wait && answers.chains.length === 0) throw noNode(answers.away);
      return answers;
    },
    {
      ...DEPENDENCY_BACKOFF,
      attempts: opts.wait ? (opts.attempts ?? Infinity) : 1,
      signal: opts.signal,
      retryable: (err) => err instanceof NodeError,
      onRetry: waiting.onRetry,
    },
  );
  waiting.answered();
  for (const node of away)
    log.warn({ node: node.url, reason: node.reason }, 'node unavailable: its chain identity is not checked');
  return chains;
}

/** noNode: no node of NODE_URLS answered which chain it serves. */
function noNode(away: readonly { url: string; reason: string }[]): NodeError {
  return unreachable('/status', new Error(away.map((a) => `${a.url}: ${a.reason}`).join('; ')));
}
