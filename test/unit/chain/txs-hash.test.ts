import { expect } from 'chai';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { EMPTY_TXS_HASH, holdsTransactions } from '../../../src/chain/txs-hash.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

type Obj = { readonly [key: string]: Json };

describe("a micro block's txs_hash, which says whether it holds transactions", () => {
  // every recorded micro block: its header and its transactions, as the node answered them
  const recorded = readExchanges('chain.ndjson.gz').filter((e) => e.status === 200 && e.path.startsWith('/v3/micro'));
  const answer = (hash: string, what: 'header' | 'transactions'): Obj =>
    parseJson(recorded.find((e) => e.path === `/v3/micro-blocks/hash/${hash}/${what}`)!.body) as Obj;
  const hashes = [
    ...new Set(recorded.map((e) => /^\/v3\/micro-blocks\/hash\/(mh_\w+)\/header$/.exec(e.path)?.[1]).filter(Boolean)),
  ] as string[];

  it("is the empty tree's root, 32 zero bytes (aepp-sdk's encoding)", () => {
    expect(EMPTY_TXS_HASH).to.equal(encode(new Uint8Array(32), Encoding.BlockTxHash));
  });

  it("tells each recorded micro block's header whether the node lists transactions in it", () => {
    expect(hashes.length).to.equal(440);
    const held = hashes.map((h) => [holdsTransactions(answer(h, 'header')), answer(h, 'transactions').transactions]);
    for (const [holds, txs] of held) expect(holds).to.equal((txs as Json[]).length > 0);
    expect(held.filter(([holds]) => !holds).length, 'the empty ones').to.equal(223);
  });

  it('takes a header without a txs_hash as holding some: asked rather than assumed empty', () => {
    expect(holdsTransactions({})).to.equal(true);
    expect(holdsTransactions({ txs_hash: null })).to.equal(true);
  });
});
