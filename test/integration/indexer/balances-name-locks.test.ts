/**
 * @module Issue 88: name fees against the devnode's state, height by height, and the devnode against the recorded real
 * node 7.2.2. The node locks a name fee in the locked-coins account `ak_11111111111111111111111111111111273Yts`: a
 * claim's where no auction runs (13+ characters) at once; an auction's bids are held in the auction, an outbid one
 * returned to its bidder, and the key block after the auction's end locks the winning one (aeprimop lock_namefee,
 * int_lock_amount; aens_state_tree run_elapsed_name_auction). What a mutual close's final amounts and fee leave in its
 * channel is locked as well, a PayingForTx's close's fee being the payer's (aeprimop channel_close_mutual), and what a
 * settle's, each its party's amount in the solo close's proof, leave of it (aeprimop channel_settle). The chain below
 * claims the recorded chain's three names with the recorded fees, out-bids as it did, then transfers, updates and
 * revokes; it closes channels so, and has a PayingForTx pay for a generalized account's unsigned meta transaction.
 */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { channelId, commitmentId, nameHash } from '../../../src/devnode/ids.ts';
import { keyPairFromSeed, parseSecretKey, signBytes, type KeyPair } from '../../../src/devnode/keys.ts';
import { encodeTx, type BuiltTx, type TxFields } from '../../../src/devnode/tx-codec.ts';
import { aeBalancesApart, devnodeBalances, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { offChainPayload, poiOfBalances, stateHash } from '../../support/channel-txs.ts';
import { fundGa, gaAttachTx, gaMetaTx, innerSpend } from '../../support/ga-txs.ts';
import { migrationSql } from '../../support/migration-sql.ts';
import { readExchanges } from '../../support/real-node-recording.ts';
import {
  deriveAgain,
  mineGeneration,
  populatedWithNodeSettings,
  startHarness,
  verifyClean,
  type Harness,
} from './support/harness.ts';
import { keepAside, rowsApart } from './support/schema-rows.ts';

type Obj = { [key: string]: Json };

const FEE = 10n ** 15n;
/** each party's deposit in the channel closed by a paid-for mutual close */
const DEPOSIT = 10n ** 17n;
/** what the plain mutual close's final amounts and fee leave in its channel */
const LEFT = 12_345n;
/** what the settle's final amounts leave in its channel (an off-chain contract's coins, say) */
const SETTLE_LEFT = 54_321n;
/** the generalized account's inner spend, paid for */
const GA_SPEND = 777n;

/** A NameClaimTx of the recorded chain, in its order: its height, the name, its fee, and whether it bid (salt 0). */
interface RecordedClaim {
  readonly height: number;
  readonly name: string;
  readonly nameFee: bigint;
  readonly bid: boolean;
}

/**
 * recorded reads the recorded chain's name claims (chain order) and the locked-coins account's balance at the recorded
 * heights after the claims (before the auction's end, and after it).
 */
function recorded(): { claims: RecordedClaim[]; lockedBefore: bigint; lockedAfter: bigint; end: number } {
  const exchanges = readExchanges('chain.ndjson.gz');
  const claims = exchanges
    .filter((e) => /^\/v3\/transactions\/th_\w+$/.test(e.path))
    .map((e) => parseJson(e.body) as Obj)
    .filter((t) => (t.tx as Obj).type === 'NameClaimTx')
    .sort((a, b) => Number(a.block_height) - Number(b.block_height))
    .map((t) => {
      const tx = t.tx as Obj;
      return {
        height: Number(t.block_height),
        name: String(tx.name),
        nameFee: BigInt(String(tx.name_fee)),
        bid: BigInt(String(tx.name_salt)) === 0n,
      };
    });
  const lockedAt = (height: number): bigint => {
    const e = exchanges.find((x) => x.path === `/v3/accounts/${LOCKED_COINS_ACCOUNT}/height/${height}`)!;
    return BigInt(String((parseJson(e.body) as Obj).balance));
  };
  const name = exchanges.find((e) => /^\/v3\/names\/auct\w+\.chain$/.test(e.path))!;
  // the auctioned name's ttl is the auction's end plus the claim lifetime
  const end = Number((parseJson(name.body) as Obj).ttl) - 180_000;
  return { claims, lockedBefore: lockedAt(411), lockedAfter: lockedAt(537), end };
}

describe('AE balances of name fees locked as the node locks them, and of outbid bids returned (issue 88)', function () {
  this.timeout(300_000);
  const law = recorded();
  let h: Harness;
  let pool: Pool;
  let env: Record<string, string>;
  /** the claimer of the long names (the recording's A and C), the auction's opener (D) and its outbidder (B) */
  let [claimer, opener, bidder, ga]: KeyPair[] = [];
  /** the auction's end: as many heights after its opening as the recorded auction's */
  let auctionEnd = 0;
  /** the generation holding the recorded chain's claims but the bid */
  let claimed = 0;
  /** the heights of the generations holding the paid-for mutual close and the one leaving coins in its channel */
  let closeHeight = 0;
  let leftHeight = 0;
  /** the heights of the paid-for close whose final amounts alone are its channel's, the settle, the paid-for GA */
  let exactHeight = 0;
  let settleHeight = 0;
  let gaHeight = 0;
  /** the generalized account's balance before its paid-for meta transaction */
  let gaBefore = 0n;

  before(async () => {
    h = await startHarness(3, 'balances-name-locks', {}, { REWARD_RULES: 'devnode' });
    const chain = h.devnode.chain;
    const patron = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    [claimer, opener, bidder, ga] = [91, 92, 93, 94].map((n) => keyPairFromSeed(Buffer.alloc(32, n)));
    const nonce = (k: KeyPair): number => (chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
    const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    const sign = (k: KeyPair, tx: Omit<TxFields, 'nonce'>): BuiltTx => ({
      tx: { ...tx, nonce: nonce(k) },
      signers: [k],
    });
    await h.devnode.mineKeyBlock();
    for (const k of [claimer!, opener!, bidder!, ga!]) submit(fundGa(patron, k.address, 10n ** 21n, nonce(patron)));
    await mineGeneration(h);
    // the recording's claims: the long names claimed after a preclaim (locked at once), the auction opened after one
    // and out-bid with salt 0 (the opener's bid returned; the winning one locked after the auction's end)
    const [first, second, opening, outbid] = law.claims;
    expect([first!.bid, second!.bid, opening!.bid, outbid!.bid]).to.deep.equal([false, false, false, true]);
    const salts = [11n, 12n, 13n];
    const who = [claimer!, claimer!, opener!];
    [first, second, opening].forEach((c, i) =>
      submit(
        sign(who[i]!, {
          type: 'NamePreclaimTx',
          version: 1,
          account_id: who[i]!.address,
          commitment_id: commitmentId(c!.name, salts[i]!),
          fee: FEE,
        }),
      ),
    );
    await mineGeneration(h);
    [first, second, opening].forEach((c, i) =>
      submit(
        sign(who[i]!, {
          type: 'NameClaimTx',
          version: 2,
          account_id: who[i]!.address,
          name: c!.name,
          name_salt: salts[i]!,
          name_fee: c!.nameFee,
          fee: FEE,
        }),
      ),
    );
    claimed = await mineGeneration(h);
    const claim = (k: KeyPair, c: RecordedClaim): BuiltTx =>
      sign(k, {
        type: 'NameClaimTx',
        version: 2,
        account_id: k.address,
        name: c.name,
        name_salt: 0,
        name_fee: c.nameFee,
        fee: FEE,
      });
    submit(claim(bidder!, outbid!));
    // the first long name updated, transferred to the bidder, updated by it and revoked, as the recording's
    const named = nameHash(first!.name);
    const update = (k: KeyPair): BuiltTx =>
      sign(k, {
        type: 'NameUpdateTx',
        version: 1,
        account_id: k.address,
        name_id: named,
        name_ttl: 1000,
        pointers: [{ key: 'account_pubkey', id: k.address }],
        client_ttl: 100,
        fee: FEE,
      });
    submit(update(claimer!));
    await mineGeneration(h);
    submit(
      sign(claimer!, {
        type: 'NameTransferTx',
        version: 1,
        account_id: claimer!.address,
        name_id: named,
        recipient_id: bidder!.address,
        fee: FEE,
      }),
    );
    await mineGeneration(h);
    submit(update(bidder!));
    await mineGeneration(h);
    submit(sign(bidder!, { type: 'NameRevokeTx', version: 1, account_id: bidder!.address, name_id: named, fee: FEE }));
    await mineGeneration(h);
    closeHeight = await close(claimer!, opener!, 0n, patron);
    leftHeight = await close(claimer!, bidder!, LEFT);
    // paid for, the close's fee is not the channel's: final amounts of all of it leave nothing
    exactHeight = await close(bidder!, claimer!, -FEE, patron);
    settleHeight = await settle(bidder!, claimer!);
    gaHeight = await paidMeta(bidder!);
    auctionEnd = claimed + (law.end - opening!.height);
    while (chain.height < auctionEnd + 3) await h.devnode.mineKeyBlock();
    ({ env, pool } = await populatedWithNodeSettings(h));

    /** open opens a channel between `initiator` and `responder`, each putting DEPOSIT in it; its id. */
    async function open(initiator: KeyPair, responder: KeyPair): Promise<string> {
      const createNonce = nonce(initiator);
      const create: TxFields = {
        type: 'ChannelCreateTx',
        version: 2,
        initiator_id: initiator.address,
        initiator_amount: DEPOSIT,
        responder_id: responder.address,
        responder_amount: DEPOSIT,
        channel_reserve: 500,
        lock_period: 5,
        delegate_ids: { initiator: [], responder: [] },
        state_hash: stateHash(1),
        fee: FEE,
        nonce: createNonce,
      };
      submit({ tx: create, signers: [initiator, responder] });
      await mineGeneration(h);
      return channelId(initiator.address, createNonce, responder.address);
    }

    /**
     * settle opens a channel, closes it alone on a state whose proof gives its initiator SETTLE_LEFT less than it put
     * in, and settles it after its lock period: that is locked. The generation holding the settle.
     */
    async function settle(initiator: KeyPair, responder: KeyPair): Promise<number> {
      const id = await open(initiator, responder);
      const proof = poiOfBalances([
        [initiator.address, DEPOSIT - SETTLE_LEFT],
        [responder.address, DEPOSIT],
      ]);
      const payload = offChainPayload(id, 2);
      const solo = { type: 'ChannelCloseSoloTx', version: 1, channel_id: id, from_id: initiator.address, payload };
      submit(sign(initiator, { ...solo, poi: proof, fee: FEE }));
      await mineGeneration(h);
      for (let i = 0; i < 5; i += 1) await h.devnode.mineKeyBlock();
      submit(
        sign(responder, {
          type: 'ChannelSettleTx',
          version: 1,
          channel_id: id,
          from_id: responder.address,
          initiator_amount_final: DEPOSIT - SETTLE_LEFT,
          responder_amount_final: DEPOSIT,
          fee: FEE,
        }),
      );
      return mineGeneration(h);
    }

    /**
     * paidMeta makes `ga` a generalized account and has `payer` pay for its meta transaction of an inner spend to the
     * claimer, neither signed (aega_meta_tx:signers: none). The generation holding it.
     */
    async function paidMeta(payer: KeyPair): Promise<number> {
      submit(gaAttachTx(ga!));
      await mineGeneration(h);
      gaBefore = chain.pending.accounts.get(ga!.address)!.balance;
      const meta = gaMetaTx(ga!.address, 1n, innerSpend(ga!.address, claimer!.address, GA_SPEND)).tx;
      const tx = {
        type: 'PayingForTx',
        version: 1,
        payer_id: payer.address,
        fee: FEE,
        tx: { tx: meta, signatures: [] },
      };
      submit(sign(payer, tx));
      return mineGeneration(h);
    }

    /**
     * close opens a channel between `initiator` and `responder` and closes it by a mutual close whose final amounts and
     * fee leave `left` in it, `payer` paying for it (its fee then the payer's: FEE more left in the channel): what it
     * leaves is locked. The generation holding the close.
     */
    async function close(initiator: KeyPair, responder: KeyPair, left: bigint, payer?: KeyPair): Promise<number> {
      const channel = await open(initiator, responder);
      const mutual: TxFields = {
        type: 'ChannelCloseMutualTx',
        version: 1,
        channel_id: channel,
        from_id: initiator.address,
        initiator_amount_final: DEPOSIT - (FEE * 3n) / 10n - left,
        responder_amount_final: DEPOSIT - (FEE * 7n) / 10n,
        fee: FEE,
        nonce: nonce(initiator),
      };
      if (payer === undefined) {
        submit({ tx: mutual, signers: [initiator, responder] });
        return mineGeneration(h);
      }
      const message = Buffer.concat([Buffer.from(`${chain.options.networkId}-inner_tx`), encodeTx(mutual)]);
      const signatures = [initiator, responder].map((k) => encode('sg', signBytes(k, message)));
      submit({
        tx: {
          type: 'PayingForTx',
          version: 1,
          payer_id: payer.address,
          fee: FEE,
          nonce: nonce(payer),
          tx: { tx: mutual, signatures },
        },
        signers: [payer],
      });
      return mineGeneration(h);
    }
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  /** lockedAt is the locked-coins account's balance the devnode answers after `height` (undefined: 404, none). */
  async function lockedAt(height: number): Promise<bigint | undefined> {
    const res = await fetch(`${h.devnode.externalUrl}/v3/accounts/${LOCKED_COINS_ACCOUNT}/height/${height}`);
    if (res.status === 404) return undefined;
    expect(res.status).to.equal(200);
    return BigInt(String((parseJson(await res.text()) as Obj).balance));
  }

  it("locks the recorded claims' fees as the recorded node did: the long names' at once, the winning bid after the auction's end", async () => {
    // the recorded node: the locked account holds the long names' fees before the end, and the winning bid after it
    const [first, second, , outbid] = law.claims;
    expect(law.lockedBefore).to.equal(first!.nameFee + second!.nameFee);
    expect(law.lockedAfter).to.equal(law.lockedBefore + outbid!.nameFee);
    // the devnode (the generated chain's own names' fees and auctions aside: what it locked at other heights), whose
    // state at a height is its key block's, as the node's (`/height/H`): a generation's transactions show at H + 1
    const locks = async (height: number): Promise<bigint> => (await lockedAt(height))! - (await lockedAt(height - 1))!;
    expect(await lockedAt(0), 'no account before anything is locked').to.equal(undefined);
    expect(await locks(claimed + 1), 'the long names’ fees, the auction’s opening bid held in it').to.equal(
      law.lockedBefore,
    );
    expect(await locks(claimed + 2), 'the outbid bid held in the auction, the opening one returned').to.equal(0n);
    expect(await locks(auctionEnd), 'through the generation of the auction’s end').to.equal(0n);
    expect(await locks(auctionEnd + 1), 'the winning bid, from the key block after it').to.equal(
      law.lockedAfter - law.lockedBefore,
    );
    // the paid-for close's fee, left in the channel, is locked at the close
    expect(await locks(closeHeight + 1)).to.equal(FEE);
    // so is what a plain one's final amounts and fee leave in it
    expect(await locks(leftHeight + 1)).to.equal(LEFT);
    // a paid-for one's final amounts alone may be all of it: nothing left
    expect(await locks(exactHeight + 1)).to.equal(0n);
    // what a settle's final amounts, its parties' in the solo close's proof, leave of it
    expect(await locks(settleHeight + 1)).to.equal(SETTLE_LEFT);
    // the paid-for generalized account paid its inner spend's amount only, its fees and gas the payer's
    const balances = devnodeBalances(h.devnode.chain, gaHeight);
    expect(balances.get(ga!.address)).to.equal(gaBefore - GA_SPEND);
    // the outbid opener got its bid back: what it paid is the preclaim's and the claim's fees, and what it left of its
    // deposit in the channel (the responder's part of the close's fee)
    const paid = 10n ** 21n - devnodeBalances(h.devnode.chain, h.devnode.height()).get(opener!.address)!;
    expect(paid).to.equal(2n * FEE + (FEE * 7n) / 10n);
  });

  it("serves every account after every height as the devnode's state, the locked-coins account's included, with no 'unexplained' change", async () => {
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    expect(await unexplainedChanges(pool)).to.deep.equal([]);
    // the locked-coins account's changes are the name fees and the close's leftover, each where the node made it
    const locked = await pool.query<{ height: number; micro_index: number; kind: string; delta: string }>(
      `SELECT height, micro_index, kind, delta::text FROM account_balance_changes WHERE account_id = $1
        ORDER BY height, micro_index, tx_index, seq`,
      [LOCKED_COINS_ACCOUNT],
    );
    const [first, second, , outbid] = law.claims;
    const ours = [claimed, closeHeight, leftHeight, exactHeight, settleHeight, auctionEnd + 1];
    expect(locked.rows.filter((r) => ours.includes(r.height))).to.deep.equal([
      { height: claimed, micro_index: 0, kind: 'fee_lock_name', delta: String(first!.nameFee) },
      { height: claimed, micro_index: 0, kind: 'fee_lock_name', delta: String(second!.nameFee) },
      { height: closeHeight, micro_index: 0, kind: 'PayingForTx', delta: String(FEE) },
      { height: leftHeight, micro_index: 0, kind: 'ChannelCloseMutualTx', delta: String(LEFT) },
      { height: settleHeight, micro_index: 0, kind: 'ChannelSettleTx', delta: String(SETTLE_LEFT) },
      { height: auctionEnd + 1, micro_index: -1, kind: 'fee_lock_name', delta: String(outbid!.nameFee) },
    ]);
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    // its scratch load of the 490 heights in batches of 100 (verifyClean's), not the load's 10: the derived rows
    // compared come from two batchings, and the scratch pays a batch's steps 5 times, not 49
    await verifyClean(h, env);
  });

  it("derives again, by migration 1145, a schema that locked the auction's winning bid one height early, a close's rest never, a paid-for GA's call not at all", async () => {
    // the fresh load (-v --full verified it) kept aside, to compare the derived again with
    await keepAside(h.db.url, 'mdw', 'fresh');
    // the schema before 1145: the winning bid's lock at the key block of the auction's end, nothing of what a mutual
    // close left in its channel
    await pool.query(
      `UPDATE internal_transfers SET height = height - 1 WHERE kind = 'fee_lock_name' AND micro_index = -1`,
    );
    await pool.query(
      `UPDATE account_balance_changes SET height = height - 1 WHERE kind = 'fee_lock_name' AND micro_index = -1`,
    );
    await pool.query(
      `DELETE FROM account_balance_changes WHERE account_id = $1 AND height = $2 AND kind = 'ChannelCloseMutualTx'`,
      [LOCKED_COINS_ACCOUNT, leftHeight],
    );
    // nor a GA call of a paid-for GA transaction
    const gaCall = 'SELECT gas_used FROM ga_calls WHERE height = $1';
    const storedGaCall = (await pool.query(gaCall, [gaHeight])).rows;
    expect(storedGaCall).to.have.length(1);
    await pool.query('DELETE FROM ga_calls WHERE height = $1', [gaHeight]);
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    const apart = await aeBalancesApart(pool, h.devnode.chain, all);
    for (const height of [leftHeight, auctionEnd])
      expect(apart.some((line) => line.startsWith(`${LOCKED_COINS_ACCOUNT} at ${height}:`))).to.equal(true);
    await pool.query(await migrationSql('1145_locked_coins'));
    const pending = await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area');
    // the first auction's end or channel close (the generated chain's own among them)
    const start = (
      await pool.query<{ height: number }>(
        `SELECT least((SELECT min(auction_end) FROM name_events WHERE auction_end IS NOT NULL AND local_idx IS NULL),
                      (SELECT min(height) FROM channel_events WHERE closes)) AS height`,
      )
    ).rows[0]!.height;
    expect(start).to.be.at.most(Math.min(closeHeight, auctionEnd));
    // and the first paid-for GA transaction (the generated chain's own among them) for the ga area and its readers
    const paidGa = (
      await pool.query<{ height: number }>(
        `SELECT min(height) AS height FROM transactions WHERE tx_type = 82 AND inner_type IN ('GAAttachTx', 'GAMetaTx')`,
      )
    ).rows[0]!.height;
    expect(paidGa).to.be.at.most(gaHeight);
    const top = h.devnode.height();
    expect(pending.rows).to.deep.equal([
      { area: 'balances', next_height: Math.min(start, paidGa), to_height: top },
      { area: 'ga', next_height: paidGa, to_height: top },
      { area: 'stats', next_height: paidGa, to_height: top },
      { area: 'transfers', next_height: Math.min(start, paidGa), to_height: top },
    ]);
    // 50 heights a step, not the batches' 10: the ~480 heights from the first auction's end in about ten steps, each a
    // transaction of its own (the derived again compared with the load's batches of 10: two batchings)
    await deriveAgain(h, pool, { ...env, BATCH_SIZE: '50' });
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    expect((await pool.query(gaCall, [gaHeight])).rows).to.deep.equal(storedGaCall);
    // every table as the fresh load's (the comparison `-v --full` makes with its scratch load, a fresh load)
    expect(await rowsApart(h.db.url, 'mdw', 'fresh')).to.deep.equal([]);
  });
});
