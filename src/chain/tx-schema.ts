/** @module The binary layout (RLP field order) and JSON names of the transaction types the serialiser knows. */

/**
 * FieldKind says how one JSON field maps to RLP: `id` a 33-byte tagged id, `int` an unsigned
 * integer, `ba`/`cb`/`st`/`pi`/`tx` encoded bytes, `str` raw bytes shown as text, `hex` raw bytes
 * shown as `0x…`, `signedTx` a signed tx shown as `{tx, signatures}`, `ttl` two RLP fields
 * (type, value) shown as `{type, value}`, `oq` a raw 32-byte query id, `pointers` name pointers,
 * `ctVersion` one RLP integer shown as `vm_version` + `abi_version`, `ids` a list of ids,
 * `delegates` two id lists shown as `{initiator, responder}`, `ss` encoded state trees, `update`
 * a serialised off-chain contract call shown as the node's `{op: "OffChainCallContract", …}`, `kv` a
 * sorted list of (key, value) byte strings shown as an object of texts, and `unshown` an integer the
 * node's JSON does not show (HCVoteTx's vote type, which the JSON's `type` overwrites: aetx.erl
 * serialize_for_client), so that only a builder that names it can serialise the type.
 */
export type FieldKind =
  | 'id'
  | 'int'
  | 'ba'
  | 'cb'
  | 'st'
  | 'pi'
  | 'tx'
  | 'str'
  | 'hex'
  | 'signedTx'
  | 'ttl'
  | 'oq'
  | 'pointers'
  | 'ctVersion'
  | 'ids'
  | 'delegates'
  | 'ss'
  | 'update'
  | 'kv'
  | 'unshown';

/** TxSchema is one (type, version) layout. */
export interface TxSchema {
  readonly type: string;
  readonly tag: number;
  readonly version: number;
  readonly fields: readonly (readonly [name: string, kind: FieldKind])[];
}

const ttlFields = [
  ['fee', 'int'],
  ['ttl', 'int'],
] as const;
const channelTail = [
  ['ttl', 'int'],
  ['fee', 'int'],
  ['nonce', 'int'],
] as const;
/** a mutual close's and a settlement's fields: the final amounts of both parties */
const channelFinalFields = [
  ['channel_id', 'id'],
  ['from_id', 'id'],
  ['initiator_amount_final', 'int'],
  ['responder_amount_final', 'int'],
  ...channelTail,
] as const;
/** a solo close's and a slash's fields: the state they claim and its proof of inclusion */
const channelDisputeFields = [
  ['channel_id', 'id'],
  ['from_id', 'id'],
  ['payload', 'tx'],
  ['poi', 'pi'],
  ...channelTail,
] as const;
/** a channel deposit's or withdrawal's fields after the channel and the party */
const channelAmountTail = [
  ['amount', 'int'],
  ['ttl', 'int'],
  ['fee', 'int'],
  ['state_hash', 'st'],
  ['round', 'int'],
  ['nonce', 'int'],
] as const;
/** a GAMetaTx's fields before its inner transaction (version 1 has a ttl between) */
const gaMetaHead = [
  ['ga_id', 'id'],
  ['auth_data', 'cb'],
  ['abi_version', 'int'],
  ['fee', 'int'],
  ['gas', 'int'],
  ['gas_price', 'int'],
] as const;

/** channelCreateFields are a ChannelCreateTx's: version 2 encodes its delegates per role (`delegates`), 1 as a list. */
function channelCreateFields(delegates: 'ids' | 'delegates'): TxSchema['fields'] {
  return [
    ['initiator_id', 'id'],
    ['initiator_amount', 'int'],
    ['responder_id', 'id'],
    ['responder_amount', 'int'],
    ['channel_reserve', 'int'],
    ['lock_period', 'int'],
    ['ttl', 'int'],
    ['fee', 'int'],
    ['delegate_ids', delegates],
    ['state_hash', 'st'],
    ['nonce', 'int'],
  ];
}

/**
 * TX_SCHEMAS lists each supported layout (node aeser field order, node-api.md §5); a type named
 * without a version takes its first layout. ChannelForceProgressTx's `update` is only the off-chain
 * contract call (the one update a force progress carries).
 */
