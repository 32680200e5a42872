/**
 * @module A webhook's filters (docs/webhooks.md, "Filters") read from a request and turned into what the populator
 * matches: an id's key with the transaction types and the fields that count. Pure.
 */
import { badRequest } from '../base/errors.ts';
import { decode, isEncoded } from '../chain/encoding.ts';
import { isNameText, nameId } from '../chain/derived-ids.ts';
import { eventTopic } from '../chain/event-topic.ts';
import { idKey, isKnownTxType, txTypeCode } from '../chain/id-key.ts';

/** MatchKey is one filter as the populator matches it against a transaction's account_transactions rows. */
export interface MatchKey {
  readonly idKey: Buffer;
  /** the outer transaction's type codes that count; null: every type */
  readonly txTypes: readonly number[] | null;
  /** a regular expression over the row's fields (space-separated); null: any field */
  readonly fieldsRe: string | null;
  /** an event filter's contract (ct_…), matched against the batch's call logs instead; null: a transactions filter */
  readonly logContract: string | null;
  /** an event filter's topic 0 (eventTopic) */
  readonly logTopic: string | null;
  /** an account (its public key as a decimal integer) that one of the topics at `logAccountTopics` must be */
  readonly logAccount: string | null;
  readonly logAccountTopics: readonly number[] | null;
  /** the delivery's type of an entry matched */
  readonly logDelivery: 'contract_log' | 'aex9_transfer' | 'aex141_transfer' | null;
}

/** MAX_EVENT_NAME bounds an event's name (a Sophia constructor name). */
const MAX_EVENT_NAME = 200;

/** MAX_FILTERS bounds the filters of one hook: each is a row the populator matches every batch against. */
export const MAX_FILTERS = 100;

/** The fields an account receives in (a spend's, a name transfer's recipient), inner transactions' included. */
const IN_FIELDS = '(^| )(tx\\.)*recipient_id( |$)';
/** The fields of the account that signs or pays: what it sends. */
const OUT_FIELDS = '(^| )(tx\\.)*(sender_id|account_id|caller_id|owner_id|from_id|initiator_id|payer_id|ga_id)( |$)';

/** parseFilters reads the request's `filters` (a non-empty array) into match keys, or throws a 400 saying what is wrong. */
export function parseFilters(value: unknown): MatchKey[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('filters: expected a non-empty array');
  if (value.length > MAX_FILTERS) throw badRequest(`filters: at most ${MAX_FILTERS}`);
  return value.map((f, i) => parseFilter(f, `filters[${i}]`));
}

function parseFilter(f: unknown, at: string): MatchKey {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) throw badRequest(`${at}: expected an object`);
  const filter = f as Record<string, unknown>;
  // a token filter may name an account too: the transfers to or from it
  const token = 'aex9' in filter || 'aex141' in filter;
  const kinds = ['account', 'name', 'oracle', 'contract', 'aex9', 'aex141'].filter(
    (k) => k in filter && !(k === 'account' && token),
  );
  if (kinds.length !== 1)
    throw badRequest(
      `${at}: expected exactly one of account, name, oracle, contract, aex9, aex141 (see docs/webhooks.md)`,
    );
  const kind = kinds[0]!;
  const allowed =
    kind === 'account'
      ? ['account', 'direction', 'types']
      : kind === 'contract'
        ? ['contract', 'event' in filter ? 'event' : 'types']
        : kind === 'aex9' || kind === 'aex141'
          ? [kind, 'account', 'direction']
          : [kind];
  const unknown = Object.keys(filter).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw badRequest(`${at}: unknown field(s) for a ${kind} filter: ${unknown.join(', ')}`);
  switch (kind) {
    case 'account':
      return {
        idKey: key(filter.account, ['ak'], `${at}.account`),
        txTypes: types(filter.types, `${at}.types`),
        fieldsRe: direction(filter.direction, `${at}.direction`),
        ...NO_LOG,
      };
    case 'name': {
      if (typeof filter.name !== 'string' || !isNameText(filter.name))
        throw badRequest(`${at}.name: expected a name such as example.chain`);
      return { idKey: idKey(nameId(filter.name)), txTypes: null, fieldsRe: null, ...NO_LOG };
    }
    case 'oracle':
      return {
        idKey: key(filter.oracle, ['ok'], `${at}.oracle`),
        txTypes: [txTypeCode('OracleQueryTx')],
        fieldsRe: null,
        ...NO_LOG,
      };
    case 'aex9':
    case 'aex141':
      return transfersFilter(filter, kind, at);
    default: {
      const contractKey = key(filter.contract, ['ct'], `${at}.contract`);
      if ('event' in filter)
        return {
          idKey: contractKey,
          txTypes: null,
          fieldsRe: null,
          logContract: filter.contract as string,
          logTopic: eventTopic(eventName(filter.event, `${at}.event`)),
          logAccount: null,
          logAccountTopics: null,
          logDelivery: 'contract_log',
        };
      return { idKey: contractKey, txTypes: types(filter.types, `${at}.types`), fieldsRe: null, ...NO_LOG };
    }
  }
}

