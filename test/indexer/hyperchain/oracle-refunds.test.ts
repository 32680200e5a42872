/**
 * @module An oracle query's refund on a hyperchain lands where the node pays it. A query's relative TTL counts from
 * the height of the block holding it, and on a hyperchain a generation's micro blocks carry the next height (they
 * come before that height's key block): the node prunes an unanswered query, refunding its fee, at the key block
 * after that expiry. The devnode's balances are the oracle: where nothing else touches the sender, its balance moves
 * at the refund's height by exactly what the middleware stores.
 */
import { expect } from 'chai';
import { idKey } from '../../../src/chain/id-key.ts';
import { SHARED_HYPERCHAIN, startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';

/** nodeBalance is an account's exact balance in the node's state after key block `height` (0 when it has none). */
async function nodeBalance(hc: TestHyperchain, account: string, height: number): Promise<bigint> {
  const res = await fetch(`${hc.devnode.externalUrl}/v3/accounts/${account}/height/${height}?int-as-string=true`);
  if (res.status === 404) return 0n;
  const body = (await res.json()) as { balance: string };
  return BigInt(body.balance);
}

describe('oracle query refunds on a hyperchain', function () {
  this.timeout(300_000);
  let hc: TestHyperchain;

  before(async () => {
    // the chain hyperchain-load.test.ts loads, which the run populates once
    hc = await startHyperchain(SHARED_HYPERCHAIN);
  });
  after(async () => {
    await hc?.close();
  });

  it("moves the sender's balance in the node by the stored refund at the refund's height", async () => {
    // the refunds where nothing but key blocks touches the sender in the generation before the height and at it
    const refunds = await hc.query<{ height: number; account_id: string; ref_tx_hash: string; credited: string }>(
      'mdw',
      `SELECT t.height, t.account_id, t.ref_tx_hash,
              (SELECT sum(amount)::text FROM internal_transfers c
                WHERE c.account_id = t.account_id AND c.height = t.height AND c.micro_index = -1) AS credited
         FROM internal_transfers t
        WHERE t.kind = 'fee_refund_oracle'
          AND NOT EXISTS (SELECT 1 FROM internal_transfers o
                           WHERE o.account_id = t.account_id AND o.height BETWEEN t.height - 1 AND t.height
                             AND o.micro_index >= 0)
        ORDER BY t.height, t.account_id`,
    );
    const quiet = [];
    for (const r of refunds) {
      const txs = await hc.query(
        'mdw',
        `SELECT 1 FROM account_transactions a JOIN account_ids i ON i.num = a.account
          WHERE i.key = $1 AND a.height BETWEEN $2 - 1 AND $2`,
        [idKey(r.account_id), r.height],
      );
      if (txs.length === 0) quiet.push(r);
    }
    expect(quiet.length, 'the chain has refunds to check').to.be.greaterThan(0);
    const changes = await Promise.all(
      quiet.map(
        async (r) =>
          (await nodeBalance(hc, r.account_id, r.height)) - (await nodeBalance(hc, r.account_id, r.height - 1)),
      ),
    );
    expect(quiet.map((r, i) => [r.ref_tx_hash, r.height, String(changes[i])])).to.deep.equal(
      quiet.map((r) => [r.ref_tx_hash, r.height, r.credited]),
    );
  });

  it('refunds the query of the report at the key block after its expiry, counted from its micro block height', async () => {
    const hash = 'th_Ya42gMfPHFXipSYbRSz8szBsVquEAbxxKPav7CffuEq6jCExJ';
    const tx = (await (await fetch(`${hc.devnode.externalUrl}/v3/transactions/${hash}`)).json()) as {
      block_height: number;
      tx: { query_ttl: { type: string; value: number }; query_fee: number; sender_id: string };
    };
    expect(tx.tx.query_ttl.type).to.equal('delta');
    const refundAt = tx.block_height + tx.tx.query_ttl.value + 1;
    const rows = await hc.query<{ height: number; account_id: string; amount: string }>(
      'mdw',
      `SELECT height, account_id, amount::text FROM internal_transfers
        WHERE kind = 'fee_refund_oracle' AND ref_tx_hash = $1`,
      [hash],
    );
    expect(rows).to.deep.equal([{ height: refundAt, account_id: tx.tx.sender_id, amount: String(tx.tx.query_fee) }]);
    const change =
      (await nodeBalance(hc, tx.tx.sender_id, refundAt)) - (await nodeBalance(hc, tx.tx.sender_id, refundAt - 1));
    expect(change).to.equal(BigInt(tx.tx.query_fee));
  });
});
