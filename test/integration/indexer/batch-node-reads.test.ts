/**
 * @module A batch's derived areas ask the node while the batch is prepared, not in its database transaction (issue 40):
 * the balances area's account reads and the ga area's transaction infos go out beside the fetch, and the transaction
 * (which holds its locks, and the next batch behind it) waits for no node round trip; the balances stored are the
 * node's all the same. A populator catching up leaves the balances to the backfill's stretches: each account is read
 * once, not once per batch that touched it.
 */
import { expect } from 'chai';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createWritePool, type Pool } from '../../../src/db/connection/pool.ts';
import { GA_TX_TYPES } from '../../../src/indexer/derived/ga-calls.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch } from '../../../src/indexer/sync/loader.ts';
import { balanceCandidates } from '../../../src/indexer/sync/node-reads.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { NodeClient } from '../../../src/node/client.ts';
import prom from 'prom-client';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, verifyClean, type Harness } from './support/harness.ts';
import { loaderDeps } from './support/loader-deps.ts';

const BATCH = 10;

describe("a batch's node reads for its derived areas", function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;
  /** in front of the devnode: the paths it was asked, in order */
  let proxy: FaultProxy;

  before(async () => {
    h = await startHarness(45, 'batch-node-reads');
    const cfg = h.config();
    await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, silent);
    pool = createWritePool(cfg, 'batch-node-reads', silent, 3);
    proxy = await startFaultProxy(h.devnode.externalUrl);
  });
  after(async () => {
    await pool?.end();
    await proxy?.close();
    await h?.close();
  });

  it('are asked before its transaction, which asks only what the database alone knows; the balances are the node’s', async () => {
    const cfg = h.config();
    const answered = proxy.stats.paths;
    // no request may time out and be asked again (a loaded machine): the infos asked twice are then the code's own
    const node = new NodeClient({ url: proxy.url, timeoutMs: 60_000 }, silent);
    const deps = await loaderDeps(cfg, pool, node);
    const top = h.devnode.height();
    /** what a transaction asked that its batch's rows named: none may be */
    const askedInTransaction: string[] = [];
    /** the accounts a transaction asked that only the database knew it touched (an earlier query's refund, …) */
    let unnamed = 0;
    let askedAhead = 0;
    /** every transaction info asked, ahead or in a transaction: none twice (a GA's the fetch asked is read from it) */
    const infos: string[] = [];
    /** GA transactions whose info the fetch did not ask (the batch's transform then waited a round trip for it) */
    const gaNotFetched: string[] = [];
    let gaTransactions = 0;
    const genesis = (await new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 10_000 }, silent).keyBlock(0)).hash;
    const openings = new Set<string>();
    for (let from = 0; from <= top; from += BATCH) {
      const heights = heightRange(from, Math.min(BATCH, top - from + 1));
      const prepared = await prepareBatch(deps, heights, true);
      await prepared.reads.settled;
      const fetched = new Set(prepared.gens.flatMap((g) => [...(g.gaInfos?.keys() ?? [])]));
      for (const t of prepared.rows.flatMap((r) => r.transactions).filter((t) => GA_TX_TYPES.has(t.txType))) {
        gaTransactions++;
        if (!fetched.has(t.txHash)) gaNotFetched.push(t.txHash);
      }
      infos.push(...answered.filter((p) => p.endsWith('/info')));
      // the replays among them: a contract transaction's info is read from the replay that runs it (fetch-replays.ts)
      askedAhead += answered.filter(
        (p) => p.includes('/accounts/') || p.endsWith('/info') || p.endsWith('/dry-run'),
      ).length;
      answered.length = 0;
      const result = await loadBatch(deps, heights, { prepared: Promise.resolve(prepared) });
      expect(result.kind).to.equal('written');
      const named = new Set(balanceCandidates(prepared.rows));
      infos.push(...answered.filter((p) => p.endsWith('/info')));
      for (const path of answered) {
        const [, account, block] = /^GET \/v2\/accounts\/(ak_\w+)\/hash\/(\w+)/.exec(path) ?? [];
        // an account first seen without genesis accounts known, in a batch the rules could not tell all of, is asked
        // its genesis state in the transaction, once (issue 89: its opening is not its whole difference there)
        if (block === genesis && !openings.has(account!)) openings.add(account!);
        else if (account !== undefined && !named.has(account)) unnamed++;
        else askedInTransaction.push(path);
      }
      answered.length = 0;
    }
    expect(askedInTransaction).to.deep.equal([]);
    expect(unnamed).to.be.lessThan(askedAhead / 10);
    expect(gaTransactions, 'GA transactions in the chain').to.be.greaterThan(0);
    expect(gaNotFetched, 'GA transactions whose info the fetch did not ask').to.deep.equal([]);
    expect(infos.length - new Set(infos).size, 'infos asked twice').to.equal(0);
    // each account's latest stored balance is its balance at the node's top
    const stored = await h.query<{ account_id: string; balance: string }>(
      cfg.databaseSchema,
      `SELECT DISTINCT ON (account_id) account_id, balance::text FROM account_balances ORDER BY account_id, height DESC`,
    );
    expect(stored.length).to.be.greaterThan(10);
    for (const { account_id: id, balance } of stored)
      expect(balance, id).to.equal(String((await node.accountBalance(id)) ?? 0n));
    await verifyClean(h);
  });

  it('a catch-up reads each account it touched once, and is synced with every latest balance the node’s', async () => {
    const cfg = h.config({ DATABASE_SCHEMA: 'catch_up', NODE_URL: proxy.url, BATCH_SIZE: '5' });
    proxy.stats.paths.length = 0;
    const populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    try {
      await populator.synced();
    } finally {
      await populator.stop();
    }
    const genesis = (await new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 10_000 }, silent).keyBlock(0)).hash;
    const accountReads = proxy.stats.paths.flatMap((p) => {
      const [, account, block] = /^GET \/v2\/accounts\/(ak_\w+)(?:\/hash\/(\w+))?/.exec(p) ?? [];
      return account === undefined ? [] : [{ account, block }];
    });
    // an account first seen without genesis accounts known, where the rules could not tell all of a range, is asked
    // its genesis state too, once (issue 89): not a second read of a batch's end
    const openings = accountReads.filter((r) => r.block === genesis).map((r) => r.account);
    expect(openings.length - new Set(openings).size, 'genesis states read twice').to.equal(0);
    const reads = accountReads.filter((r) => r.block !== genesis).map((r) => r.account);
    const batches = await h.query<{ n: number }>('catch_up', 'SELECT count(*)::int AS n FROM key_blocks');
    expect(batches[0]!.n / 5, 'batches').to.be.greaterThan(8);
    // one stretch: every account once (a batch each read the accounts it touched, 2-4 times as many here)
    expect(reads.length).to.be.greaterThan(10);
    expect(reads.length - new Set(reads).size, 'accounts read twice').to.equal(0);
    // synced() waited for them: each account's latest balance is its balance at the node's top, in the ranking
    // (account_wealth); a contract's account (read by its ak_ form since its AE is followed) is left out of the
    // ranking, as ae_mdw's is of accounts, and its latest balance is its last change's (none: 0, as verify reads it)
    const node = new NodeClient({ url: h.devnode.externalUrl, timeoutMs: 10_000 }, silent);
    const contracts = await h.query<{ id: string }>(
      'catch_up',
      `SELECT 'ak_' || substr(contract_id, 4) AS id FROM contracts
        UNION SELECT 'ak_' || substr(contract_id, 4) FROM contract_calls`,
    );
    const isContract = new Set(contracts.map((r) => r.id));
    const ranked = await h.query<{ account_id: string; balance: string }>(
      'catch_up',
      'SELECT account_id, balance::text FROM account_wealth',
    );
    const lastChanges = await h.query<{ account_id: string; balance: string }>(
      'catch_up',
      `SELECT DISTINCT ON (account_id) account_id, balance::text FROM account_balance_changes
        WHERE account_id = ANY($1) ORDER BY account_id, height DESC, micro_index DESC, tx_index DESC, seq DESC`,
      [[...isContract]],
    );
    const balances = new Map(ranked.map((r) => [r.account_id, r.balance]));
    const contractBalances = new Map(lastChanges.map((r) => [r.account_id, r.balance]));
    const contractsRead = [...new Set(reads)].filter((id) => isContract.has(id));
    expect(
      contractsRead.filter((id) => balances.has(id)),
      'contracts in the ranking',
    ).to.deep.equal([]);
    for (const id of new Set(reads)) {
      const stored = isContract.has(id) ? (contractBalances.get(id) ?? '0') : balances.get(id);
      expect(stored, `${id}${isContract.has(id) ? ' (a contract)' : ''}`).to.equal(
        (await node.accountBalance(id))?.toString(),
      );
    }
  });
});
