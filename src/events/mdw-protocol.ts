/** @module ae_mdw's websocket protocol (on /v2/websocket and /v3/websocket): client messages, replies, error strings. Pure. */
import { isEncoded } from '../chain/encoding.ts';

/** Channel is what an ae_mdw client subscribes to (`Epochs`, a hyperchain's new epochs, and `Reorgs`, forks, are ours). */
export type Channel = 'KeyBlocks' | 'MicroBlocks' | 'Transactions' | 'Object' | 'Epochs' | 'Reorgs';
/** Source: mdw (indexed, mdw's shapes) or node (the node's shapes). A subscription without one gets both. */
export type Source = 'mdw' | 'node';

export type MdwRequest =
  | {
      readonly op: 'Subscribe' | 'Unsubscribe';
      readonly channel: Channel;
      readonly target?: string;
      readonly source?: Source;
      /** Subscribe only, beyond ae_mdw: replay the stored events from this height, then go live */
      readonly fromHeight?: number;
    }
  | { readonly op: 'Ping' };

const CHANNELS: ReadonlySet<string> = new Set([
  'KeyBlocks',
  'MicroBlocks',
  'Transactions',
  'Object',
  'Epochs',
  'Reorgs',
]);
/** the channels only the middleware sends: the node has no message of an epoch or a fork */
const MDW_ONLY: ReadonlySet<string> = new Set(['Epochs', 'Reorgs']);
const TARGET_PREFIXES = ['ak', 'ct', 'ok', 'oq', 'nm', 'ch', 'kh', 'mh', 'th', 'cm'] as const;

/** parseMdwMessage reads one client message, or the error string ae_mdw answers it with. */
export function parseMdwMessage(text: string): { ok: true; request: MdwRequest } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const at = /position (\d+)/.exec((err as Error).message)?.[1] ?? '0';
    return { ok: false, error: `invalid json message: at ${at}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: `invalid subscription: ${text.slice(0, 100)}` };
  const { op, payload, target, source, from_height: fromHeight } = value as Record<string, unknown>;
  if (op === 'Ping') return { ok: true, request: { op: 'Ping' } };
  if (op !== 'Subscribe' && op !== 'Unsubscribe') return { ok: false, error: `invalid operation: ${String(op)}` };
  if (typeof payload !== 'string' || !CHANNELS.has(payload))
    return { ok: false, error: `invalid payload: ${String(payload)}` };
  if (source !== undefined && source !== 'mdw' && (source !== 'node' || MDW_ONLY.has(payload)))
    return { ok: false, error: `invalid source: ${String(source)}` };
  // ae_mdw ignores the fields it does not know: so does Unsubscribe here
  const replayFrom = op === 'Subscribe' ? fromHeight : undefined;
  if (
    replayFrom !== undefined &&
    !(typeof replayFrom === 'number' && Number.isSafeInteger(replayFrom) && replayFrom >= 0)
  )
    return { ok: false, error: `invalid from_height: ${JSON.stringify(replayFrom)}` };
  // forks are told as they are followed: there is no stored stream of them to replay
  if (replayFrom !== undefined && payload === 'Reorgs') return { ok: false, error: 'from_height not taken by Reorgs' };
  const base = {
    op: op as 'Subscribe' | 'Unsubscribe',
    source: source as Source | undefined,
    ...(replayFrom === undefined ? {} : { fromHeight: replayFrom }),
  };
  const channel = payload as Channel;
  if (channel !== 'Object') return { ok: true, request: { ...base, channel } };
  if (target === undefined || target === null) return { ok: false, error: 'missing field: target' };
  if (typeof target !== 'string' || !isEncoded(target, TARGET_PREFIXES))
    return { ok: false, error: `invalid target: ${String(target)}` };
  return { ok: true, request: { ...base, channel, target } };
}

/** mdwEvent frames one event: `{payload, source, subscription[, target]}`; the payload is JSON text. */
export function mdwEvent(payloadJson: string, source: Source, subscription: Channel, target?: string): string {
  const tail = target === undefined ? '' : `,"target":${JSON.stringify(target)}`;
  return `{"payload":${payloadJson},"source":"${source}","subscription":"${subscription}"${tail}}`;
}

/** pong is the answer to Ping: a sample of the subscriptions (ae_mdw's MAX_PING_LIMIT first ones) and their count. */
export function pong(sample: readonly string[], count: number): string {
  return JSON.stringify({
    payload: 'Pong',
    subscriptions: sample,
    count,
    ...(sample.length < count ? { has_more: true } : {}),
  });
}
