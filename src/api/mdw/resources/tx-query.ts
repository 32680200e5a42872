/**
 * @module ae_mdw's /v3/transactions filters turned into one TxFilter: `type`, `type_group`,
 * generic ids, `<field>` and `<type>.<field>` ids (inner transactions of GAMetaTx and PayingForTx
 * included), `entrypoint`; everything given holds together. Pure.
 */
import { isNameText, nameId } from '../../../chain/derived-ids.ts';
import { isEncoded, type Prefix } from '../../../chain/encoding.ts';
import { TX_SCHEMAS } from '../../../chain/tx-schema.ts';
import { CREATED_ID_KEYS } from '../../../chain/tx-fields.ts';
import type { IdCondition, IdMatch, TxFilter } from '../../../db/queries/transaction-filter.ts';
import { v3BadRequest } from './mdw-errors.ts';
import type { Query } from './page.ts';
import { all } from './mdw-params.ts';

/** TX_TYPE_NAMES maps ae_mdw's snake type names to the node's (HCVoteTx, which ae_mdw lacks, by the same rule). */
export const TX_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ['spend', 'SpendTx'],
  ['oracle_register', 'OracleRegisterTx'],
  ['oracle_extend', 'OracleExtendTx'],
  ['oracle_query', 'OracleQueryTx'],
  ['oracle_response', 'OracleRespondTx'],
  ['name_preclaim', 'NamePreclaimTx'],
  ['name_claim', 'NameClaimTx'],
  ['name_update', 'NameUpdateTx'],
  ['name_transfer', 'NameTransferTx'],
  ['name_revoke', 'NameRevokeTx'],
  ['contract_create', 'ContractCreateTx'],
  ['contract_call', 'ContractCallTx'],
  ['channel_create', 'ChannelCreateTx'],
  ['channel_deposit', 'ChannelDepositTx'],
  ['channel_withdraw', 'ChannelWithdrawTx'],
  ['channel_close_mutual', 'ChannelCloseMutualTx'],
  ['channel_close_solo', 'ChannelCloseSoloTx'],
  ['channel_slash', 'ChannelSlashTx'],
  ['channel_settle', 'ChannelSettleTx'],
  ['channel_snapshot_solo', 'ChannelSnapshotSoloTx'],
  ['channel_force_progress', 'ChannelForceProgressTx'],
  ['channel_set_delegates', 'ChannelSetDelegatesTx'],
  ['ga_attach', 'GAAttachTx'],
  ['ga_meta', 'GAMetaTx'],
  ['paying_for', 'PayingForTx'],
  ['hc_vote', 'HCVoteTx'],
]);

/** UNKNOWN_TYPE_NAME: how the node names a type (`…Tx`), the one spelling a type this version does not know is found by. */
const UNKNOWN_TYPE_NAME = /^[A-Z][A-Za-z0-9]{0,60}Tx$/;

/** NODE_TX_TYPES: the node's type names, which nodeTxType answers. */
const NODE_TX_TYPES: ReadonlySet<string> = new Set(TX_TYPE_NAMES.values());

/** snakeTxType is ae_mdw's name of a node type with `_tx` (`SpendTx` → `spend_tx`), as count objects key them. */
export function snakeTxType(nodeType: string): string {
  for (const [snake, node] of TX_TYPE_NAMES) if (node === nodeType) return `${snake}_tx`;
  return nodeType;
}

const GROUPS: ReadonlyMap<string, readonly string[]> = new Map(
  ['channel', 'contract', 'ga', 'name', 'oracle', 'paying_for', 'spend'].map((g) => [
    g,
    [...TX_TYPE_NAMES].filter(([snake]) => snake === g || snake.startsWith(`${g}_`)).map(([, node]) => node),
  ]),
);

/** Generic id parameters: the prefixes each takes (names also as plain names). */
const GENERIC: ReadonlyMap<string, readonly Prefix[]> = new Map<string, readonly Prefix[]>([
  ['account', ['ak']],
  ['contract', ['ct']],
  ['channel', ['ch']],
  ['oracle', ['ok']],
  ['name', ['nm']],
]);

const WRAPPERS = ['GAMetaTx', 'PayingForTx'];
const ID_KINDS: ReadonlySet<string> = new Set(['id']);

/** NODE_ID_FIELDS: the id fields of each node type, from the serialiser's layouts. */
const NODE_ID_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const s of TX_SCHEMAS) {
    const set = map.get(s.type) ?? new Set<string>();
    for (const [name, kind] of s.fields) if (ID_KINDS.has(kind)) set.add(name);
    map.set(s.type, set);
  }
  return map;
})();

/** ID_FIELDS: NODE_ID_FIELDS plus the ids mdw derives (the created contract, oracle, channel, name, query). */
const ID_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map([...NODE_ID_FIELDS].map(([type, fields]) => [type, new Set(fields)]));
  for (const [type, field] of Object.entries(CREATED_ID_KEYS)) map.get(type)?.add(field);
  return map;
})();

