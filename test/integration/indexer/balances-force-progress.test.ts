/**
 * @module Issue 88: force progresses against the devnode's state, height by height. A ChannelForceProgressTx runs its
 * off-chain contract call on chain: its sender (a PayingForTx's payer, a GAMetaTx's generalized account) pays the fee
 * and the gas the call used at the update's gas price, and the call object it leaves counts in the generation's fees
 * (aesc_utils:process_force_progress, add_call; aec_chain_state:calculate_gas_fee). The node tells that gas in the
 * transaction's info only (`call_info`), which the sync asks; on the devnode, which burns fees, a generation's fees are
 * what its transactions took out of all accounts.
 */
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { channelId } from '../../../src/devnode/ids.ts';
import { keyPairFromSeed, parseSecretKey, signBytes, type KeyPair } from '../../../src/devnode/keys.ts';
import { encodeTx, type BuiltTx, type TxFields } from '../../../src/devnode/tx-codec.ts';
import { aeBalancesApart, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { forcedCall, stateHash } from '../../support/channel-txs.ts';
import { fundGa, gaAttachTx, gaMetaTx } from '../../support/ga-txs.ts';
import { migrationSql } from '../../support/migration-sql.ts';
import {
  deriveAgain,
  mineGeneration,
  populatedWithNodeSettings,
  startHarness,
  verifyClean,
  type Harness,
} from './support/harness.ts';

type Obj = { [key: string]: Json };

const FEE = 10n ** 15n;
/** the gas price of the forced calls (their update's) */
const GAS_PRICE = forcedCall('').gas_price;
/** EMPTY_PAYLOAD names no off-chain state: the last on-chain one (the node's `tx_` of no bytes) */
const EMPTY_PAYLOAD = encode('tx', Buffer.alloc(0));

describe('AE balances and generation fees of force progresses, plain, paid for and by a generalized account (issue 88)', function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let initiator: KeyPair;
  let payer: KeyPair;
  /** the channel's responder, which becomes a generalized account and forces a state through a GAMetaTx */
  let ga: KeyPair;
  let env: Record<string, string>;
  /** the heights of the generations holding the transactions below */
  const heights: number[] = [];
  /** the hashes of the three force progresses (or of their wrappers) */
  const forced: string[] = [];

  before(async () => {
    h = await startHarness(12, 'balances-force-progress', {}, { REWARD_RULES: 'devnode' });
    const chain = h.devnode.chain;
    initiator = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    payer = keyPairFromSeed(Buffer.alloc(32, 81));
    ga = keyPairFromSeed(Buffer.alloc(32, 82));
    // the next nonce, of the pending state: the transactions submitted so far counted
    const nonce = (k: KeyPair): number => chain.pending.accounts.get(k.address)!.nonce + 1;
    const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
    await h.devnode.mineKeyBlock();
    const mine = async (): Promise<void> => void heights.push(await mineGeneration(h));
    submit(fundGa(initiator, ga.address, 10n ** 21n, nonce(initiator)));
    submit(fundGa(initiator, payer.address, 10n ** 21n, nonce(initiator)));
    await mine();
    const createNonce = nonce(initiator);
    const channel = channelId(initiator.address, createNonce, ga.address);
    const create: TxFields = {
      type: 'ChannelCreateTx',
      version: 2,
      initiator_id: initiator.address,
      initiator_amount: 1_000_000,
      responder_id: ga.address,
      responder_amount: 1_000_000,
      channel_reserve: 500,
      lock_period: 5,
      delegate_ids: { initiator: [], responder: [] },
      state_hash: stateHash(1),
      fee: FEE,
      nonce: createNonce,
    };
    submit({ tx: create, signers: [initiator, ga] });
    await mine();
    submit(gaAttachTx(ga));
    await mine();
    const progress = (from: KeyPair, round: number): TxFields => ({
      type: 'ChannelForceProgressTx',
      version: 1,
      channel_id: channel,
      from_id: from.address,
      payload: EMPTY_PAYLOAD,
      round,
      update: forcedCall(from.address),
      state_hash: stateHash(round),
      offchain_trees: encode('ss', Buffer.alloc(16, 3)),
      fee: FEE,
    });
    forced.push(submit({ tx: { ...progress(initiator, 2), nonce: nonce(initiator) }, signers: [initiator] }));
    // the payer pays for the initiator's, which the initiator signs over `network-inner_tx`
    const inner = { ...progress(initiator, 3), nonce: nonce(initiator) };
    const message = Buffer.concat([Buffer.from(`${chain.options.networkId}-inner_tx`), encodeTx(inner)]);
    const paid: TxFields = {
      type: 'PayingForTx',
      version: 1,
      payer_id: payer.address,
      fee: FEE,
      nonce: nonce(payer),
      tx: { tx: inner, signatures: [encode('sg', signBytes(initiator, message))] },
    };
    forced.push(submit({ tx: paid, signers: [payer] }));
    forced.push(submit(gaMetaTx(ga.address, 1n, { ...progress(ga, 4), nonce: 0 })));
    await mine();
    ({ env, pool } = await populatedWithNodeSettings(h));
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("stores each force progress's gas as the node's info tells it, its sender, payer or GA charged it", async () => {
    // the node's answer: a GAMetaTx's info is its GA call's, the force progress's call inside it
    const told: string[] = [];
    for (const hash of forced) {
      const res = await fetch(`${h.devnode.externalUrl}/v3/transactions/${hash}/info`);
      expect(res.status, hash).to.equal(200);
      const info = parseJson(await res.text()) as Obj;
      const call = (info.call_info ?? ((info.ga_info as Obj).inner_object as Obj).call_info) as Obj;
      told.push(String(call.gas_used));
    }
    const stored = await pool.query<{ tx_hash: string; gas_used: string | null }>(
      "SELECT tx_hash, gas_used::text FROM channel_events WHERE tx_type = 'ChannelForceProgressTx' AND tx_hash = ANY($1)",
      [forced],
    );
    const byHash = new Map(stored.rows.map((r) => [r.tx_hash, r.gas_used]));
    expect(forced.map((hash) => byHash.get(hash))).to.deep.equal(told);
    expect(told.every((gas) => BigInt(gas) > 0n)).to.equal(true);
  });

  it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    expect(await unexplainedChanges(pool, [initiator.address, payer.address, ga.address])).to.deep.equal([]);
  });

  it("counts in each generation's fees what its transactions took out of all accounts (the devnode burns fees)", async () => {
    expect(await feesApart()).to.deep.equal([]);
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    await verifyClean(h, env);
  });

  it('repairs, by migration 1143, a schema stored without the force progresses’ gas', async () => {
    // the schema before 1143: no gas column, the fees without the calls' gas
    const gas = await pool.query<{ height: number; gas: string }>(
      `SELECT e.height, sum(e.gas_used)::text AS gas FROM channel_events e
        WHERE e.tx_type = 'ChannelForceProgressTx' GROUP BY e.height`,
    );
    for (const { height, gas: used } of gas.rows)
      await pool.query('UPDATE generation_fees SET fees = fees - $2::numeric * $3 WHERE height = $1', [
        height,
        used,
        GAS_PRICE,
      ]);
    expect(await feesApart()).to.not.deep.equal([]);
    await pool.query('ALTER TABLE channel_events DROP COLUMN gas_used');
    await pool.query(await migrationSql('1143_force_progress_gas'));
    const top = h.devnode.height();
    const pending = await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area');
    expect(pending.rows).to.deep.equal(
      ['balances', 'ga', 'stats', 'transfers'].map((area) => ({ area, next_height: heights[3], to_height: top })),
    );
    await deriveAgain(h, pool, env);
    expect(await feesApart()).to.deep.equal([]);
    const stored = await pool.query(
      "SELECT 1 FROM channel_events WHERE tx_type = 'ChannelForceProgressTx' AND gas_used IS NULL",
    );
    expect(stored.rows).to.deep.equal([]);
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    await verifyClean(h, env);
  });

  /**
   * feesApart lists the generations whose stored fees are not what their transactions took out of all accounts and
   * channels (a channel holds its parties' coins), and so burned.
   */
  async function feesApart(): Promise<string[]> {
    const chain = h.devnode.chain;
    const held = (hash: string): bigint => {
      const state = chain.stateAfter(hash)!;
      const accounts = [...state.accounts.entries()].reduce((sum, [, a]) => sum + a.balance, 0n);
      const channels = [...state.channels.entries()].reduce((sum, [, c]) => sum + c.amount, 0n);
      return accounts + channels;
    };
    const apart: string[] = [];
    for (const height of heights) {
      const gen = chain.keyBlocks[height]!;
      const burned = held(gen.hash) - held(gen.micro.at(-1)!.hash);
      const stored = await pool.query<{ fees: string }>('SELECT fees::text FROM generation_fees WHERE height = $1', [
        height,
      ]);
      if (stored.rows[0]?.fees !== String(burned)) apart.push(`${height}: ${stored.rows[0]?.fees} ≠ ${burned}`);
    }
    return apart;
  }
});
