/**
 * @module AEX-141's standard events (topics after topic 0, as ae_mdw reads them): ownership
 * (Transfer, Mint, Burn, TemplateMint), templates (TemplateCreation, TemplateDeletion) and limits
 * (TokenLimit, TemplateLimit, EditionLimit and their decreases). Approvals change no state and are
 * not kept. Which contracts' events count (registered AEX-141 collections) is decided when they
 * are written. Pure.
 */
import { callEvents, eventTopic, topicId, type CallEvent } from '../rows/call-events.ts';
import type { Aex141Event, Aex141EventRow, Aex141Kind } from '../../db/writes/token-rows.ts';
import type { ContractCallRow } from '../rows/rows.ts';

type Reader = (topics: readonly bigint[], data: Buffer) => Omit<Aex141Event, 'contractId'> | undefined;

const NONE = { fromId: null, toId: null, tokenId: null, templateId: null, limit: null, edition: null } as const;
const ak = (t: bigint | undefined): string | undefined => (t === undefined ? undefined : topicId(t, 'ak'));
const n = (t: bigint): string => t.toString();

/** READERS by topic 0: each takes the topics after topic 0, of the standard's arity only. */
const READERS = new Map<bigint, Reader>([
  [
    eventTopic('Transfer'),
    ([from, to, token]) => {
      const [f, t] = [ak(from), ak(to)];
      return f && t && token !== undefined
        ? { ...NONE, kind: 'transfer', fromId: f, toId: t, tokenId: n(token) }
        : undefined;
    },
  ],
  [eventTopic('Mint'), ([to, token]) => owned('mint', { toId: ak(to) }, token)],
  [eventTopic('Burn'), ([owner, token]) => owned('burn', { fromId: ak(owner) }, token)],
  [
    eventTopic('TemplateMint'),
    ([to, template, token], data) => {
      const edition = data.length > 0 ? data.toString('utf8') : null;
      return template === undefined
        ? undefined
        : owned('template_mint', { toId: ak(to), templateId: n(template), edition }, token);
    },
  ],
  [eventTopic('TemplateCreation'), ([template]) => templateEvent('template_creation', template)],
  [eventTopic('TemplateDeletion'), ([template]) => templateEvent('template_deletion', template)],
  [eventTopic('TokenLimit'), ([limit]) => limitEvent('token_limit', undefined, limit)],
  [eventTopic('TokenLimitDecrease'), ([, limit]) => limitEvent('token_limit', undefined, limit)],
  [eventTopic('TemplateLimit'), ([limit]) => limitEvent('template_limit', undefined, limit)],
  [eventTopic('TemplateLimitDecrease'), ([, limit]) => limitEvent('template_limit', undefined, limit)],
  [eventTopic('EditionLimit'), ([template, limit]) => limitEvent('edition_limit', template, limit)],
  [eventTopic('EditionLimitDecrease'), ([template, , limit]) => limitEvent('edition_limit', template, limit)],
]);

/** ARITY: the number of topics after topic 0 each event has. */
const ARITY = new Map<bigint, number>(
  (
    [
      ['Transfer', 3],
      ['Mint', 2],
      ['Burn', 2],
      ['TemplateMint', 3],
      ['TemplateCreation', 1],
      ['TemplateDeletion', 1],
      ['TokenLimit', 1],
      ['TokenLimitDecrease', 2],
      ['TemplateLimit', 1],
      ['TemplateLimitDecrease', 2],
      ['EditionLimit', 2],
      ['EditionLimitDecrease', 3],
    ] as const
  ).map(([name, arity]) => [eventTopic(name), arity]),
);

function owned(
  kind: Aex141Kind,
  who: { fromId?: string | undefined; toId?: string | undefined; templateId?: string; edition?: string | null },
  token: bigint | undefined,
): Omit<Aex141Event, 'contractId'> | undefined {
  if (token === undefined || (who.fromId === undefined && who.toId === undefined)) return undefined;
  return { ...NONE, ...who, fromId: who.fromId ?? null, toId: who.toId ?? null, kind, tokenId: n(token) };
}

function templateEvent(kind: Aex141Kind, template: bigint | undefined): Omit<Aex141Event, 'contractId'> | undefined {
  return template === undefined ? undefined : { ...NONE, kind, templateId: n(template) };
}

function limitEvent(
  kind: Aex141Kind,
  template: bigint | undefined,
  limit: bigint | undefined,
): Omit<Aex141Event, 'contractId'> | undefined {
  if (limit === undefined || (kind === 'edition_limit' && template === undefined)) return undefined;
  return { ...NONE, kind, templateId: template === undefined ? null : n(template), limit: n(limit) };
}

/** readAex141Event decodes one event of the standard, or undefined (another event, or not the standard's shape). */
export function readAex141Event(event: CallEvent): Aex141Event | undefined {
  const [topic0, ...args] = event.topics;
  if (topic0 === undefined || ARITY.get(topic0) !== args.length) return undefined;
  const read = READERS.get(topic0)!(args, event.data);
  return read && { contractId: event.address, ...read };
}

/** aex141Candidates finds the events of calls that have AEX-141's shape, whoever emitted them. */
export function aex141Candidates(calls: readonly ContractCallRow[]): Aex141EventRow[] {
  const rows: Aex141EventRow[] = [];
  for (const call of calls) {
    if (call.callInfo === null) continue;
    const { height, microIndex, txIndex, txHash } = call;
    for (const event of callEvents(call.callInfo)) {
      const read = readAex141Event(event);
      if (read) rows.push({ height, microIndex, txIndex, txHash, logIdx: event.logIdx, ...read });
    }
  }
  return rows;
}
