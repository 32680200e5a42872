/**
 * @module aex141_tokens and its counts (aex141_owner_counts, aex141_collection_counts) kept from aex141_events by
 * their triggers (migration 1002, the functions in plpgsql since 1148): after events written in several statements,
 * several of one token in one statement, burns, an owner left without tokens and a fork's cascade, they equal what
 * the stored events say, recomputed here; each function writes its own schema's tables whatever the caller's
 * search_path; and no function of the schema that writes is a SQL function (planned again at every call).
 */
import { expect } from 'chai';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { insertAex141Events } from '../../../src/db/writes/aex141.ts';
import { deleteFrom } from '../../../src/db/writes/heights.ts';
import type { Aex141EventRow, Aex141Kind } from '../../../src/db/writes/token-rows.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

const [CT_A, CT_B] = ['ct_collectionA', 'ct_collectionB'];
// a token id past 2^53: stored and compared exactly
const BIG = (2n ** 70n + 1n).toString();

describe('aex141_tokens and its counts kept from aex141_events (migrations 1002, 1148)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  /** what was written, as still stored: the oracle the kept tables are compared with */
  let written: Aex141EventRow[] = [];
  let txs = 0;

  before(async () => {
    db = await createTestDatabase({ migrated: 'mdw' });
    await migrate({ databaseUrl: db.url, schema: 'other' }, silent);
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, silent);
    await pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       SELECT h, 'kh_' || h, '', '', '', '', 0, '{}' FROM generate_series(1, 20) h`,
    );
    await pool.query(
      `INSERT INTO aexn_contracts (contract_id, aexn_type, height, micro_index, tx_index, tx_hash, created_by_call)
       VALUES ($1, 'aex141', 1, 0, 0, 'th_a', false), ($2, 'aex141', 1, 0, 1, 'th_b', false)`,
      [CT_A, CT_B],
    );
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  type Event = [contract: string, kind: Aex141Kind, to: string | null, token: string | null, template?: string];
  /** write stores one statement's events, the log of one call at `height` (the later log index wins) */
  async function write(height: number, events: readonly Event[]): Promise<void> {
    const txIndex = txs++;
    const rows = events.map(([contractId, kind, toId, tokenId, templateId], logIdx): Aex141EventRow => ({
      height,
      microIndex: 0,
      txIndex,
      txHash: `th_${txIndex}`,
      logIdx,
      contractId,
      kind,
      fromId: null,
      toId,
      tokenId,
      templateId: templateId ?? null,
      limit: null,
      edition: templateId === undefined ? null : `edition ${txIndex}.${logIdx}`,
    }));
    await insertAex141Events(pool, rows);
    written.push(...rows);
  }

  const position = (e: Aex141EventRow): bigint =>
    (BigInt(e.height) << 60n) + (BigInt(e.microIndex) << 40n) + (BigInt(e.txIndex) << 20n) + BigInt(e.logIdx);

  /** the tables equal the stored events' latest owning event per token, and their counts (a count never 0) */
  async function expectKept(): Promise<void> {
    const latest = new Map<string, { owner?: Aex141EventRow; template?: Aex141EventRow }>();
    for (const e of [...written].sort((a, b) => (position(a) < position(b) ? -1 : 1))) {
      if (e.tokenId === null || !['transfer', 'mint', 'burn', 'template_mint'].includes(e.kind)) continue;
      const key = `${e.contractId} ${e.tokenId}`;
      const was = latest.get(key);
      latest.set(key, { owner: e, template: e.kind === 'template_mint' ? e : was?.template });
    }
    const tokens = [...latest.values()]
      .filter(({ owner }) => owner!.kind !== 'burn')
      .map(({ owner, template: t }) => ({
        contract_id: owner!.contractId,
        token_id: owner!.tokenId,
        owner_id: owner!.toId,
        template_id: t?.templateId ?? null,
        mint_tx_hash: t?.txHash ?? null,
        mint_log_idx: t?.logIdx ?? null,
        edition: t?.edition ?? null,
      }))
      .sort((a, b) => (`${a.contract_id} ${a.token_id}` < `${b.contract_id} ${b.token_id}` ? -1 : 1));
    const stored = await pool.query(
      `SELECT contract_id, token_id::text, owner_id, template_id::text, mint_tx_hash, mint_log_idx, edition
         FROM aex141_tokens ORDER BY contract_id, token_id::text COLLATE "C"`,
    );
    expect(stored.rows).to.deep.equal(tokens);
    const count = <T>(keyOf: (t: (typeof tokens)[number]) => T): Map<T, number> => {
      const counts = new Map<T, number>();
      for (const t of tokens) counts.set(keyOf(t), (counts.get(keyOf(t)) ?? 0) + 1);
      return counts;
    };
    const owners = await pool.query(
      'SELECT contract_id, owner_id, tokens FROM aex141_owner_counts ORDER BY contract_id, owner_id',
    );
    expect(owners.rows.map((r) => `${r.contract_id} ${r.owner_id} ${r.tokens}`)).to.deep.equal(
      [...count((t) => `${t.contract_id} ${t.owner_id}`)].map(([k, n]) => `${k} ${n}`).sort(),
    );
    const collections = await pool.query(
      'SELECT contract_id, nfts_amount, nft_owners FROM aex141_collection_counts ORDER BY contract_id',
    );
    const amounts = count((t) => t.contract_id);
    const holders = count((t) => `${t.contract_id} ${t.owner_id}`);
    // both collections have had tokens since the first statement: each keeps its row, at 0 once it has none
    expect(collections.rows.map((r) => `${r.contract_id} ${r.nfts_amount} ${r.nft_owners}`)).to.deep.equal(
      [CT_A, CT_B].map(
        (c) => `${c} ${amounts.get(c) ?? 0} ${[...holders.keys()].filter((k) => k.startsWith(`${c} `)).length}`,
      ),
    );
  }

  it('equals the stored events after statements of mints, transfers, template mints and burns', async () => {
    await write(2, [
      [CT_A, 'mint', 'ak_alice', '1'],
      [CT_A, 'mint', 'ak_alice', '2'],
      [CT_A, 'template_mint', 'ak_bob', BIG, '7'],
      [CT_A, 'template_creation', null, null, '7'],
      [CT_B, 'mint', 'ak_carol', '1'],
    ]);
    await expectKept();
    await write(3, [
      // two events of one token in one statement: the later decides
      [CT_A, 'transfer', 'ak_bob', '1'],
      [CT_A, 'transfer', 'ak_carol', '1'],
      // a template's token moved: its mint is still the template mint
      [CT_A, 'transfer', 'ak_alice', BIG],
      [CT_A, 'token_limit', null, null],
    ]);
    await expectKept();
    // carol's only token of B burnt: her count goes, the collection keeps its row at 0
    await write(4, [[CT_B, 'burn', null, '1']]);
    await expectKept();
    expect(
      (await pool.query('SELECT nfts_amount, nft_owners FROM aex141_collection_counts WHERE contract_id = $1', [CT_B]))
        .rows,
    ).to.deep.equal([{ nfts_amount: 0, nft_owners: 0 }]);
    // a burnt token minted again, a token moved and another burnt
    await write(5, [
      [CT_B, 'mint', 'ak_bob', '1'],
      [CT_A, 'transfer', 'ak_carol', '2'],
      [CT_A, 'burn', null, '1'],
    ]);
    await expectKept();
  });

  it("equals them again after a fork's cascade deleted the later heights", async () => {
    await deleteFrom(pool, 4);
    written = written.filter((e) => e.height < 4);
    await expectKept();
    await write(4, [[CT_A, 'template_mint', 'ak_dave', '3', '8']]);
    await expectKept();
  });

  it("has each function write its own schema's tables whatever the caller's search_path", async () => {
    // a session of 'mdw' calling the other schema's functions by qualified name
    await pool.query(`SELECT other.aex141_counts_apply(ARRAY[$1::text], ARRAY['ak_erin'], ARRAY[2])`, [CT_A]);
    await pool.query(`SELECT other.stats_intervals_add(ARRAY['blocks'], ARRAY[20454], ARRAY[3]::numeric[])`);
    await pool.query(`SELECT other.stats_miners_add(ARRAY['ak_miner'], ARRAY[5]::numeric[])`);
    const other = async (sql: string): Promise<unknown[]> => (await pool.query(sql)).rows;
    expect(await other('SELECT contract_id, owner_id, tokens FROM other.aex141_owner_counts')).to.deep.equal([
      { contract_id: CT_A, owner_id: 'ak_erin', tokens: 2 },
    ]);
    expect(
      await other('SELECT contract_id, nfts_amount, nft_owners FROM other.aex141_collection_counts'),
    ).to.deep.equal([{ contract_id: CT_A, nfts_amount: 2, nft_owners: 1 }]);
    expect(await other(`SELECT count(*)::int AS n FROM other.stats_intervals WHERE series = 'blocks'`)).to.deep.equal([
      { n: 3 },
    ]);
    expect(await other('SELECT miner, total_reward::text FROM other.stats_miners')).to.deep.equal([
      { miner: 'ak_miner', total_reward: '5' },
    ]);
    // this schema's tables untouched
    await expectKept();
    expect(await other(`SELECT 1 FROM mdw.stats_intervals WHERE series = 'blocks'`)).to.deep.equal([]);
    expect(await other('SELECT 1 FROM mdw.stats_miners')).to.deep.equal([]);
  });

  it('has no function that writes in SQL, whose statements PostgreSQL would plan again at every call', async () => {
    const { rows } = await pool.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = 'mdw'::regnamespace AND l.lanname = 'sql' AND p.provolatile = 'v'`,
    );
    expect(rows).to.deep.equal([]);
  });
});
