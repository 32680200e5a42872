/**
 * @module AEX-9 balances through the populator over a generated devnode chain with token traffic (transfers,
 * mints, burns, allowances, wrapped AE, DEX liquidity and swaps), checked two ways after the sync and after
 * forks of depth 1 to 40: against the balances recomputed from the node's call logs (every Transfer, Mint,
 * Burn, Swap and WAE Deposit/Withdrawal from the first block), and against the devnode's own ledger. No
 * negative balance, holders and supplies as the ledger has them. The balances at past key blocks (kept after each
 * event, migration 1050: a token's holders and each holder's balance, as /v3 reads them at a height) equal the same
 * fold of the logs stopped at that block, after the sync and after every fork, and what each token's contract answers
 * in a dry-run at that block (its own state, not a fold of its logs).
 */
import { expect } from 'chai';
import { AeSdk, Contract, Node, type Encoded } from '@aeternity/aepp-sdk';
import { TOKEN_ACI } from '../../../src/devnode/contracts/aci.ts';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import {
  balanceKey,
  balancesFromLogs,
  balancesFromLogsAt,
  ledgerBalances,
  positive,
  wrappedAe,
  type Balances,
} from '../../support/aex9-truth.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { createReadPool, type Pool } from '../../../src/db/connection/pool.ts';
import { accountAmount, holdersPage, MAX_MICRO } from '../../../src/db/queries/aex9-balances.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';

