/**
 * @module A GAMetaTx whose inner transaction fails, against the devnode's state. The node mines it all the same,
 * charging the meta transaction's fee and the authentication's gas; the inner transaction takes no effect
 * (aega_meta_tx:process_inner, set_meta_result) and the GA call returns `error`. A failed inner name claim leaves no
 * name, a failed inner token transfer no call and no token balance change, a failed inner spend pays no one; the
 * transactions are listed, under the GA's own id only, as ae_mdw lists them (sync transaction.ex: no mutation of a
 * ga_meta_tx whose GA call is not `ok`). A successful inner transfer beside them takes effect.
 */
import { expect } from 'chai';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { address, some } from '../../../src/chain/fate.ts';
import type { Json } from '../../../src/chain/json.ts';
import { callTx, createTx } from '../../../src/devnode/contracts/txs.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey } from '../../../src/devnode/keys.ts';
import type { BuiltTx, TxFields } from '../../../src/devnode/tx-codec.ts';
import { aeBalancesApart } from '../../support/ae-balances-truth.ts';
import { aeMdwCallWithoutObject } from '../../support/ae-mdw-call-none.ts';
import { dryRunBalances } from '../../support/aex9-dry-run.ts';
import { fundGa, gaAttachTx, gaMetaTx, innerClaim, innerSpend } from '../../support/ga-txs.ts';
import { aex9BalancesApart, startV3, verifyClean, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** what the GA holds: any inner transaction sending more fails */
const GA_FUNDING = 10n ** 21n;
const TOO_MUCH = 10n ** 22n;
const NAME = 'gafailedinnerclaim.chain';

describe('a GAMetaTx whose inner transaction fails takes no effect but its fees', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  let ga: string;
  let recipient: string;
  let token: string;
  /** the hashes of the failed meta transactions (a claim, a token transfer, a spend) and of the successful one */
  const failed: string[] = [];
  let succeeded = '';

  before(async () => {
    v3 = await startV3(6, 'ga-failed-inner', () => ({}), { verifyScratch: true });
    const chain = v3.devnode.chain;
    const owner = parseSecretKey(v3.devnode.accounts[0]!.secretKey);
    const key = keyPairFromSeed(Buffer.alloc(32, 91));
    ga = key.address;
    recipient = encode('ak', Buffer.alloc(32, 92));
    const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    const nonce = chain.pending.accounts.get(owner.address)!.nonce;
    // an AEX-9 token of the owner's, some of which it gives the GA
    token = contractId(owner.address, nonce + 1);
    submit(createTx(owner, nonce + 1, 'aex9', ['Failed Inner', 18n, 'FIN', some(10n ** 24n)]));
    submit(fundGa(owner, ga, GA_FUNDING, nonce + 2));
    await v3.devnode.mineKeyBlock();
    submit(callTx(owner, nonce + 3, token, 'transfer', [address(ga), 10n ** 20n]));
    submit(gaAttachTx(key));
    await v3.devnode.mineKeyBlock();
    let auth = 0n;
    const meta = (inner: TxFields): BuiltTx => gaMetaTx(ga, ++auth, inner);
    const transfer = (amount: bigint): TxFields =>
      callTx(key, 0, token, 'transfer', [address(recipient), 7n], amount).tx;
    // a claim without a preclaim, a transfer sending more AE than the GA holds, a spend above its balance: all fail
    failed.push(submit(meta(innerClaim(ga, NAME))));
    failed.push(submit(meta(transfer(TOO_MUCH))));
    failed.push(submit(meta(innerSpend(ga, recipient, TOO_MUCH))));
    succeeded = submit(meta(transfer(0n)));
    await v3.devnode.mineKeyBlock();
    await v3.synced();
  });

  after(async () => {
    await v3?.close();
  });

  it('mines the failed ones, their GA calls returning error, and the other one', async () => {
    for (const hash of failed) {
      const info = (await v3.nodeGet(`/v3/transactions/${hash}/info`)) as { ga_info: Obj };
      expect(info.ga_info.return_type, hash).to.equal('error');
    }
    const ok = (await v3.nodeGet(`/v3/transactions/${succeeded}/info`)) as { ga_info: Obj };
    expect(ok.ga_info.return_type).to.equal('ok');
  });

  it('leaves no name where the node has none', async () => {
    expect(((await v3.nodeGet(`/v3/names/${NAME}`)) as Obj).reason).to.equal('Name not found');
    expect((await v3.get(`/mdw/v3/names/${NAME}`)).status).to.equal(404);
    const actions = await v3.pool.query('SELECT 1 FROM name_events WHERE tx_hash = $1 OR name = $2', [failed[0], NAME]);
    expect(actions.rows).to.deep.equal([]);
  });

  it('stores no call of a failed transfer and moves no token, as the contract answers in a dry-run', async () => {
    const calls = await v3.get(`/mdw/v3/contracts/${token}/call-transactions?direction=forward&limit=100`);
    expect(calls.status, calls.text).to.equal(200);
    const hashes = (calls.body as { data: Obj[] }).data.map((c) => c.call_tx_hash);
    expect(hashes).to.include(succeeded);
    expect(hashes).to.not.include(failed[1]);
    const dryRun = await dryRunBalances(v3.devnode.externalUrl, token);
    expect(dryRun.get(recipient), 'the successful transfer only').to.equal(7n);
    expect(await aex9BalancesApart(v3, token, [ga, recipient], dryRun)).to.deep.equal([]);
  });

  it("pays no one of a failed spend: every account's AE balance is the devnode's", async () => {
    const chain = v3.devnode.chain;
    expect(await aeBalancesApart(v3.pool, chain, [chain.height - 1, chain.height])).to.deep.equal([]);
  });

  it("lists the failed transactions under the GA's id, not under the ids their inner transactions name", async () => {
    for (const hash of failed) expect((await v3.get(`/mdw/v3/transactions/${hash}`)).status, hash).to.equal(200);
    const listed = async (id: string): Promise<unknown[]> =>
      (await v3.walk(`/mdw/v3/transactions?account=${id}&limit=100`)).map((t) => t.hash);
    expect(await listed(ga)).to.include.members([...failed, succeeded]);
    // the failed spend's recipient: named by no transaction that took effect
    expect(await listed(recipient)).to.deep.equal([]);
  });

  it("renders the failed inner call as ae_mdw's format_call_info renders a call the node holds none of", async () => {
    const info = (await v3.nodeGet(`/v3/transactions/${failed[1]}/info`)) as { ga_info: Obj };
    const res = await v3.get(`/mdw/v3/transactions/${failed[1]}`);
    expect(res.status, res.text).to.equal(200);
    const meta = (res.body as Obj).tx as Obj;
    expect([meta.return_type, meta.gas_used]).to.deep.equal(['error', info.ga_info.gas_used]);
    const inner = (meta.tx as Obj).tx as Obj;
    const node = (await v3.nodeGet(`/v3/transactions/${failed[1]}`)) as { tx: { tx: { tx: Obj } } };
    // the node's transaction, and what ae_mdw adds to a call it finds no call object of (the node holds none)
    expect(inner).to.deep.equal(aeMdwCallWithoutObject(node.tx.tx.tx, 'aex9'));
    // the call that ran beside it: its outcome as the node's info holds it
    const ran = (await v3.nodeGet(`/v3/transactions/${succeeded}/info`)) as { ga_info: { inner_object: Obj } };
    const call = ran.ga_info.inner_object.call_info as Obj;
    const shown = (((await v3.get(`/mdw/v3/transactions/${succeeded}`)).body as Obj).tx as Obj).tx as Obj;
    const ok = (shown as { tx: Obj }).tx;
    expect([ok.return_type, ok.gas_used, ok.function, ok.result, ok.aexn_type]).to.deep.equal([
      call.return_type,
      call.gas_used,
      'transfer',
      'ok',
      'aex9',
    ]);
    const logs = await v3.walk(`/mdw/v3/contracts/logs?contract_id=${token}&limit=100`);
    expect(logs.map((l) => l.call_tx_hash))
      .to.include(succeeded)
      .and.not.include(failed[1]);
  });

  it('verifies clean against the devnode (mdw -v --full): the calls, names and balances the node holds', async () => {
    await verifyClean(v3);
  });
});
