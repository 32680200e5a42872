/**
 * @module Issue 89 item 9: a generalized account's transactions against the devnode's state, height by height. A
 * GAMetaTx whose inner transaction fails (a spend above the GA's balance) is mined all the same: the node charges the
 * meta transaction's fee and the authentication's gas, nothing of the inner one (aega_meta_tx:process_inner,
 * set_meta_result), and its GA call returns `error`. The GAs' own calls' gas is part of the fees the miners share
 * (aec_chain_state:calculate_gas_fee), a failed inner transaction's fee is not (aetx:deep_fee/2): on the devnode,
 * which burns fees, what a generation's transactions took out of all accounts.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { encode } from '../../../src/chain/encoding.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { signBuilt } from '../../../src/devnode/index.ts';
import { keyPairFromSeed, parseSecretKey } from '../../../src/devnode/keys.ts';
import type { BuiltTx } from '../../../src/devnode/tx-codec.ts';
import { aeBalancesApart, devnodeBalances, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import { fundGa, GA_GAS_PRICE, gaAttachTx, gaMetaTx, INNER_SPEND_FEE, innerSpend } from '../../support/ga-txs.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import {
  deriveAgain,
  mineGeneration,
  populatedWithNodeSettings,
  silent,
  startHarness,
  verifyClean,
  type Harness,
} from './support/harness.ts';

/** the amount of the inner spend that fails */
const FAILED_AMOUNT = 10n ** 22n;