describe('AEX-9 balances from events, exact across forks', function () {
  this.timeout(600_000);
  let h: Harness;
  let populator: Populator | undefined;
  let wae = '';

  const stored = async (): Promise<Balances> => {
    const rows = await h.query<{ contract_id: string; account: string; amount: string }>(
      'mdw',
      'SELECT contract_id, account, amount::text FROM aex9_balances',
    );
    expect(
      rows.filter((r) => BigInt(r.amount) < 0n),
      'negative balances',
    ).to.deep.equal([]);
    return positive(new Map(rows.map((r) => [balanceKey(r.contract_id, r.account), BigInt(r.amount)])));
  };

  const converged = async (): Promise<void> => {
    await waitFor('the populator to reach the devnode top', async () => {
      const top = await storedTopHash(h, 'mdw');
      return top?.hash === h.devnode.chain.keyBlocks.at(-1)!.hash;
    });
  };

  const check = async (): Promise<void> => {
    const ours = await stored();
    expect(ours.size, 'holders of all tokens').to.be.above(20);
    expect(ours).to.deep.equal(balancesFromLogs(h.devnode.chain));
    expect(ours).to.deep.equal(ledgerBalances(h.devnode.chain));
    const store = h.devnode.chain.state.contractStore;
    const states = await h.query<{
      contract_id: string;
      holders: number;
      initial_supply: string;
      event_supply: string;
    }>('mdw', 'SELECT contract_id, holders, initial_supply::text, event_supply::text FROM aex9_contract_state');
    for (const s of states) {
      const holders = [...ours.keys()].filter((k) => k.startsWith(`${s.contract_id} `)).length;
      expect(s.holders, s.contract_id).to.equal(holders);
      expect(BigInt(s.initial_supply) + BigInt(s.event_supply), s.contract_id).to.equal(
        (store.get(`${s.contract_id}/supply`) as bigint | undefined) ?? 0n,
      );
    }
    const flagged = await h.query('mdw', 'SELECT 1 FROM aexn_contracts WHERE balances_unknown OR meta_invalid');
    expect(flagged).to.deep.equal([]);
    await checkPast();
  };

  /** checkPast compares the balances read at every 25th key block (and the top's) with the logs folded up to it. */
  const checkPast = async (): Promise<void> => {
    const blocks = h.devnode.chain.keyBlocks;
    const tokens = (
      await h.query<{ contract_id: string }>('mdw', 'SELECT DISTINCT contract_id FROM aex9_balances')
    ).map((r) => r.contract_id);
    let compared = 0;
    const sampled = [...blocks.entries()].filter(([height]) => height % 25 === 0 || height === blocks.length - 1);
    const truths = balancesFromLogsAt(
      h.devnode.chain,
      sampled.map(([, kb]) => kb.hash),
    );
    for (const [height, kb] of sampled) {
      const at = { height: height - 1, microIndex: MAX_MICRO };
      const truth = truths.get(kb.hash)!;
      const read: Balances = new Map();
      for (const contractId of tokens)
        for (const r of await holdersPage(
          pool!,
          { contractId, by: 'pubkey', at },
          { walk: 'forward', from: undefined, n: 10_000 },
        ))
          read.set(balanceKey(contractId, r.account), BigInt(r.amount));
      expect(read, `holders at height ${height}`).to.deep.equal(truth);
      // one holder's balance: the same at that height, null where it had no event yet
      for (const [key, amount] of [...truth].slice(0, 5)) {
        const [contractId, account] = key.split(' ') as [string, string];
        expect(await accountAmount(pool!, contractId, account, at), key).to.equal(amount.toString());
      }
      compared += truth.size;
    }
    expect(compared, 'past balances compared').to.be.above(20);
  };

  let pool: Pool | undefined;

  before(async () => {
    // as many token transactions as 200 generations of the mix (a tenth) held, in half the blocks: the forks (40
    // deep at most), the samples every 25 and 50 heights and the guards on holders and event kinds all still hold
    h = await startHarness(100, 'aex9-balances', { tokenShare: 0.2 });
    pool = createReadPool(h.config(), 'aex9-balances-test', silent);
    wae = wrappedAe(h.devnode.chain);
    expect(wae, 'the devnode deploys wrapped AE').to.not.equal('');
    populator = await startPopulator({
      cfg: h.config({ DEX_WRAPPED_AE: wae }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    await converged();
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await h?.close();
  });

  it('equals the balances of the call logs and of the ledger after a full sync', async () => {
    await check();
    const kinds = await h.query<{ kind: string }>('mdw', 'SELECT DISTINCT kind FROM aex9_events');
    expect(kinds.map((k) => k.kind)).to.include.members(['seed', 'transfer', 'mint', 'burn', 'deposit']);
  });

  it("equals at past heights what each token's contract answers there (balances() dry-run at that key block)", async () => {
    const aeSdk = new AeSdk({
      nodes: [{ name: 'devnode', instance: new Node(h.devnode.externalUrl, { retryCount: 0 }) }],
    });
    const tokens = await h.query<{ contract_id: string; height: number }>(
      'mdw',
      "SELECT contract_id, height FROM aexn_contracts WHERE aexn_type = 'aex9'",
    );
    const blocks = h.devnode.chain.keyBlocks;
    let compared = 0;
    for (let height = 50; height < blocks.length; height += 50) {
      const at = { height: height - 1, microIndex: MAX_MICRO };
      for (const { contract_id: contractId } of tokens.filter((t) => t.height < height)) {
        const contract = await Contract.initialize<{ balances: () => Map<string, bigint> }>({
          ...aeSdk.getContext(),
          aci: TOKEN_ACI as never,
          address: contractId as Encoded.ContractAddress,
        });
        const { decodedResult } = await contract.balances({ top: blocks[height]!.hash } as never);
        const theirs = positive(new Map([...decodedResult].map(([a, v]) => [balanceKey(contractId, a), v])));
        const ours: Balances = new Map();
        for (const r of await holdersPage(
          pool!,
          { contractId, by: 'pubkey', at },
          { walk: 'forward', from: undefined, n: 10_000 },
        ))
          ours.set(balanceKey(contractId, r.account), BigInt(r.amount));
        expect(positive(ours), `${contractId} at height ${height}`).to.deep.equal(theirs);
        compared += theirs.size;
      }
    }
    expect(compared, 'past balances compared with the contracts').to.be.above(20);
  });

  for (const depth of [1, 6, 17, 40]) {
    it(`stays exact across a fork of depth ${depth}`, async () => {
      await h.devnode.fork(depth);
      await h.devnode.mineKeyBlock();
      await converged();
      await check();
    });
  }

  it('stays exact when forks follow each other faster than the populator catches up', async () => {
    await h.devnode.fork(12);
    await h.devnode.mineKeyBlock();
    await h.devnode.fork(30);
    await h.devnode.mineKeyBlock();
    await h.devnode.fork(3);
    await converged();
    await check();
  });

  it('keeps after all these forks what a fresh load of the same chain derives, latest events included', async () => {
    // in batches of 100 heights (the populator's were of 10): a batch's reads and commit paid a tenth as often, and a
    // row that depends on where a batch ends differs between the two loads
    await reloadHeights(
      { cfg: h.config({ DATABASE_SCHEMA: 'fresh', DEX_WRAPPED_AE: wae, ...FULL_VERIFY_BATCH }), log: silent },
      Array.from({ length: h.devnode.height() + 1 }, (_, i) => i),
    );
    for (const [table, order] of [
      ['aexn_contracts', 'contract_id'],
      ['aexn_call_created', 'contract_id'],
      ['aex9_events', 'contract_id, account, height, micro_index, tx_index, log_idx, side'],
      ['aex9_transfers', 'contract_id, height, micro_index, tx_index, log_idx'],
      ['aex9_balances', 'contract_id, account'],
      ['aex9_contract_state', 'contract_id'],
      ['aex9_event_balances', 'contract_id, account, height, micro_index, tx_index, log_idx, side'],
    ] as const) {
      const sql = `SELECT * FROM ${table} ORDER BY ${order}`;
      expect(await h.query('mdw', sql), table).to.deep.equal(await h.query('fresh', sql));
    }
  });
});

describe('AEX-9 balances with a fork injected while the populator is still catching up', function () {
  this.timeout(600_000);
  let h: Harness;
  let populator: Populator | undefined;

  before(async () => {
    h = await startHarness(100, 'aex9-mid-sync');
  });
  after(async () => {
    await populator?.stop();
    await h?.close();
  });

  it('rolls back the heights it had stored and ends exact', async () => {
    const wae = wrappedAe(h.devnode.chain);
    populator = await startPopulator({
      cfg: h.config({ DEX_WRAPPED_AE: wae, BATCH_SIZE: '3' }),
      log: silent,
      registry: new prom.Registry(),
    });
    await waitFor(
      'the populator to store height 65',
      async () => ((await storedTopHash(h, 'mdw'))?.height ?? 0) >= 65,
      120_000,
      10,
    );
    const storedAtFork = (await storedTopHash(h, 'mdw'))!.height;
    // the fork replaces heights 61 to 100: the populator has stored some of them and not yet the others
    const top = h.devnode.height();
    await h.devnode.fork(40);
    await h.devnode.mineKeyBlock();
    expect(storedAtFork, 'forked mid-sync')
      .to.be.above(top - 40)
      .and.below(top);
    await waitFor('the populator to reach the devnode top', async () => {
      const top = await storedTopHash(h, 'mdw');
      return top?.hash === h.devnode.chain.keyBlocks.at(-1)!.hash;
    });
    const rows = await h.query<{ contract_id: string; account: string; amount: string }>(
      'mdw',
      'SELECT contract_id, account, amount::text FROM aex9_balances',
    );
    expect(rows.filter((r) => BigInt(r.amount) < 0n)).to.deep.equal([]);
    const ours = positive(new Map(rows.map((r) => [balanceKey(r.contract_id, r.account), BigInt(r.amount)])));
    expect(ours.size).to.be.above(20);
    expect(ours).to.deep.equal(balancesFromLogs(h.devnode.chain));
    expect(ours).to.deep.equal(ledgerBalances(h.devnode.chain));
  });
});