/**
 * OWN_FIELD_MATCHES: an id in one of the node's id fields of the outer transaction, each field with the types that
 * have it. ae_mdw's `/transactions/count?id=` counts these only (`Txs.count_id_type` sums its per-field counters): not
 * the transaction that created the id (the explorer adds one for a channel's creation itself), nor an id inside a
 * GAMetaTx or PayingForTx.
 */
const OWN_FIELD_MATCHES: readonly IdMatch[] = (() => {
  const typesOf = new Map<string, string[]>();
  for (const [type, fields] of NODE_ID_FIELDS)
    for (const f of fields) typesOf.set(f, [...(typesOf.get(f) ?? []), type]);
  return [...typesOf].map(([field, txTypes]) => ({ txTypes, fields: [field] }));
})();

/** Parameters that are not filters (paging, rendering); `_`-prefixed ones are the client's own. */
const NOT_FILTERS: ReadonlySet<string> = new Set([
  'limit',
  'cursor',
  'rev',
  'direction',
  'scope',
  'int-as-string',
  'expand',
  'tx_hash',
]);

/**
 * parseTxFilter reads every filter of a /v3/transactions request (or its count: with `count`, an `id` matches as
 * ae_mdw counts it, see OWN_FIELD_MATCHES).
 */
export function parseTxFilter(query: Query, { count = false } = {}): Omit<TxFilter, 'from' | 'to'> {
  let types: Set<string> | undefined;
  const ids: IdCondition[] = [];
  let entrypoint: string | undefined;
  for (const [name, value] of Object.entries(query)) {
    if (NOT_FILTERS.has(name) || name.startsWith('_') || value === undefined) continue;
    const values = all(value);
    if (name === 'type' || name === 'tx_type') {
      types ??= new Set();
      for (const v of values) types.add(nodeTxType(v));
    } else if (name === 'type_group') {
      types ??= new Set();
      for (const v of values) {
        const group = GROUPS.get(v);
        if (!group) throw v3BadRequest(`invalid transaction group: ${v}`);
        for (const t of group) types.add(t);
      }
    } else if (name === 'entrypoint') {
      entrypoint = values.at(-1);
    } else if (name === 'id') {
      for (const v of values) ids.push({ id: anyId(v), matches: count ? OWN_FIELD_MATCHES : [] });
    } else if (GENERIC.has(name)) {
      for (const v of values) ids.push({ id: genericId(name, v), matches: [] });
    } else if (name.includes('.')) {
      const matches = typedFieldMatches(name);
      for (const v of values) ids.push({ id: anyId(v), matches });
    } else if (isFieldOfSomeType(name)) {
      for (const v of values) ids.push({ id: anyId(v), matches: [{ fields: [name, `tx.${name}`] }] });
    } else {
      throw v3BadRequest(`invalid query: ${name}`);
    }
  }
  return { types: types && [...types], ids, entrypoint };
}

/**
 * nodeTxType reads a transaction type in any of ae_mdw's spellings (`SpendTx`, `spend_tx`,
 * `spend`, `Spend`) as the node's name, a type this version does not know in the node's spelling only (`…Tx`);
 * else `invalid transaction type: <value>`.
 */
export function nodeTxType(text: string): string {
  // as Elixir's Macro.underscore, which ae_mdw applies: `GAMetaTx` → `ga_meta_tx`
  const snake = text
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
  const base = snake.replace(/_tx$/, '');
  const camel = `${base
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Tx`;
  const found = [text, TX_TYPE_NAMES.get(base), camel].find((t) => t !== undefined && NODE_TX_TYPES.has(t));
  if (found !== undefined) return found;
  // a type this version does not know is stored under the node's name of it, which finds it (issue 39)
  if (UNKNOWN_TYPE_NAME.test(text)) return text;
  throw v3BadRequest(`invalid transaction type: ${text}`);
}

function anyId(value: string): string {
  if (isEncoded(value, ['ak', 'ct', 'ok', 'ch', 'nm', 'oq', 'cm'])) return value;
  throw v3BadRequest(`invalid id: ${value}`);
}

function genericId(param: string, value: string): string {
  if (param === 'name' && !value.includes('_')) {
    if (!isNameText(value)) throw v3BadRequest(`invalid name: ${value}`);
    return nameId(value.endsWith('.chain') ? value : `${value}.chain`);
  }
  if (isEncoded(value, GENERIC.get(param)!)) return value;
  throw v3BadRequest(`invalid id: ${value}`);
}

/** typedFieldMatches: `spend.sender_id` is the field of a SpendTx, or of a SpendTx inside GAMetaTx or PayingForTx. */
function typedFieldMatches(param: string): IdMatch[] {
  const [typeName, field] = param.split('.', 2) as [string, string];
  const type = TX_TYPE_NAMES.get(typeName.replace(/_tx$/, ''));
  if (!type) throw v3BadRequest(`invalid transaction type: ${typeName}`);
  if (!ID_FIELDS.get(type)?.has(field)) throw v3BadRequest(`invalid transaction field: ${param}`);
  return [
    { txTypes: [type], fields: [field] },
    { txTypes: WRAPPERS, fields: [`tx.${field}`], innerType: type },
  ];
}

function isFieldOfSomeType(name: string): boolean {
  for (const fields of ID_FIELDS.values()) if (fields.has(name)) return true;
  return false;
}
