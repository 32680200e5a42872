/**
 * @module JSON schemas (OpenAPI 3.0 dialect) of every answer our routes give, as components and
 * per-route shapes. A test validates real answers of every route against them. Pure.
 */
import { PROTOCOL_REPORT_SCHEMA } from '../status/sync-report.ts';
import { EPOCH_REPORT_SCHEMA } from '../status/current-epoch.ts';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const int: Schema = { type: 'integer' };
const str: Schema = { type: 'string' };
/** an exact decimal string (amounts the original sent as strings) */
const decimal: Schema = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' };
const encoded = (prefix: string): Schema => ({ type: 'string', pattern: `^${prefix}_[1-9A-HJ-NP-Za-km-z]+$` });
const obj = (properties: Record<string, Schema>, optional: readonly string[] = []): Schema => ({
  type: 'object',
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });
/** any JSON value, null included (the decoded values of contract calls) */
const anyValue: Schema = {};
const array = (items: Schema): Schema => ({ type: 'array', items });
const map = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });

const keyBlockFields = {
  hash: encoded('kh'),
  height: int,
  prev_hash: str,
  prev_key_hash: encoded('kh'),
  state_hash: encoded('bs'),
  miner: encoded('ak'),
  beneficiary: encoded('ak'),
  target: int,
  time: int,
  version: int,
};

/** SCHEMAS are the components every route shape refers to. */
export const SCHEMAS: Record<string, Schema> = {
  /** the node's KeyBlock */
  KeyBlock: obj({ ...keyBlockFields, nonce: int, pow: array(int), info: str }, ['nonce', 'pow', 'info']),
  /** the node's MicroBlockHeader */
  MicroBlockHeader: obj({
    hash: encoded('mh'),
    height: int,
    pof_hash: str,
    prev_hash: str,
    prev_key_hash: encoded('kh'),
    signature: encoded('sg'),
    state_hash: encoded('bs'),
    time: int,
    txs_hash: encoded('bx'),
    version: int,
  }),
  /** the node's Tx object: a type and its fields */
  Tx: { type: 'object', required: ['type'], properties: { type: str, version: int } },
  /** the node's GenericSignedTx (the original's JT); `signatures` is absent where the node omits it */
  SignedTx: obj(
    { block_height: int, block_hash: str, hash: encoded('th'), signatures: array(encoded('sg')), tx: ref('Tx') },
    ['signatures'],
  ),
  /** the original's JTL */
  TxList: obj({ transactions: array(ref('SignedTx')) }),
  /**
   * the GenericSignedTx a 7.x node serves, with `encoded_tx` (the whole signed transaction); `encoded_tx` is absent
   * for a transaction the node sent without it (nodes before 7.x) and the middleware kept as JSON
   */
  NodeSignedTx: obj(
    {
      block_height: int,
      block_hash: str,
      // base64 (with its checksum), not Base58 as the ids
      encoded_tx: { type: 'string', pattern: '^tx_[A-Za-z0-9+/]+=*$' },
      hash: encoded('th'),
      signatures: array(encoded('sg')),
      tx: ref('Tx'),
    },
    ['encoded_tx', 'signatures'],
  ),
  /** a micro block's transactions as a 7.x node serves them */
  NodeTxList: obj({ transactions: array(ref('NodeSignedTx')) }),
  /** the original's RawTx: its stored transaction row */
  RawTx: obj({
    block_height: int,
    block_hash: encoded('mh'),
    hash: encoded('th'),
    signatures: nullable({ type: 'string', description: 'space-separated' }),
    tx_type: str,
    tx: ref('Tx'),
    fee: decimal,
    size: int,
  }),
  Name: obj({
    name: str,
    name_hash: encoded('nm'),
    tx_hash: encoded('th'),
    created_at_height: int,
    auction_end_height: int,
    owner: encoded('ak'),
    expires_at: nullable(int),
    // as the node renders them: the key's bytes as a base64 `ba_` beside its text
    pointers: array(obj({ encoded_key: { type: 'string', pattern: '^ba_[A-Za-z0-9+/]*={0,2}$' }, id: str, key: str })),
  }),
  /** the original's NameAuctionEntry: the auction's last bid */
  AuctionEntry: obj({ name: str, expiration: int, winning_bid: decimal, winning_bidder: encoded('ak') }),
};

const count = obj({ count: int });
const error = obj({ error: str });

