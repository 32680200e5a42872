/**
 * @module Migration 1164 on a chain an earlier build stored: the registrar contract opens name auctions that an
 * account's NameClaimTx outbids (one ended, one in the same micro block, one running at the top). The stored rows
 * are made what the build before the names' fold and the contracts' bids left (its NameClaimTx events folded without
 * the contract's: a claim of its own; no refund or lock of a contract's bid, its balance's changes an 'unexplained'
 * row), then the migration and the populator's backfill repair them from the stored rows: the names, the transfers,
 * the statistics and the balances equal a fresh load's, the routes and balances the devnode's, and every table a fresh
 * load's (kept aside before), as `mdw -v --full` compares it with its scratch load; the fresh load of each chain is
 * the one names-contract-auctions and balances-contract-bids have `-v --full` verify (support/contract-auctions.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { renderStoredTx } from '../../../src/chain/stored-tx.ts';
import { withTransaction, type Pool } from '../../../src/db/connection/pool.ts';
import { MIGRATIONS_DIR } from '../../../src/db/schema/migrator.ts';
import { insertContractNameEvents, nameTxEventsFrom } from '../../../src/db/writes/contract-name-events.ts';
import { recordBackfill } from '../../../src/db/writes/derive-backfill.ts';
import { foldNameEvents, storedNameTxAction } from '../../../src/indexer/derived/contract-names.ts';
import { aeBalancesApart, unexplainedChanges } from '../../support/ae-balances-truth.ts';
import {
  AUCTION_NAMES,
  chainClaims,
  servedClaims,
  startContractAuctions,
  startRegistrarBids,
  type Claim,
  type ContractAuctions,
} from './support/contract-auctions.ts';
import { deriveAgain, populatedWithNodeSettings, type Harness } from './support/harness.ts';
import { keepAside, rowsApart } from './support/schema-rows.ts';
import { serveSchema, type ServedSchema } from './support/served-schema.ts';

type Obj = { [key: string]: Json };

const { ended: ENDED, running: RUNNING, same: SAME } = AUCTION_NAMES;
/** the schema a fresh load is kept aside in (keepAside) */
const FRESH = 'fresh';

/** The rows the repair derives again, each table's in one order. */
const TABLES: Readonly<Record<string, string>> = {
  name_events: 'name_hash, height, micro_index, tx_index',
  name_state: 'name_hash',
  internal_transfers: 'height, micro_index, tx_index, kind, account_id, ref_tx_hash',
  stats_generations: 'height',
  account_balance_changes: 'account_id, height, micro_index, tx_index, seq',
};

/** rows reads TABLES' rows */
async function rows(pool: Pool): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES))
    out[table] = (await pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
  return out;
}

/**
 * storeAsTheBuildBefore makes the stored rows what the build before the fix left: the name transactions' events of
 * the names a contract acted on folded without the contracts' events (the writer's fold), the transfers and the
 * statistics derived from them, no refund or lock of a contract's bid, the balances derived from those.
 */
async function storeAsTheBuildBefore(h: Harness, pool: Pool, env: Record<string, string>): Promise<void> {
  const top = h.devnode.height();
  await withTransaction(pool, async (db) => {
    const { rows: named } = await db.query<{ name_hash: string }>(
      'SELECT DISTINCT name_hash FROM name_events WHERE local_idx IS NOT NULL',
    );
    const hashes = named.map((r) => r.name_hash);
    const txEvents = await nameTxEventsFrom(db, hashes, { height: 0, microIndex: -1 });
    const alone = foldNameEvents(
      new Map(),
      txEvents.map((e) => storedNameTxAction({ ...e, tx: renderStoredTx(e.signed).tx })),
    );
    await db.query('DELETE FROM name_events WHERE name_hash = ANY ($1) AND local_idx IS NULL', [hashes]);
    await insertContractNameEvents(db, alone);
    for (const area of ['transfers', 'stats']) await recordBackfill(db, area, 0, top);
  });
  await deriveAgain(h, pool, env);
  await pool.query(
    `DELETE FROM internal_transfers WHERE kind IN ('fee_refund_name', 'fee_lock_name')
        AND ref_tx_hash IN (SELECT tx_hash FROM name_events WHERE local_idx IS NOT NULL)`,
  );
  await recordBackfill(pool, 'balances', 0, top);
  await deriveAgain(h, pool, env);
}

/** repair runs migration 1164 on the stored schema and the populator's backfill after it: what the migration queued */
async function repair(h: Harness, pool: Pool, env: Record<string, string>): Promise<unknown[]> {
  await pool.query(await readFile(join(MIGRATIONS_DIR, '1164_contract_claims_folded_again.sql'), 'utf8'));
  const queued = (await pool.query('SELECT area, next_height, to_height FROM derive_backfill ORDER BY area')).rows;
  await deriveAgain(h, pool, env);
  return queued;
}