const NO_LOG = {
  logContract: null,
  logTopic: null,
  logAccount: null,
  logAccountTopics: null,
  logDelivery: null,
} as const;

/** A token's Transfer event's topics: the event, the sender, the recipient, the amount (AEX-9) or token id (AEX-141). */
const TRANSFER_SENDER = 1;
const TRANSFER_RECIPIENT = 2;

/**
 * transfersFilter: an AEX-9 token's or an AEX-141 collection's Transfer events, those to (`in`), from (`out`) or of
 * (`any`) an account when one is named.
 */
function transfersFilter(filter: Record<string, unknown>, kind: 'aex9' | 'aex141', at: string): MatchKey {
  const token = filter[kind];
  const tokenKey = key(token, ['ct'], `${at}.${kind}`);
  const hasAccount = filter.account !== undefined;
  if (!hasAccount && filter.direction !== undefined) throw badRequest(`${at}.direction: only with an account`);
  const sides =
    filter.direction === 'in'
      ? [TRANSFER_RECIPIENT]
      : filter.direction === 'out'
        ? [TRANSFER_SENDER]
        : filter.direction === undefined || filter.direction === 'any'
          ? [TRANSFER_SENDER, TRANSFER_RECIPIENT]
          : undefined;
  if (sides === undefined) throw badRequest(`${at}.direction: expected in, out or any`);
  // the node prints an address topic as its public key's unsigned integer
  const account = hasAccount ? (key(filter.account, ['ak'], `${at}.account`), decode(filter.account as string)) : null;
  return {
    idKey: tokenKey,
    txTypes: null,
    fieldsRe: null,
    logContract: token as string,
    logTopic: eventTopic('Transfer'),
    logAccount: account === null ? null : BigInt(`0x${account.bytes.toString('hex')}`).toString(),
    logAccountTopics: account === null ? null : sides,
    logDelivery: kind === 'aex9' ? 'aex9_transfer' : 'aex141_transfer',
  };
}

function eventName(value: unknown, at: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_']*$/.test(value) || value.length > MAX_EVENT_NAME)
    throw badRequest(`${at}: expected an event's name such as Transfer`);
  return value;
}

function key(value: unknown, prefixes: readonly ('ak' | 'ok' | 'ct')[], at: string): Buffer {
  if (!isEncoded(value, prefixes)) throw badRequest(`${at}: expected an ${prefixes.join(' or ')}_ id`);
  const k = idKey(value);
  if (k.length === 0) throw badRequest(`${at}: not a valid id: ${value}`);
  return k;
}

function types(value: unknown, at: string): number[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((t) => typeof t === 'string' && isKnownTxType(t)))
    throw badRequest(`${at}: expected a non-empty array of transaction types such as SpendTx`);
  return value.map((t: string) => txTypeCode(t));
}

function direction(value: unknown, at: string): string | null {
  if (value === undefined || value === 'any') return null;
  if (value === 'in') return IN_FIELDS;
  if (value === 'out') return OUT_FIELDS;
  throw badRequest(`${at}: expected in, out or any`);
}