describe("AE balances of a generalized account's transactions, a failed inner one among them (issue 89)", function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let ga: string;
  let recipient: string;
  /** the populator's settings: the node's genesis accounts, the internal API (dry-runs) */
  let env: Record<string, string>;
  /** the heights of the generations holding the GA's transactions */
  const heights: number[] = [];

  before(async () => {
    h = await startHarness(12, 'balances-ga', {}, { REWARD_RULES: 'devnode' });
    const chain = h.devnode.chain;
    const owner = parseSecretKey(h.devnode.accounts[0]!.secretKey);
    const key = keyPairFromSeed(Buffer.alloc(32, 77));
    ga = key.address;
    recipient = encode('ak', Buffer.alloc(32, 78));
    const submit = (built: BuiltTx): void => void chain.submit(signBuilt(chain.options.networkId, built));
    // the generations after this one hold only the transactions below
    await h.devnode.mineKeyBlock();
    const mine = async (): Promise<void> => void heights.push(await mineGeneration(h));
    submit(fundGa(owner, ga, 10n ** 21n, chain.pending.accounts.get(owner.address)!.nonce + 1));
    await mine();
    submit(gaAttachTx(key));
    await mine();
    const meta = (n: number, amount: bigint): BuiltTx => gaMetaTx(ga, BigInt(n), innerSpend(ga, recipient, amount));
    // a spend above the GA's balance fails inside its meta transaction; the next one, within it, goes through
    submit(meta(1, FAILED_AMOUNT));
    submit(meta(2, 5n * 10n ** 18n));
    await mine();
    ({ env, pool } = await populatedWithNodeSettings(h));
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("mines the failed one, its GA call returning error, and pays the recipient only the other's amount", async () => {
    const calls = await pool.query<{ return_type: string }>(
      'SELECT return_type FROM ga_calls WHERE height = $1 ORDER BY micro_index, tx_index',
      [heights[2]],
    );
    expect(calls.rows.map((r) => r.return_type)).to.deep.equal(['error', 'ok']);
    expect(devnodeBalances(h.devnode.chain, h.devnode.height()).get(recipient)).to.equal(5n * 10n ** 18n);
  });

  it("serves every account after every height as the devnode's state, the GA's moves told by the rules", async () => {
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
    // no difference left for the node's state to place: the rules told each change
    expect(await unexplainedChanges(pool, [ga, recipient])).to.deep.equal([]);
  });

  it("counts in each generation's fees what its transactions took out of all accounts (the devnode burns fees)", async () => {
    const chain = h.devnode.chain;
    const total = (balances: Map<string, bigint>): bigint => [...balances.values()].reduce((a, b) => a + b, 0n);
    for (const height of heights) {
      const gen = chain.keyBlocks[height]!;
      const atKeyBlock = chain.stateAfter(gen.hash)!;
      const opened = [...atKeyBlock.accounts.entries()].reduce((sum, [, a]) => sum + a.balance, 0n);
      const burned = opened - total(devnodeBalances(chain, height));
      const stored = await pool.query<{ fees: string }>('SELECT fees::text FROM generation_fees WHERE height = $1', [
        height,
      ]);
      expect(stored.rows[0]?.fees, `generation ${height}`).to.equal(String(burned));
    }
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    await verifyClean(h, env);
  });

  it("repairs, by migration 1141, what a version before left (the fees, the failed meta transaction's changes), its GA calls pending too", async () => {
    const right = await pool.query<{ height: number; fees: string }>(
      'SELECT height, fees::text FROM generation_fees WHERE height = ANY($1) ORDER BY height',
      [heights],
    );
    // the old rule's sums: no GA's own gas, a failed inner transaction's fee counted
    await pool.query(
      `UPDATE generation_fees f
          SET fees = f.fees - (SELECT coalesce(sum(g.gas_used), 0) * $2 FROM ga_calls g WHERE g.height = f.height)
                   + (SELECT count(*) * $3 FROM ga_calls g WHERE g.height = f.height AND g.return_type = 'error')
        WHERE f.height = ANY($1)`,
      [heights, GA_GAS_PRICE, String(INNER_SPEND_FEE)],
    );
    // the old rule's changes: the failed meta transaction applied its inner fee and amount, which the node's balance
    // then put back as an 'unexplained' change after its block
    const lost = String(INNER_SPEND_FEE + FAILED_AMOUNT);
    const [failed] = (
      await pool.query<{ height: number; micro_index: number; tx_index: number }>(
        "SELECT height, micro_index, tx_index FROM ga_calls WHERE return_type = 'error'",
      )
    ).rows;
    const at = [ga, failed!.height, failed!.micro_index, failed!.tx_index];
    await pool.query(
      `UPDATE account_balance_changes SET delta = delta - $5
        WHERE account_id = $1 AND height = $2 AND micro_index = $3 AND tx_index = $4`,
      [...at, lost],
    );
    await pool.query(
      `UPDATE account_balance_changes SET balance = balance - $5
        WHERE account_id = $1 AND height = $2 AND (micro_index, tx_index) >= ($3, $4)`,
      [...at, lost],
    );
    await pool.query(
      `INSERT INTO account_balance_changes (account_id, height, micro_index, tx_index, seq, kind, delta, balance)
       SELECT $1, $2, micro_index, 2147483647, 0, 'unexplained', $3, balance + $3
         FROM account_balance_changes WHERE account_id = $1 AND height = $2
        ORDER BY micro_index DESC, tx_index DESC, seq DESC LIMIT 1`,
      [ga, failed!.height, lost],
    );
    const lines: string[] = [];
    await verifyChain(
      { cfg: h.config({ ...FULL_VERIFY_BATCH, ...env }), log: silent, out: (l) => lines.push(l) },
      { full: true },
    );
    // -v compares the fees (the changes, whose reconciliation asks the node, only as the accounts' state: unchanged)
    expect(
      lines.filter((l) => !l.startsWith('derived generation_fees: ')),
      lines.join('\n'),
    ).to.deep.equal([]);
    expect(lines.length).to.be.greaterThan(0);

    // its GA calls not derived yet either: the transfers must not read them before the ga area wrote them
    await pool.query('DELETE FROM ga_calls');
    await pool.query("INSERT INTO derive_backfill (area, next_height, to_height) VALUES ('ga', $1, $2)", [
      heights[1],
      heights[2],
    ]);
    await pool.query(await readFile(new URL('../../../migrations/1141_ga_reward_fees.sql', import.meta.url), 'utf8'));
    const top = h.devnode.height();
    const pending = await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area');
    expect(pending.rows).to.deep.equal([
      { area: 'balances', next_height: heights[1], to_height: top },
      { area: 'ga', next_height: heights[1], to_height: heights[2] },
      { area: 'stats', next_height: heights[1], to_height: top },
      { area: 'transfers', next_height: heights[1], to_height: top },
    ]);

    await deriveAgain(h, pool, env);
    const repaired = await pool.query<{ height: number; fees: string }>(
      'SELECT height, fees::text FROM generation_fees WHERE height = ANY($1) ORDER BY height',
      [heights],
    );
    expect(repaired.rows).to.deep.equal(right.rows);
    const unexplained = await pool.query(
      "SELECT 1 FROM account_balance_changes WHERE kind = 'unexplained' AND account_id = $1",
      [ga],
    );
    expect(unexplained.rows).to.deep.equal([]);
    await verifyClean(h, env);
  });
});
