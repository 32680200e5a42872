/** @module A posted transaction as tx_update reports it while pending, against a real node's recorded answers. */
import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { postedTx } from '../../../src/events/posted-tx.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

describe('postedTx (a posted transaction, pending)', () => {
  it("is a real 7.2.2 node's answer for it but for its block (none, height -1), encoded_tx the posted one", () => {
    const recorded = readExchanges('chain.ndjson.gz').filter(
      (e) => e.status === 200 && /^\/v3\/transactions\/th_[^/?]+$/.test(e.path),
    );
    for (const e of recorded) {
      const node = parseJson(e.body) as { readonly [key: string]: Json };
      const posted = postedTx(stringifyJson({ tx: node.encoded_tx! }));
      expect(posted, e.path).to.not.equal(undefined);
      expect(posted!.hash, e.path).to.equal(node.hash);
      // exact JSON, integers digit for digit (the tx object's keys are in the codec's order, as the cached answers',
      // test/fixtures/real-node/README.md); the GenericSignedTx's own keys in the node's order
      const json = parseJson(posted!.json) as { readonly [key: string]: Json };
      expect(json, e.path).to.deep.equal({ ...node, block_hash: 'none', block_height: -1 });
      expect(Object.keys(json), e.path).to.deep.equal(Object.keys(node));
    }
    expect(recorded.length).to.be.at.least(357);
  });
});