/** RESPONSES maps `METHOD path` to the schema of its 200 answer. */
export const RESPONSES: Record<string, Schema> = {
  'get /v2/generations/current': obj({ key_block: ref('KeyBlock'), micro_blocks: array(encoded('mh')) }),
  'get /v2/generations/height/{height}': obj({ key_block: ref('KeyBlock'), micro_blocks: array(encoded('mh')) }),
  'get /v2/key-blocks/current/height': obj({ height: int }),
  'get /v2/key-blocks/hash/{hash}': ref('KeyBlock'),
  'get /v2/key-blocks/height/{height}': ref('KeyBlock'),
  'get /v2/micro-blocks/hash/{hash}/header': ref('MicroBlockHeader'),
  'get /v2/micro-blocks/hash/{hash}/transactions': ref('NodeTxList'),
  'get /v2/micro-blocks/hash/{hash}/transactions/count': count,
  'get /v2/micro-blocks/hash/{hash}/transactions/index/{index}': ref('NodeSignedTx'),
  'get /v2/transactions/{hash}': ref('NodeSignedTx'),
  'get /middleware/generations/{from}/{to}': obj({
    total_transactions: int,
    total_micro_blocks: int,
    data: map(
      obj(
        {
          ...keyBlockFields,
          nonce: { type: 'string', pattern: '^\\d+$' },
          micro_blocks: map({
            type: 'object',
            required: ['hash', 'transactions'],
            properties: { hash: encoded('mh'), transactions: map(ref('SignedTx')) },
          }),
        },
        ['nonce'],
      ),
    ),
  }),
  'get /middleware/new/generations/{from}/{to}': array(
    obj({
      key_block: obj({ ...keyBlockFields, nonce: { type: 'string', pattern: '^\\d+$' } }, ['nonce']),
      micro_blocks: array(
        obj({
          micro_block: obj({ hash: encoded('mh'), pof_hash: str, signature: encoded('sg'), time: int }),
          transactions: array(ref('RawTx')),
        }),
      ),
    }),
  ),
  'get /middleware/count/current': count,
  'get /middleware/height/at/{millis}': obj({ height: int }),
  'get /middleware/size/current': obj({ size: int }),
  'get /middleware/size/height/{height}': obj({ size: int }),
  'get /middleware/reward/height/{height}': obj({
    height: int,
    beneficiary: nullable(encoded('ak')),
    coinbase: decimal,
    fees: decimal,
    total: decimal,
  }),
  'get /middleware/status': obj(
    {
      reason: str,
      OK: { type: 'boolean' },
      height: nullable(int),
      node_height: nullable(int),
      lag: nullable(int),
      synced: { type: 'boolean' },
      contiguous: { type: 'boolean' },
      protocol: nullable(PROTOCOL_REPORT_SCHEMA),
      epoch: EPOCH_REPORT_SCHEMA,
      seconds_since_last_block: nullable(int),
      queue_length: int,
      populator: obj({
        status: str,
        alive: { type: 'boolean' },
        seconds_since_heartbeat: nullable(int),
        last_error: nullable(str),
        derivations: array(obj({ area: str, from: int, to: int, failing_since: nullable(str), error: nullable(str) })),
      }),
      errors_last_500_blocks: int,
      version: str,
    },
    ['reason', 'epoch'],
  ),
  'get /middleware/transactions/account/{account}/count': count,
  'get /middleware/transactions/account/{sender}/to/{receiver}': ref('TxList'),
  'get /middleware/transactions/account/{account}': array(
    obj({
      time: int,
      block_height: int,
      block_hash: encoded('mh'),
      hash: encoded('th'),
      signatures: nullable(array(encoded('sg'))),
      tx: ref('Tx'),
    }),
  ),
  'get /middleware/transactions/interval/{from}/{to}': ref('TxList'),
  'get /middleware/transactions/rate/{from}/{to}': array(
    obj({ date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, count: int, amount: decimal }),
  ),
  'get /middleware/names': array(ref('Name')),
  'get /middleware/names/active': array(ref('Name')),
  'get /middleware/names/reverse/{account}': array(ref('Name')),
  'get /middleware/names/hash/{hash}': obj({ name: ref('Name') }),
  'get /middleware/names/{name}': array(ref('Name')),
  'get /middleware/names/auctions/active': array(ref('AuctionEntry')),
  'get /middleware/names/auctions/active/count': obj({ count: int, result: { type: 'string', enum: ['OK'] } }),
  'get /middleware/names/auctions/bids/account/{account}': array(
    obj({ name_auction_entry: ref('AuctionEntry'), transaction: ref('RawTx') }),
  ),
  'get /middleware/names/auctions/bids/{name}': array(ref('RawTx')),
  'get /middleware/names/auctions/{name}/info': obj({ bids: array(ref('RawTx')), info: ref('AuctionEntry') }),
  'get /middleware/oracles/list': array(
    obj({
      oracle_id: encoded('ok'),
      transaction_hash: encoded('th'),
      block_height: int,
      expires_at: int,
      tx: ref('Tx'),
    }),
  ),
  'get /middleware/oracles/{oracle_id}': array(
    obj({
      query_id: encoded('oq'),
      request: obj({ hash: encoded('th'), timestamp: int }),
      response: nullable(obj({ hash: encoded('th'), timestamp: int })),
    }),
  ),
  'get /middleware/compilers': { oneOf: [obj({ compilers: array(str) }), error] },
  'get /middleware/contracts/all': array(
    obj({ contract_id: encoded('ct'), transaction_hash: encoded('th'), block_height: int }),
  ),
  'get /middleware/contracts/calls/address/{address}': array(
    obj({
      transaction_id: encoded('th'),
      contract_id: encoded('ct'),
      caller_id: str,
      function: nullable(str),
      arguments: obj({ function: nullable(str), arguments: anyValue }),
      callinfo: nullable({ type: 'object' }),
      result: anyValue,
      return_type: nullable(str),
      return_value: anyValue,
      decode_error: nullable(str),
    }),
  ),
  'get /middleware/contracts/transactions/address/{address}': ref('TxList'),
  'get /middleware/contracts/transactions/creation/address/{address}': ref('RawTx'),
  'post /middleware/contracts/verify': { oneOf: [obj({ verified: { type: 'boolean' } }), error] },
  'get /middleware/channels/active': array(encoded('ch')),
  'get /middleware/channels/transactions/address/{address}': ref('TxList'),
  'get /middleware/api': obj({
    openapi: { type: 'string', pattern: '^3\\.' },
    info: { type: 'object' },
    paths: map({}),
  }),
};