export const TX_SCHEMAS: readonly TxSchema[] = [
  {
    type: 'SpendTx',
    tag: 12,
    version: 1,
    fields: [
      ['sender_id', 'id'],
      ['recipient_id', 'id'],
      ['amount', 'int'],
      ['fee', 'int'],
      ['ttl', 'int'],
      ['nonce', 'int'],
      ['payload', 'ba'],
    ],
  },
  {
    type: 'OracleRegisterTx',
    tag: 22,
    version: 1,
    fields: [
      ['account_id', 'id'],
      ['nonce', 'int'],
      ['query_format', 'str'],
      ['response_format', 'str'],
      ['query_fee', 'int'],
      ['oracle_ttl', 'ttl'],
      ...ttlFields,
      ['abi_version', 'int'],
    ],
  },
  {
    type: 'OracleExtendTx',
    tag: 25,
    version: 1,
    fields: [['oracle_id', 'id'], ['nonce', 'int'], ['oracle_ttl', 'ttl'], ...ttlFields],
  },
  {
    type: 'OracleQueryTx',
    tag: 23,
    version: 1,
    fields: [
      ['sender_id', 'id'],
      ['nonce', 'int'],
      ['oracle_id', 'id'],
      ['query', 'str'],
      ['query_fee', 'int'],
      ['query_ttl', 'ttl'],
      ['response_ttl', 'ttl'],
      ...ttlFields,
    ],
  },
  {
    type: 'OracleRespondTx',
    tag: 24,
    version: 1,
    fields: [
      ['oracle_id', 'id'],
      ['nonce', 'int'],
      ['query_id', 'oq'],
      ['response', 'str'],
      ['response_ttl', 'ttl'],
      ...ttlFields,
    ],
  },
  {
    type: 'NamePreclaimTx',
    tag: 33,
    version: 1,
    fields: [['account_id', 'id'], ['nonce', 'int'], ['commitment_id', 'id'], ...ttlFields],
  },
  {
    type: 'NameClaimTx',
    tag: 32,
    version: 2,
    fields: [
      ['account_id', 'id'],
      ['nonce', 'int'],
      ['name', 'str'],
      ['name_salt', 'int'],
      ['name_fee', 'int'],
      ...ttlFields,
    ],
  },
  {
    type: 'NameClaimTx',
    tag: 32,
    version: 1,
    fields: [['account_id', 'id'], ['nonce', 'int'], ['name', 'str'], ['name_salt', 'int'], ...ttlFields],
  },
  {
    type: 'NameUpdateTx',
    tag: 34,
    version: 1,
    fields: [
      ['account_id', 'id'],
      ['nonce', 'int'],
      ['name_id', 'id'],
      ['name_ttl', 'int'],
      ['pointers', 'pointers'],
      ['client_ttl', 'int'],
      ...ttlFields,
    ],
  },
  {
    type: 'NameTransferTx',
    tag: 36,
    version: 1,
    fields: [['account_id', 'id'], ['nonce', 'int'], ['name_id', 'id'], ['recipient_id', 'id'], ...ttlFields],
  },
  {
    type: 'NameRevokeTx',
    tag: 35,
    version: 1,
    fields: [['account_id', 'id'], ['nonce', 'int'], ['name_id', 'id'], ...ttlFields],
  },
  {
    type: 'ContractCreateTx',
    tag: 42,
    version: 1,
    fields: [
      ['owner_id', 'id'],
      ['nonce', 'int'],
      ['code', 'cb'],
      ['ct_version', 'ctVersion'],
      ...ttlFields,
      ['deposit', 'int'],
      ['amount', 'int'],
      ['gas', 'int'],
      ['gas_price', 'int'],
      ['call_data', 'cb'],
    ],
  },
  {
    type: 'ContractCallTx',
    tag: 43,
    version: 1,
    fields: [
      ['caller_id', 'id'],
      ['nonce', 'int'],
      ['contract_id', 'id'],
      ['abi_version', 'int'],
      ...ttlFields,
      ['amount', 'int'],
      ['gas', 'int'],
      ['gas_price', 'int'],
      ['call_data', 'cb'],
    ],
  },
  {
    type: 'ChannelCreateTx',
    tag: 50,
    version: 1,
    fields: channelCreateFields('ids'),
  },
  {
    type: 'ChannelCreateTx',
    tag: 50,
    version: 2,
    fields: channelCreateFields('delegates'),
  },
  {
    type: 'ChannelCloseMutualTx',
    tag: 53,
    version: 1,
    fields: channelFinalFields,
  },
  {
    type: 'ChannelDepositTx',
    tag: 51,
    version: 1,
    fields: [['channel_id', 'id'], ['from_id', 'id'], ...channelAmountTail],
  },
  {
    type: 'ChannelWithdrawTx',
    tag: 52,
    version: 1,
    fields: [['channel_id', 'id'], ['to_id', 'id'], ...channelAmountTail],
  },
  {
    type: 'ChannelCloseSoloTx',
    tag: 54,
    version: 1,
    fields: channelDisputeFields,
  },
  {
    type: 'ChannelSlashTx',
    tag: 55,
    version: 1,
    fields: channelDisputeFields,
  },
  {
    type: 'ChannelSettleTx',
    tag: 56,
    version: 1,
    fields: channelFinalFields,
  },
  {
    type: 'ChannelSnapshotSoloTx',
    tag: 59,
    version: 1,
    fields: [['channel_id', 'id'], ['from_id', 'id'], ['payload', 'tx'], ...channelTail],
  },
  {
    type: 'ChannelOffChainTx',
    tag: 57,
    version: 2,
    fields: [
      ['channel_id', 'id'],
      ['round', 'int'],
      ['state_hash', 'st'],
    ],
  },
  {
    type: 'ChannelForceProgressTx',
    tag: 521,
    version: 1,
    fields: [
      ['channel_id', 'id'],
      ['from_id', 'id'],
      ['payload', 'tx'],
      ['round', 'int'],
      ['update', 'update'],
      ['state_hash', 'st'],
      ['offchain_trees', 'ss'],
      ...channelTail,
    ],
  },
  {
    type: 'ChannelSetDelegatesTx',
    tag: 501,
    version: 1,
    fields: [
      ['channel_id', 'id'],
      ['from_id', 'id'],
      ['initiator_delegate_ids', 'ids'],
      ['responder_delegate_ids', 'ids'],
      ['payload', 'tx'],
      ['state_hash', 'st'],
      ['round', 'int'],
      ...channelTail,
    ],
  },
  {
    type: 'GAAttachTx',
    tag: 80,
    version: 1,
    fields: [
      ['owner_id', 'id'],
      ['nonce', 'int'],
      ['code', 'cb'],
      ['auth_fun', 'hex'],
      ['ct_version', 'ctVersion'],
      ...ttlFields,
      ['gas', 'int'],
      ['gas_price', 'int'],
      ['call_data', 'cb'],
    ],
  },
  {
    type: 'GAMetaTx',
    tag: 81,
    version: 2,
    fields: [...gaMetaHead, ['tx', 'signedTx']],
  },
  {
    type: 'GAMetaTx',
    tag: 81,
    version: 1,
    fields: [...gaMetaHead, ['ttl', 'int'], ['tx', 'signedTx']],
  },
  {
    type: 'PayingForTx',
    tag: 82,
    version: 1,
    fields: [
      ['payer_id', 'id'],
      ['nonce', 'int'],
      ['fee', 'int'],
      ['tx', 'signedTx'],
    ],
  },
  {
    // node 7.3's hyperchain epoch vote (aec_hc_vote_tx.erl); its vote type is `vote_type` to a builder only
    type: 'HCVoteTx',
    tag: 83,
    version: 1,
    fields: [
      ['voter_id', 'id'],
      ['epoch', 'int'],
      ['vote_type', 'unshown'],
      ['data', 'kv'],
    ],
  },
];

