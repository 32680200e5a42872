/**
 * @module A GAMetaTx's info that a node no longer holds (its 410: garbage-collected state), against the devnode.
 * Only that info tells whether the inner transaction took effect (ga-outcome.ts): a node that answers 410 sends the
 * request on to the next of NODE_URLS; where no node holds it (a pruning node's state below its GC height, never to
 * come back) the inner transaction is taken as done, as a pruned call info's call is stored without it, and no GA
 * call is stored for it, which the upgrade's repair reads as an unknown outcome.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { encode } from '../../../src/chain/encoding.ts';
import { some } from '../../../src/chain/fate.ts';
import { createTx } from '../../../src/devnode/contracts/txs.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey, type KeyPair } from '../../../src/devnode/keys.ts';
import type { BuiltTx, TxFields } from '../../../src/devnode/tx-codec.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { fundGa, gaAttachTx, gaMetaTx, innerClaim, innerSpend } from '../../support/ga-txs.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, storedTopHash, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';

/** more AE than the GA holds: an inner transaction sending it fails */
const TOO_MUCH = 10n ** 22n;
const NAME = 'gaoutcomegone.chain';

describe("a GAMetaTx's info no node holds (410)", function () {
  this.timeout(300_000);
  let h: Harness;
  /** a node that garbage-collected the infos it is told to, and one that holds them, both the devnode */
  let pruning: FaultProxy;
  let archive: FaultProxy;
  let populator: Populator | undefined;
  let submit: (built: BuiltTx) => string;
  let gaKey: KeyPair;
  let ga: string;
  let recipient: string;
  let auth = 0n;

  const infoPath = (hash: string): RegExp => new RegExp(`/transactions/${hash}/info$`);
  const nameEvents = async (): Promise<unknown[]> =>
    h.query('mdw', 'SELECT tx_hash FROM name_events WHERE name = $1', [NAME]);
  const gaCall = async (hash: string): Promise<string | undefined> =>
    (
      await h.query<{ return_type: string }>(
        'mdw',
        `SELECT g.return_type FROM ga_calls g JOIN transactions t USING (height, micro_index, tx_index)
          WHERE t.hash = $1`,
        [hash],
      )
    )[0]?.return_type;
  /** mines the meta transaction of `inner` in a generation of its own (none stored yet): its height */
  const mineMeta = async (inner: TxFields): Promise<{ hash: string; height: number }> => {
    await h.devnode.mineKeyBlock();
    const hash = submit(gaMetaTx(ga, ++auth, inner));
    await h.devnode.mineMicroBlock();
    const height = h.devnode.chain.height;
    await h.devnode.mineKeyBlock();
    return { hash, height };
  };

  before(async () => {
    h = await startHarness(4, 'ga-outcome-gone');
    const chain = h.devnode.chain;
    const owner = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    gaKey = keyPairFromSeed(Buffer.alloc(32, 93));
    ga = gaKey.address;
    recipient = encode('ak', Buffer.alloc(32, 94));
    submit = (built) => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    const nonce = chain.pending.accounts.get(owner.address)!.nonce;
    submit(createTx(owner, nonce + 1, 'aex9', ['Gone Outcome', 18n, 'GON', some(10n ** 24n)]));
    submit(fundGa(owner, ga, 10n ** 21n, nonce + 2));
    await h.devnode.mineKeyBlock();
    submit(gaAttachTx(gaKey));
    await h.devnode.mineKeyBlock();
    pruning = await startFaultProxy(h.devnode.externalUrl);
    archive = await startFaultProxy(h.devnode.externalUrl);
  });

  after(async () => {
    await populator?.stop();
    await pruning?.close();
    await archive?.close();
    await h?.close();
  });

  it('takes the inner transaction as done where no node holds the info, its outcome stored as unknown, and goes on', async () => {
    // a claim without its preclaim fails inside the meta transaction: the node mines it, its GA call returning error
    const claim = await mineMeta(innerClaim(ga, NAME));
    pruning.gone(infoPath(claim.hash));
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: pruning.url }),
      log: silent,
      registry: new prom.Registry(),
    });
    // a pruning node's state below its GC height never comes back: waiting for it would stop the sync for good
    await populator.synced();
    await populator.stop();
    populator = undefined;
    expect((await storedTopHash(h, 'mdw'))!.hash).to.equal(h.devnode.chain.top.hash);
    // no GA call stored: what the upgrade's repair reads as an unknown outcome, for an -H with an archive node
    expect(await gaCall(claim.hash)).to.equal(undefined);
    // taken as done, the failed claim is stored as made: the price of a node that no longer holds the state
    expect(await nameEvents()).to.have.length(1);
  });

  it('goes on where another node of NODE_URLS holds the info', async () => {
    await populator?.stop();
    const spend = await mineMeta(innerSpend(ga, recipient, TOO_MUCH));
    pruning.gone(infoPath(spend.hash));
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: pruning.url, NODE_URLS: `${pruning.url},${archive.url}` }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    await populator.stop();
    populator = undefined;
    expect(await gaCall(spend.hash)).to.equal('error');
    // listed under the GA's own ids only: the failed spend names no recipient (ga-outcome.ts listedTx)
    const fields = await h.query<{ fields: string }>(
      'mdw',
      `SELECT a.fields FROM account_transactions a JOIN transactions t USING (height, micro_index, tx_index)
        WHERE t.hash = $1 ORDER BY a.fields`,
      [spend.hash],
    );
    expect(fields.map((f) => f.fields)).to.deep.equal(['ga_id']);
  });

  it('verifies clean against a pruning node, whose gone infos its re-derivation takes as the sync took them', async () => {
    await populator?.stop();
    populator = undefined;
    pruning.gone(/\/transactions\/th_\w+\/info$/);
    const out: string[] = [];
    const report = await verifyChain(
      { cfg: h.config({ ...FULL_VERIFY_BATCH, NODE_URL: pruning.url }), log: silent, out: (l) => out.push(l) },
      { full: true },
    );
    expect(report.checked).to.equal(h.devnode.height() + 1);
    expect(
      out.filter((l) => l.startsWith('derived rows')),
      out.join('\n'),
    ).to.deep.equal([]);
  });
});
