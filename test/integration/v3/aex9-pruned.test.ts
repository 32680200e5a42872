/**
 * @module /v3/aex9 synced from a pruning node (call info and dry-runs below its GC height answer 410): tokens whose
 * balances may miss events say `incomplete: true` in every balance answer, never silently wrong; the others stay
 * exact.
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { ledgerBalances, wrappedAe } from '../../support/aex9-truth.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
// between the chain's token creations (heights 2–8 of this seed): some below it, some at or above
const GC_HEIGHT = 7;

describe('/v3/aex9 from a pruning node', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(100, 'v3-aex9-pruned', (d) => ({ DEX_WRAPPED_AE: wrappedAe(d.chain) }), {
      gcHeight: GC_HEIGHT,
    });
    await v3.synced();
  });
  after(async () => {
    await v3?.close();
  });

  it('marks the balances of tokens created below the GC height incomplete, and keeps the others exact', async () => {
    const tokens = (await v3.get('/mdw/v3/aex9?limit=100')).body as { data: Obj[] };
    const ledger = ledgerBalances(v3.devnode.chain);
    let incomplete = 0;
    let complete = 0;
    for (const token of tokens.data) {
      const id = String(token.contract_id);
      const created = (await v3.get(`/mdw/v3/contracts/${id}`)).body as Obj;
      const height = v3.devnode.chain.txs.get(String(created.source_tx_hash))?.blockHeight;
      const holders = ((await v3.get(`/mdw/v3/aex9/${id}/balances?limit=100`)).body as { data: Obj[] }).data;
      const [, account] = [...ledger].find(([k]) => k.startsWith(`${id} `))?.[0].split(' ') ?? [];
      const balance =
        account === undefined ? undefined : ((await v3.get(`/mdw/v3/aex9/${id}/balances/${account}`)).body as Obj);
      // meta info is read at the top when the creation block's state is gone: the token stays usable
      expect(token.invalid, id).to.equal(false);
      if (height !== undefined && height < GC_HEIGHT) {
        incomplete++;
        expect(token.incomplete, id).to.equal(true);
        for (const h of holders) expect(h.incomplete, id).to.equal(true);
        if (balance) expect(balance.incomplete).to.equal(true);
        if (account !== undefined) {
          // its transfers, in the token's list and in the account's activities, say so too
          const transfers = (await v3.get(`/mdw/v3/aex9/${id}/transfers?account=${account}&limit=100`)).body as {
            data: Obj[];
          };
          for (const t of transfers.data) expect(t.incomplete, id).to.equal(true);
          const feed = (await v3.get(`/mdw/v3/accounts/${account}/activities?type=aex9&limit=100`)).body as {
            data: Obj[];
          };
          for (const a of feed.data.filter((a) => (a.payload as Obj).contract_id === id))
            expect((a.payload as Obj).incomplete, id).to.equal(true);
        }
      } else {
        complete++;
        expect(token, id).to.not.have.property('incomplete');
        for (const h of holders) expect(h, id).to.not.have.property('incomplete');
        expect(new Map(holders.map((h) => [String(h.account_id), BigInt(h.amount as number | bigint)]))).to.deep.equal(
          new Map(
            [...ledger].filter(([k]) => k.startsWith(`${id} `)).map(([k, v]) => [k.slice(id.length + 1), v] as const),
          ),
        );
      }
    }
    expect(incomplete, 'tokens created below the GC height').to.be.above(0);
    expect(complete, 'tokens created at or above it').to.be.above(0);
    expect(complete + incomplete).to.equal(tokens.data.length);
  });
});