describe("migration 1164 on a chain stored before the names' fold and the contracts' bids", function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let env: Record<string, string>;
  let auctions: ContractAuctions;
  /** the rows of a fresh load (TABLES) */
  let fresh: Record<string, unknown[]> = {};
  /** the derivations again (the earlier build's and the repair's) 50 heights a step: the chain's 490 in about ten */
  const stepped = (): Record<string, string> => ({ ...env, BATCH_SIZE: '50' });

  before(async () => {
    ({ h, auctions } = await startContractAuctions());
    ({ env, pool } = await populatedWithNodeSettings(h));
    fresh = await rows(pool);
    await keepAside(h.db.url, 'mdw', FRESH);
    await storeAsTheBuildBefore(h, pool, stepped());
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("stores the earlier build's errors: the account's bids as claims, the contract's refund unexplained", async () => {
    const { rows: kinds } = await pool.query<{ kind: string }>(
      'SELECT kind FROM name_events WHERE name_hash = $1 ORDER BY height, micro_index, tx_index',
      [nameId(RUNNING)],
    );
    expect(kinds.map((k) => k.kind)).to.deep.equal(['claim', 'claim']);
    expect((await unexplainedChanges(pool)).length).to.be.above(0);
    expect(await rows(pool)).to.not.deep.equal(fresh);
  });

  describe('after the migration and the backfill', () => {
    let server: ServedSchema;
    let queued: unknown[] = [];
    const get = (path: string): ReturnType<ServedSchema['get']> => server.get(path);

    before(async () => {
      queued = await repair(h, pool, stepped());
      server = await serveSchema(h, env, '/mdw/v3');
    });

    after(async () => {
      await server?.stop();
    });

    it("queues the names' fold, the transfers, the statistics and the balances from the contract's first claim", () => {
      const first = Math.min(...[...auctions.bids.values()].map((b) => h.devnode.chain.txs.get(b[0]!)!.blockHeight!));
      const to = h.devnode.height();
      expect(queued).to.deep.equal(
        ['balances', 'names', 'stats', 'transfers'].map((area) => ({ area, next_height: first, to_height: to })),
      );
    });

    it("derives the names, transfers, statistics and balances' changes as a fresh load did", async () => {
      expect(await rows(pool)).to.deep.equal(fresh);
    });

    const claimsOf = (path: string): Promise<Claim[]> => servedClaims(get, path);
    const expectedClaims = (name: string): Claim[] => chainClaims(auctions, name);

    it("serves the running auction and the names won as the devnode's", async () => {
      const auction = h.devnode.chain.state.auctions.get(nameId(RUNNING))!;
      const { body } = await get(`/names/auctions/${RUNNING}`);
      expect({ end: body.auction_end, bidder: ((body.last_bid as Obj).tx as Obj).account_id }).to.deep.equal({
        end: auction.ends,
        bidder: auction.bidder,
      });
      expect(await claimsOf(`/names/auctions/${RUNNING}/claims`)).to.deep.equal(expectedClaims(RUNNING));
      for (const name of [ENDED, SAME]) {
        const truth = h.devnode.chain.state.names.get(nameId(name))!;
        const { body: served } = await get(`/names/${name}`);
        expect({ owner: (served.ownership as Obj).current, expires: served.expire_height }).to.deep.equal({
          owner: truth.owner,
          expires: truth.expires,
        });
        expect(await claimsOf(`/names/${name}/claims`)).to.deep.equal(expectedClaims(name));
      }
    });

    it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
      const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
      expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
      expect(await unexplainedChanges(pool)).to.deep.equal([]);
    });

    it('derives every table as the fresh load did (the comparison of mdw -v --full)', async () => {
      expect(await rowsApart(h.db.url, 'mdw', FRESH)).to.deep.equal([]);
    });
  });
});

describe("migration 1164 on a generated chain whose registrar bids in the accounts' auctions (registrarBids)", function () {
  this.timeout(300_000);
  let h: Harness;
  let pool: Pool;
  let env: Record<string, string>;
  let fresh: Record<string, unknown[]> = {};

  before(async () => {
    h = await startRegistrarBids();
    ({ env, pool } = await populatedWithNodeSettings(h));
    fresh = await rows(pool);
    await keepAside(h.db.url, 'mdw', FRESH);
    await storeAsTheBuildBefore(h, pool, env);
    expect(await rows(pool), 'the rows the build before left').to.not.deep.equal(fresh);
    await repair(h, pool, env);
  });

  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it("derives the names, transfers, statistics and balances' changes as a fresh load did", async () => {
    expect(await rows(pool)).to.deep.equal(fresh);
  });

  it("serves every account after every height as the devnode's state", async () => {
    const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
  });

  it('derives every table as the fresh load did (the comparison of mdw -v --full)', async () => {
    expect(await rowsApart(h.db.url, 'mdw', FRESH)).to.deep.equal([]);
  });
});
