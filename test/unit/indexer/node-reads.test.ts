/**
 * @module What a batch asks the node ahead for its balances (src/indexer/sync/node-reads.ts): the accounts its rows
 * name, and the block whose state they are read in.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { balanceCandidates, lastBlockHash } from '../../../src/indexer/sync/node-reads.ts';

const id = (p: 'ak' | 'kh' | 'mh' | 'th' | 'sg' | 'bs'): string => encode(p, randomBytes(p === 'sg' ? 64 : 32));
const [alice, bob, carol, miner] = [id('ak'), id('ak'), id('ak'), id('ak')];

const signed = (tx: JsonObject): JsonObject => ({ tx, hash: id('th'), signatures: [id('sg')], block_height: 10 });

/** a generation at height 10 whose micro blocks hold `micro` (one list of transactions each) */
function generation(micro: JsonObject[][]): FetchedGeneration {
  const kh = id('kh');
  return {
    height: 10,
    keyBlock: parseJson(
      `{"hash":"${kh}","height":10,"prev_hash":"${id('kh')}","prev_key_hash":"${id('kh')}","state_hash":"${id('bs')}","miner":"${miner}","beneficiary":"${miner}","target":1,"pow":[1,2],"nonce":1,"time":1700000000000,"version":5,"info":"cb_Xfbg4g=="}`,
    ) as JsonObject,
    microBlocks: micro.map((transactions, i) => ({
      header: { hash: id('mh'), height: 10, time: 1700000001000 + i, prev_hash: kh, prev_key_hash: kh },
      transactions,
    })),
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

describe('a batch’s balance reads asked ahead', () => {
  it('balanceCandidates: every account its transactions name, an oracle as its account, the beneficiary', () => {
    const spend = signed({ type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 1, fee: 1, nonce: 1 });
    const oracle = `ok_${carol.slice(3)}`;
    const respond = signed({
      type: 'OracleRespondTx',
      oracle_id: oracle,
      nonce: 2,
      query_id: id('th').replace('th_', 'oq_'),
      response: 'yes',
      response_ttl: { type: 'delta', value: 10 },
      fee: 1,
    });
    const rows = [transformGeneration(generation([[spend], [respond]]))];
    expect(balanceCandidates(rows)).to.have.members([miner, alice, bob, carol]);
  });

  it('balanceCandidates: the locked-coins account where a name moves coins there', () => {
    const claim = signed({
      type: 'NameClaimTx',
      account_id: alice,
      nonce: 3,
      name: 'hello.chain',
      name_salt: 7,
      name_fee: 10n ** 20n,
      fee: 1,
    });
    expect(balanceCandidates([transformGeneration(generation([[claim]]))])).to.have.members([
      miner,
      alice,
      LOCKED_COINS_ACCOUNT,
    ]);
  });

  it('lastBlockHash: the last micro block of the last generation, or its key block when it has none', () => {
    const withMicro = generation([[], []]);
    expect(lastBlockHash([generation([[]]), withMicro])).to.equal(withMicro.microBlocks[1]!.header.hash);
    const keyOnly = generation([]);
    expect(lastBlockHash([withMicro, keyOnly])).to.equal(keyOnly.keyBlock.hash);
  });
});
