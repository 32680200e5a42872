/** @module The websocket wire protocol: parse client messages, format answers and events. Pure. */
import { DecodeError, decode, type Prefix } from '../chain/encoding.ts';

/** Kind is what a client can subscribe to (the seed's payload values). */
export type Kind = 'key_blocks' | 'micro_blocks' | 'transactions' | 'tx_update' | 'object' | 'reorgs';

/** StreamKind is a kind that needs no target. */
export type StreamKind = Exclude<Kind, 'object'>;

/**
 * Spelling is how the client wrote the payload: the seed's `key_blocks` ("snake") or the
 * original middleware's `KeyBlocks` ("pascal"). Answers and events use the client's spelling.
 */
export type Spelling = 'snake' | 'pascal';

export type Op = 'subscribe' | 'unsubscribe';

/** ClientRequest is one valid client message. `target` is set exactly when kind is `object`. */
export interface ClientRequest {
  readonly op: Op;
  readonly kind: Kind;
  readonly spelling: Spelling;
  readonly target?: string;
}

export type ParseResult =
  { readonly ok: true; readonly request: ClientRequest } | { readonly ok: false; readonly error: string };

/** Kinds in the order the subscription list shows them. */
export const STREAM_KINDS: readonly StreamKind[] = [
  'key_blocks',
  'micro_blocks',
  'transactions',
  'tx_update',
  'reorgs',
];

/** Id kinds an object subscription may name: everything `account_transactions` records. */
export const OBJECT_PREFIXES: readonly Prefix[] = ['ak', 'ct', 'ok', 'oq', 'ch', 'nm', 'cm'];

const PASCAL_NAMES: Readonly<Record<Kind, string>> = {
  key_blocks: 'KeyBlocks',
  micro_blocks: 'MicroBlocks',
  transactions: 'Transactions',
  tx_update: 'TxUpdate',
  object: 'Object',
  reorgs: 'Reorgs',
};

const OPS: ReadonlyMap<string, Op> = new Map([
  ['subscribe', 'subscribe'],
  ['Subscribe', 'subscribe'],
  ['unsubscribe', 'unsubscribe'],
  ['Unsubscribe', 'unsubscribe'],
]);

const PAYLOADS: ReadonlyMap<string, { kind: Kind; spelling: Spelling }> = new Map(
  (Object.entries(PASCAL_NAMES) as [Kind, string][]).flatMap(
    ([kind, pascal]): [string, { kind: Kind; spelling: Spelling }][] => [
      [kind, { kind, spelling: 'snake' }],
      [pascal, { kind, spelling: 'pascal' }],
    ],
  ),
);

// Client messages are a few hundred bytes; anything much longer is not a subscription.
const MAX_TARGET_LENGTH = 200;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** subscriptionName is the kind's name in one spelling (`key_blocks` or `KeyBlocks`). */
export function subscriptionName(kind: Kind, spelling: Spelling): string {
  return spelling === 'snake' ? kind : PASCAL_NAMES[kind];
}

/**
 * parseClientMessage reads `{op, payload, target}` (or the array form `[op, payload, target]`
 * the original accepted). Text frames and UTF-8 binary frames are accepted; unknown keys ignored.
 */
export function parseClientMessage(data: string | Uint8Array): ParseResult {
  let text: string;
  try {
    text = typeof data === 'string' ? data : utf8.decode(data);
  } catch {
    return failure('message is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure('malformed JSON: expected {"op": ..., "payload": ..., "target": ...}');
  }
  const fields = messageFields(value);
  if (!fields) return failure('expected a JSON object {"op": ..., "payload": ..., "target": ...}');
  return parseFields(fields);
}

/** formatSubscriptions is the answer to every subscribe and unsubscribe: the current list. */
export function formatSubscriptions(names: readonly string[]): string {
  return JSON.stringify(names);
}

/** formatError is the answer to a message the server cannot act on; the connection stays open. */
export function formatError(message: string): string {
  return JSON.stringify({ error: message });
}

/** formatEvent frames one chain event; `payloadJson` is already serialised (exact integers). */
export function formatEvent(payloadJson: string, subscription: string): string {
  return `{"payload":${payloadJson},"subscription":${JSON.stringify(subscription)}}`;
}

function parseFields({ op, payload, target }: { op: unknown; payload: unknown; target: unknown }): ParseResult {
  if (op === undefined || op === null) return failure('missing "op": expected subscribe or unsubscribe');
  const parsedOp = typeof op === 'string' ? OPS.get(op) : undefined;
  if (!parsedOp) return failure(`unknown op ${describe(op)}: expected subscribe or unsubscribe`);
  if (payload === undefined || payload === null) return failure(`missing "payload": expected one of ${kindList()}`);
  const parsedPayload = typeof payload === 'string' ? PAYLOADS.get(payload) : undefined;
  if (!parsedPayload) return failure(`unknown payload ${describe(payload)}: expected one of ${kindList()}`);
  const { kind, spelling } = parsedPayload;
  if (kind !== 'object') return { ok: true, request: { op: parsedOp, kind, spelling } };
  if (target === undefined || target === null || target === '') {
    return failure(`payload ${describe(payload)} needs a "target": an ${prefixList()} id`);
  }
  const error = targetError(target);
  if (error) return failure(error);
  return { ok: true, request: { op: parsedOp, kind, spelling, target: target as string } };
}

function targetError(target: unknown): string | undefined {
  if (typeof target !== 'string') return `invalid target ${describe(target)}: expected an ${prefixList()} id`;
  if (target.length > MAX_TARGET_LENGTH) return `invalid target: longer than ${MAX_TARGET_LENGTH} characters`;
  try {
    decode(target, OBJECT_PREFIXES);
    return undefined;
  } catch (err) {
    if (err instanceof DecodeError) return `invalid target ${describe(target)}: ${err.message}`;
    throw err;
  }
}

function messageFields(value: unknown): { op: unknown; payload: unknown; target: unknown } | undefined {
  if (Array.isArray(value)) return { op: value[0], payload: value[1], target: value[2] };
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  return { op: record.op, payload: record.payload, target: record.target };
}

function failure(error: string): ParseResult {
  return { ok: false, error };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function kindList(): string {
  return [...PAYLOADS.keys()].join(', ');
}

function prefixList(): string {
  return OBJECT_PREFIXES.map((p) => `${p}_`).join('/');
}
