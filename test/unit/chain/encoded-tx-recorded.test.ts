import { expect } from 'chai';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { encodedTxFaults } from '../../support/encoded-tx.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

type Obj = { readonly [key: string]: Json };

/** The transaction objects of a recorded answer: a transaction's, or each of a micro block's. */
function txObjects(path: string, body: Obj): Obj[] {
  if (/\/transactions(\?|$)/.test(path) && path.includes('/micro-blocks/')) return body.transactions as Obj[];
  return [body];
}

describe("a real node's encoded_tx, the oracle of ours", () => {
  const recorded = readExchanges('chain.ndjson.gz').filter(
    (e) =>
      e.status === 200 &&
      /^\/v[23]\/(transactions\/th_[^/?]+|micro-blocks\/hash\/mh_[^/]+\/transactions(\/index\/\d+)?)(\?|$)/.test(
        e.path,
      ),
  );

  it('is, in every recorded transaction object, the signed tx of its hash, signatures and tx (aepp-sdk)', () => {
    let checked = 0;
    const faults: string[] = [];
    for (const e of recorded) {
      for (const object of txObjects(e.path, parseJson(e.body) as Obj)) {
        faults.push(...encodedTxFaults(object).map((f) => `${e.path}: ${f}`));
        checked++;
      }
    }
    expect(faults).to.deep.equal([]);
    // every transaction, in both versions, by hash, in its micro block and by index
    expect(checked).to.be.above(357 * 4);
  });

  it("sits between block_height and hash, its value untouched by int-as-string, as the node's keys are sorted", () => {
    const byHash = recorded.filter((e) => /^\/v3\/transactions\/th_/.test(e.path));
    for (const e of byHash.slice(0, 20)) expect(e.body, e.path).to.match(/"block_height":"?\d+"?,"encoded_tx":"tx_/);
    const asStrings = byHash.filter((e) => e.path.endsWith('?int-as-string=true'));
    expect(asStrings.length).to.be.above(0);
    for (const e of asStrings) {
      const plain = byHash.find((p) => p.path === e.path.replace('?int-as-string=true', ''))!;
      expect((parseJson(e.body) as Obj).encoded_tx).to.equal((parseJson(plain.body) as Obj).encoded_tx);
    }
  });

  it('finds a wrong encoded_tx: another transaction, or a signature or field not the one shown', () => {
    const [a, b] = recorded.filter((e) => /^\/v3\/transactions\/th_/.test(e.path)).map((e) => parseJson(e.body) as Obj);
    expect(encodedTxFaults({ ...a!, encoded_tx: b!.encoded_tx! })).to.not.deep.equal([]);
    expect(encodedTxFaults({ ...a!, signatures: b!.signatures! })).to.not.deep.equal([]);
    expect(encodedTxFaults({ ...a!, tx: { ...(a!.tx as Obj), nonce: 999 } })).to.not.deep.equal([]);
    const { encoded_tx: _, ...without } = a!;
    expect(encodedTxFaults(without)).to.not.deep.equal([]);
  });
});
