/**
 * @module The upgrade's repair of what a populator before issue 88's fix wrote of a GAMetaTx whose inner transaction
 * failed (migration 1142, src/indexer/sync/ga-repair.ts). The chain of ga-failed-inner.test.ts (a failed inner
 * claim without a preclaim, token transfer and spend), and a name the GA claimed and pointed at itself, whose failed
 * inner update pointed it at another account, the name then transferred by the GA and sent a spend: the later
 * transfer's row carried the phantom pointer, and the spend was listed under it. The rows
 * are written as the old fetch wrote them (the GA infos of the failed ones left out of the transform, a failed call's
 * row given the GA's own call info), then the schema goes through the migration and the populator's start, and the
 * result is checked against the devnode's state: the names, the token's dry-run balances, every account's AE, the
 * listings, and `mdw -v --full`.
 */
import { expect } from 'chai';
import { contractId, nameId } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { address, some } from '../../../src/chain/fate.ts';
import type { Json } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createWritePool } from '../../../src/db/connection/pool.ts';
import { pendingBackfills } from '../../../src/db/queries/pending-backfills.ts';
import { recordBackfill } from '../../../src/db/writes/derive-backfill.ts';
import { replaceGaCalls } from '../../../src/db/writes/ga-calls.ts';
import { callTx, createTx } from '../../../src/devnode/contracts/txs.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey } from '../../../src/devnode/keys.ts';
import type { BuiltTx, TxFields } from '../../../src/devnode/tx-codec.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch } from '../../../src/indexer/sync/loader.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { aeBalancesApart } from '../../support/ae-balances-truth.ts';
import { dryRunBalances } from '../../support/aex9-dry-run.ts';
import { gaAttachTx, gaMetaTx } from '../../support/ga-txs.ts';
import { migrationSql } from '../../support/migration-sql.ts';
import { silentLog } from '../api/harness.ts';
import { loaderDeps } from '../indexer/support/loader-deps.ts';
import { OldFetch } from '../indexer/support/old-ga-fetch.ts';
import { aex9BalancesApart, startV3, verifyClean, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

const GA_FUNDING = 10n ** 21n;
const TOO_MUCH = 10n ** 22n;
/** claimed by a failed inner claim (no preclaim): the node holds no such name */
const PHANTOM = 'garepairphantomclaim.chain';
/** claimed by the GA, pointed at the recipient by a failed inner update, then transferred to the owner */
const TRANSFERRED = 'garepairtransferred.chain';
const MIGRATION = '1142_ga_failed_inner_repair';

describe('the failed inner GA transactions an older populator stored, repaired at the upgrade', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  let ga: string;
  let owner: string;
  let recipient: string;
  let token: string;
  /** the heights holding a failed inner transaction, and the height of the transfer after the failed update */
  const failedAt: number[] = [];
  let transferAt = 0;
  /** the height of a spend to that name after the transfer */
  let spendAt = 0;

  before(async () => {
    v3 = await startV3(6, 'ga-failed-inner-repair', () => ({}), { verifyScratch: true });
    const chain = v3.devnode.chain;
    const ownerKey = parseSecretKey(v3.devnode.accounts[0]!.secretKey);
    owner = ownerKey.address;
    const key = keyPairFromSeed(Buffer.alloc(32, 93));
    ga = key.address;
    recipient = encode('ak', Buffer.alloc(32, 94));
    const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    let nonce = chain.pending.accounts.get(owner)!.nonce;
    token = contractId(owner, nonce + 1);
    submit(createTx(ownerKey, ++nonce, 'aex9', ['Repaired', 18n, 'REP', some(10n ** 24n)]));
    submit({
      tx: {
        type: 'SpendTx',
        version: 1,
        sender_id: owner,
        recipient_id: ga,
        amount: GA_FUNDING,
        fee: 20_000_000_000_000,
        nonce: ++nonce,
        payload: encode('ba', Buffer.from('')),
      },
      signers: [ownerKey],
    });
    await v3.devnode.mineKeyBlock();
    submit(callTx(ownerKey, ++nonce, token, 'transfer', [address(ga), 10n ** 20n]));
    submit(gaAttachTx(key));
    await v3.devnode.mineKeyBlock();
    let auth = 0n;
    const meta = (inner: TxFields): string => submit(gaMetaTx(ga, ++auth, inner));
    const claim = (name: string, salt: number): TxFields => ({
      type: 'NameClaimTx',
      version: 2,
      account_id: ga,
      nonce: 0,
      name,
      name_salt: salt,
      name_fee: 10n ** 18n,
      fee: 100_000_000_000_000,
    });
    const transfer = (amount: bigint): TxFields =>
      callTx(key, 0, token, 'transfer', [address(recipient), 7n], amount).tx;
    // failing: a claim without a preclaim, a call sending more AE than the GA holds, a spend above its balance
    meta(claim(PHANTOM, 12345));
    meta(transfer(TOO_MUCH));
    meta({
      type: 'SpendTx',
      version: 1,
      sender_id: ga,
      recipient_id: recipient,
      amount: TOO_MUCH,
      fee: 20_000_000_000_000,
      nonce: 0,
      payload: encode('ba', Buffer.from('inner')),
    });
    // taking effect: a token transfer, a claim with salt 0 (no preclaim from Ceres on; no auction for a long name), an
    // update pointing the name at the GA
    const nameHash = nameId(TRANSFERRED);
    const update = (to: string, fee: number): TxFields => ({
      type: 'NameUpdateTx',
      version: 1,
      account_id: ga,
      nonce: 0,
      name_id: nameHash,
      name_ttl: 1000,
      pointers: [{ key: 'account_pubkey', id: to }],
      client_ttl: 0,
      fee,
    });
    meta(transfer(0n));
    meta(claim(TRANSFERRED, 0));
    meta(update(ga, 100_000_000_000_000));
    failedAt.push(chain.height);
    await v3.devnode.mineKeyBlock();
    // failing: an update whose fee is below the minimum, pointing the name at the recipient
    meta(update(recipient, 0));
    failedAt.push(chain.height);
    await v3.devnode.mineKeyBlock();
    // taking effect a generation later: the transfer, whose row the old populator derived from the phantom update
    meta({
      type: 'NameTransferTx',
      version: 1,
      account_id: ga,
      nonce: 0,
      name_id: nameHash,
      recipient_id: owner,
      fee: 100_000_000_000_000,
    });
    transferAt = chain.height;
    await v3.devnode.mineKeyBlock();
    // a spend to the name a generation later: the node pays the GA; the old populator listed it under the recipient
    submit({
      tx: {
        type: 'SpendTx',
        version: 1,
        sender_id: owner,
        recipient_id: nameHash,
        amount: 1,
        fee: 20_000_000_000_000,
        nonce: nonce + 1,
        payload: encode('ba', Buffer.from('to the name')),
      },
      signers: [ownerKey],
    });
    spendAt = chain.height;
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    // the rows of the old populator, written over the right ones from the first failed height to the top
    await v3.withoutPopulator(async () => {
      const cfg = loadConfig(v3.settings);
      const pool = createWritePool(cfg, 'old-rows', silentLog, 2);
      try {
        const node = new NodeClient({ url: v3.devnode.externalUrl, timeoutMs: 60_000 }, silentLog);
        const deps = { ...(await loaderDeps(cfg, pool, node)), fetchAhead: new OldFetch(node, 0) };
        const heights = heightRange(failedAt[0]!, chain.height - failedAt[0]! + 1);
        const prepared = prepareBatch(deps, heights, false);
        expect((await loadBatch(deps, heights, { replace: true, prepared })).kind).to.equal('written');
      } finally {
        await pool.end();
      }
    });
  });

  after(async () => {
    await v3?.close();
  });

  /** names is what the middleware and the node hold of a name: its owner and pointers, or 404 */
  async function names(name: string): Promise<{ ours: unknown; node: unknown }> {
    const ours = await v3.get(`/mdw/v3/names/${name}`);
    const node = (await v3.nodeGet(`/v3/names/${name}`)) as Obj;
    const body = ours.body as Obj;
    const pointers = (list: Json | undefined): unknown[] => (list as Obj[]).map((p) => ({ key: p.key, id: p.id }));
    return {
      ours:
        ours.status === 404
          ? { status: 404 }
          : { owner: (body.ownership as Obj).current, pointers: pointers(body.pointers) },
      node:
        node.reason === 'Name not found' ? { status: 404 } : { owner: node.owner, pointers: pointers(node.pointers) },
    };
  }

  it('stores the old rows first: the phantom name, the phantom pointer carried by the later transfer', async () => {
    expect((await names(PHANTOM)).ours).to.deep.equal({ owner: ga, pointers: [] });
    const transferred = await names(TRANSFERRED);
    expect(transferred.node).to.deep.equal({ owner, pointers: [{ key: 'account_pubkey', id: ga }] });
    expect(transferred.ours).to.deep.equal({ owner, pointers: [{ key: 'account_pubkey', id: recipient }] });
    const listed = await v3.walk(`/mdw/v3/transactions?account=${recipient}&limit=100`);
    expect(listed.map((t) => t.block_height)).to.include.members([failedAt[0], failedAt[1], spendAt]);
  });

  it('records the heights holding a failed inner transaction at the migration, shown by the status', async () => {
    await v3.withoutPopulator(async () => {
      // the schema as the release before left it: loaded, and without migration 1142
      await v3.pool.query('DROP TABLE repair_heights');
      // the failed update's height with its GA call not derived yet (the ga area behind there): no stored row tells its
      // outcome, which the start asks the node
      const updated = { from: failedAt[1]!, to: failedAt[1]!, fromMicro: -1 };
      await replaceGaCalls(v3.pool, updated, []);
      await recordBackfill(v3.pool, 'ga', updated.from, updated.to);
      await v3.pool.query(await migrationSql(MIGRATION));
      // a reading of the status is answered for a second
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const status = (await v3.get('/mdw/v3/status')).body as Obj;
      expect(status.mdw_pending_repairs).to.deep.equal([
        {
          repair: 'ga_failed_inner',
          stage: 'seed',
          heights: 2,
          first_height: failedAt[0],
          last_height: failedAt[1],
        },
      ]);
    });
  });

  it("reloads them and the later heights of the names they named at the populator's start, then derives the GA calls", async () => {
    for (let i = 0; ; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const status = (await v3.get('/mdw/v3/status')).body as Obj;
      const done = (status.mdw_pending_repairs as Obj[]).length === 0 && status.mdw_synced === true;
      if (done && (await pendingBackfills(v3.pool)).length === 0) break;
      expect(i, 'the repair ends').to.be.below(100);
    }
    expect((await names(PHANTOM)).ours).to.deep.equal({ status: 404 });
    const transferred = await names(TRANSFERRED);
    expect(transferred.ours, `the transfer at ${transferAt} reloaded too`).to.deep.equal(transferred.node);
    const spends = await v3.walk(`/mdw/v3/transactions?account=${ga}&type=spend&limit=100`);
    expect(
      spends.map((t) => t.block_height),
      `the spend to the name at ${spendAt} reloaded too`,
    ).to.include(spendAt);
  });

  it("moves no token in a failed call: every holder's balance is the contract's dry-run answer", async () => {
    const dryRun = await dryRunBalances(v3.devnode.externalUrl, token);
    expect(dryRun.get(recipient), 'the successful transfer only').to.equal(7n);
    expect(await aex9BalancesApart(v3, token, [owner, ga, recipient], dryRun)).to.deep.equal([]);
  });

  it("keeps every account's AE balance the devnode's, and lists nothing under the failed ones' ids", async () => {
    const chain = v3.devnode.chain;
    expect(await aeBalancesApart(v3.pool, chain, [chain.height - 1, chain.height])).to.deep.equal([]);
    // named by no transaction that took effect (the successful token transfer names it in its call data only)
    const listed = await v3.walk(`/mdw/v3/transactions?account=${recipient}&limit=100`);
    expect(listed.map((t) => t.hash)).to.deep.equal([]);
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    await verifyClean(v3);
  });
});
