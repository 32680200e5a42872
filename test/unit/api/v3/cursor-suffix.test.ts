/**
 * @module Every /v3 cursor kind reads back the texts it writes and refuses anything else with a 400: a fuzz of the
 * account, balance, calls and AEX-9 routes found cursors with a trailing suffix (`593-1-0--_` of an activity feed; an
 * AEX-9 cursor whose base64url took one more character) answering 200 with a page of their own.
 */
import { expect } from 'chai';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import {
  DELIVERY_CURSOR,
  EPOCH_ACCOUNT_CURSOR,
  INDEX_CURSOR,
  LOG_CURSOR,
  POSITION_CURSOR,
  type CursorCodec,
} from '../../../../src/api/mdw/resources/cursors.ts';
import { ACTIVITY_CURSOR, TRANSFER_CURSOR } from '../../../../src/api/mdw/resources/activities.ts';
import { CHANGE_CURSOR } from '../../../../src/api/mdw/resources/ae-balances.ts';
import { COLLECTION_CURSOR, NFT_CURSOR, TEMPLATE_CURSOR } from '../../../../src/api/mdw/resources/aex141.ts';
import { CONTRACT_CURSOR, holderCursor, TOKEN_CURSOR } from '../../../../src/api/mdw/resources/aex9.ts';
import { CHANNEL_CURSOR } from '../../../../src/api/mdw/resources/channels.ts';
import { HISTORY_CURSOR } from '../../../../src/api/mdw/resources/name-history.ts';
import { nameCursor } from '../../../../src/api/mdw/resources/names.ts';
import { ORACLE_CURSOR } from '../../../../src/api/mdw/resources/oracles.ts';
import { TOP_MINER_CURSOR } from '../../../../src/api/mdw/resources/stats.ts';

const ak = encode(new Uint8Array(32).fill(1), Encoding.AccountAddress);
const ct = encode(new Uint8Array(32).fill(2), Encoding.ContractAddress);
const th = encode(new Uint8Array(32).fill(3), Encoding.TxHash);
const ok = encode(new Uint8Array(32).fill(4), Encoding.OracleAddress);
const ch = encode(new Uint8Array(32).fill(5), Encoding.Channel);
const json = (key: unknown): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/** Each cursor kind with texts it writes: every one of them a page's `next` of some list. */
const KINDS: [string, CursorCodec<unknown>, string[]][] = [
  ['index', INDEX_CURSOR, ['0', '593']],
  ['position', POSITION_CURSOR, ['593-1-0']],
  ['log', LOG_CURSOR, ['593-1-0-2']],
  ['epoch and account', EPOCH_ACCOUNT_CURSOR, [`4-${ak}`]],
  ['transfer', TRANSFER_CURSOR, [`593-1-0-fee_spend_name-${ak}-`, `593--1--1-reward_block-${ak}-${th}`]],
  [
    'activity',
    ACTIVITY_CURSOR,
    ['593-1-0--', `593-1-0-aex9:0000000001-received`, `593-1-0-x-${th}`, '5-1-0-a-0000000003'],
  ],
  ['balance change', CHANGE_CURSOR, ['593_1_0_2', '593_-1_-1_0']],
  ['NFT collection', COLLECTION_CURSOR, [json(['Kitties', ct]), json([593, 1, 0, ct])]],
  ['NFT', NFT_CURSOR, [`${ct}-17`]],
  ['NFT template', TEMPLATE_CURSOR, ['17']],
  [
    'AEX-9 token',
    TOKEN_CURSOR,
    [json({ contractId: ct, value: 'REAL' }), json({ contractId: ct, height: 5, microIndex: 0, txIndex: 1 })],
  ],
  ['AEX-9 holder', holderCursor('pubkey'), [ak]],
  ['AEX-9 holder by amount', holderCursor('amount'), [`1000000000000000000000000|${ak}`]],
  ['AEX-9 contract', CONTRACT_CURSOR, [ct]],
  ['channel', CHANNEL_CURSOR, [`593-1-0-${ch}`]],
  ['name history', HISTORY_CURSOR, ['593-1-0', '593']],
  ['name by activation', nameCursor('activation'), ['593-example.chain']],
  ['name by name', nameCursor('name'), ['example.chain', 'old.test']],
  ['oracle', ORACLE_CURSOR, [`600-${ok}`]],
  ['top miner', TOP_MINER_CURSOR, [`20412-3-${ak}`]],
  ['webhook delivery', DELIVERY_CURSOR, ['593-1-0-2-41', '593-0-0-0-123456789012345678']],
];

/** What a fuzz appends: characters of the cursors' own alphabets, a separator, padding. */
const SUFFIXES = ['_', 'x', 'Z', '-', '--', '=', '|', ':', ' '];

describe('/v3 cursors', () => {
  for (const [kind, codec, texts] of KINDS) {
    it(`${kind}: reads back what it writes and refuses a trailing suffix with a 400`, () => {
      for (const text of texts) {
        expect(codec.encode(codec.decode(text)), text).to.equal(text);
        for (const suffix of SUFFIXES)
          expect(() => codec.decode(text + suffix), JSON.stringify(text + suffix))
            .to.throw(`invalid cursor: ${text + suffix}`)
            .with.property('status', 400);
      }
    });
  }

  it('refuses another spelling of the same key (leading zeros)', () => {
    for (const [codec, text] of [
      [INDEX_CURSOR, '0593'],
      [POSITION_CURSOR, '593-01-0'],
      [CHANGE_CURSOR, '593_1_0_02'],
    ] as const)
      expect(() => codec.decode(text), text)
        .to.throw()
        .with.property('status', 400);
  });
});