/** OFF_CHAIN_TX_TYPE is the one listed type no micro block holds: the off-chain state a channel payload carries. */
const OFF_CHAIN_TX_TYPE = 'ChannelOffChainTx';

/** CHAIN_TX_TYPES are the types a micro block can hold, each once (test/unit/chain/node-tx-types.test.ts checks them against the node's). */
export const CHAIN_TX_TYPES: readonly string[] = [...new Set(TX_SCHEMAS.map((s) => s.type))].filter(
  (t) => t !== OFF_CHAIN_TX_TYPE,
);

/** SIGNED_TX_TAG is the tag of the signed-transaction wrapper `[11, 1, [signatures], tx]`. */
export const SIGNED_TX_TAG = 11;

/** OFF_CHAIN_CALL_TAG is the tag of a channel's off-chain contract call update (version 1). */
export const OFF_CHAIN_CALL_TAG = 574;

/** OFF_CHAIN_CALL_FIELDS: the fields of an `OffChainCallContract` update, in RLP order after tag and version. */
export const OFF_CHAIN_CALL_FIELDS = [
  ['caller_id', 'id'],
  ['contract_id', 'id'],
  ['abi_version', 'int'],
  ['amount', 'int'],
  ['call_data', 'cb'],
  ['call_stack', 'ints'],
  ['gas_price', 'int'],
  ['gas', 'int'],
] as const;

/** Id tags of the binary id format and the prefix each is shown with. */
export const ID_TAGS = { ak: 1, nm: 2, cm: 3, ok: 4, ct: 5, ch: 6 } as const;

/** IdPrefix is a prefix that has a binary id tag. */
export type IdPrefix = keyof typeof ID_TAGS;

/**
 * SCHEMAS_BY_KEY: the layouts of each type name and of each tag, in listed order. schemaFor is asked for every
 * transaction the populator renders back and keeps the amounts of, where a filter of the whole list made an array.
 */
const SCHEMAS_BY_KEY = new Map<string | number, TxSchema[]>();
for (const s of TX_SCHEMAS)
  for (const key of [s.type, s.tag]) {
    const listed = SCHEMAS_BY_KEY.get(key);
    if (listed === undefined) SCHEMAS_BY_KEY.set(key, [s]);
    else listed.push(s);
  }

/** schemaFor finds the layout of a type name (its first listed version) or of a tag and version. */
export function schemaFor(typeOrTag: string | number, version?: number): TxSchema | undefined {
  const matches = SCHEMAS_BY_KEY.get(typeOrTag);
  if (matches === undefined) return undefined;
  if (version !== undefined) return matches.find((s) => s.version === version);
  return matches[0];
}
