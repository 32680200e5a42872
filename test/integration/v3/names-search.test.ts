/**
 * @module /middleware/names/{query}, a substring search over the names, against the names the devnode's chain holds: its
 * claims read block by block from the node API and each name's expiry from `/v2/names/{name}`. Asked with pg_trgm's
 * index (the populator's migrate made it) and without it (dropped), each answer equals the chain's names holding the
 * query in the route's order, page by page, and the old statement's (strpos) rows; a query holding a dot (a whole name,
 * its end, the part of `.chain` it holds) read by the names' ends (migration 1070) too, and with names of other forms
 * than `label.chain` (as mainnet's `.test` names) the same as the old statement's; one or two characters, which hold
 * no trigram, read from the names' grams (migration 1076) when few names hold them.
 */
import { expect } from 'chai';
import { buildTx, Tag, type AensName } from '@aeternity/aepp-sdk';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import type { PoolClient } from '../../../src/db/connection/pool.ts';
import { NAME_SEARCH_INDEX } from '../../../src/db/schema/name-search-index.ts';
import { holdingCondition, names } from '../../../src/db/queries/names.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { claimNames } from './name-claims.ts';

type Obj = { [key: string]: Json };

/** Claimed without an auction (13 characters and more before `.chain`), each name's TTL set by an update. */
const NAMES = [
  ...['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'].flatMap((word) =>
    [1, 2, 3].map((i) => `search-${word}-0${i}.chain`),
  ),
  'zqx-rare-name-01.chain',
  'middle-zq-name-02.chain',
  'ends-in-digits-9876.chain',
  'percent-100-pct-x.chain',
] as AensName[];
/** each name's TTL after its update: a few values, so the order's ties fall back on the name */
const ttlOf = (i: number): number => [3000, 1000, 2000, 1000][i % 4]!;

/** The statement the route ran before pg_trgm's index (strpos), the rows it answers the same as. */
const STRPOS = `SELECT s.name, s.name_hash, s.tx_hash, s.created_at_height, s.auction_end_height, s.owner, s.expires_at, s.pointers
    FROM name_state s WHERE strpos(s.name, $1) > 0 ORDER BY expires_at DESC NULLS LAST, name LIMIT $2 OFFSET $3`;

describe('/middleware/names/{query} against the names of the devnode chain, with pg_trgm and without', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  /** the chain's names (every claim of its blocks) with their expiry as the node shows it, in the route's order */
  let chain: { name: string; name_hash: string; expires_at: number }[];

  before(async () => {
    v3 = await startV3(0, 'names-search');
    const owner = v3.devnode.accounts[0]!.publicKey as `ak_${string}`;
    let nonce = Number(((await v3.nodeGet(`/v3/accounts/${owner}/next-nonce`)) as Obj).next_nonce);
    const send = async (txs: ((n: number) => string)[]): Promise<void> => {
      for (const tx of txs) await v3.submit(tx(nonce++));
      await v3.devnode.mineMicroBlock();
      await v3.devnode.mineKeyBlock();
    };
    await claimNames(send, owner, NAMES, 7_000);
    await send(
      NAMES.map(
        (name, i) => (n) =>
          buildTx({
            tag: Tag.NameUpdateTx,
            accountId: owner,
            nonce: n,
            nameId: nameId(name) as `nm_${string}`,
            nameTtl: ttlOf(i),
            pointers: [],
            clientTtl: 60,
          }),
      ),
    );
    await v3.synced();

    // the oracle: the claims of every block the node serves, each name's id and expiry from the node
    const claimed: string[] = [];
    const top = Number(((await v3.nodeGet('/v3/key-blocks/current')) as Obj).height);
    for (let height = 0; height <= top; height++) {
      const generation = (await v3.nodeGet(`/v3/generations/height/${height}`)) as { micro_blocks: string[] };
      for (const micro of generation.micro_blocks) {
        const { transactions } = (await v3.nodeGet(`/v3/micro-blocks/hash/${micro}/transactions`)) as {
          transactions: { tx: Obj }[];
        };
        for (const { tx } of transactions) if (tx.type === 'NameClaimTx') claimed.push(String(tx.name));
      }
    }
    expect([...claimed].sort()).to.deep.equal([...NAMES].sort());
    const shown = await Promise.all(
      claimed.map(async (name) => {
        const n = (await v3.nodeGet(`/v2/names/${name}`)) as Obj;
        return { name, name_hash: String(n.id), expires_at: Number(n.ttl) };
      }),
    );
    // in the route's order: latest expiry first, then by name in the database's collation
    const { rows } = await v3.pool.query<{ name: string }>(
      'SELECT n AS name FROM unnest($1::text[], $2::int[]) AS t(n, e) ORDER BY e DESC, n',
      [shown.map((s) => s.name), shown.map((s) => s.expires_at)],
    );
    chain = rows.map((r) => shown.find((s) => s.name === r.name)!);
  });
  after(async () => {
    await v3?.close();
  });

  /** the chain's names holding the query (lower-cased, as the route does), in the route's order */
  const holding = (query: string) => chain.filter((n) => n.name.includes(query.toLowerCase()));

  /** answered: the route's pages of `limit` until a short one, each also equal to the old statement's page */
  const answered = async (
    query: string,
    limit: number,
  ): Promise<{ name: string; name_hash: string; expires_at: number }[]> => {
    const all: { name: string; name_hash: string; expires_at: number }[] = [];
    for (let page = 1; ; page++) {
      const res = await v3.get(`/middleware/names/${encodeURIComponent(query)}?limit=${limit}&page=${page}`);
      expect(res.status, res.text).to.equal(200);
      const body = res.body as Obj[];
      const old = await v3.pool.query(STRPOS, [query.toLowerCase(), limit, (page - 1) * limit]);
      expect(body, `${query} page ${page}`).to.deep.equal(old.rows);
      all.push(
        ...body.map((r) => ({
          name: String(r.name),
          name_hash: String(r.name_hash),
          expires_at: Number(r.expires_at),
        })),
      );
      if (body.length < limit) return all;
    }
  };

  const QUERIES = [
    'search-', // the start
    'bravo-0', // the middle
    '03.chain', // the end
    '.chain', // every name
    'z', // one character
    'zq', // two characters, in two names only
    'q',
    '-0',
    'ALPHA', // case: the route lower-cases the query
    'Zq',
    'nothing-holds-this', // no match
    '%', // LIKE's wildcards match themselves only
    '_',
    'pct-x',
    // holding a dot: found by the names' ends
    'search-alpha-01.chain', // a whole name
    'ALPHA-01.CHAIN',
    'h-01.chain', // a name's end
    'zq-name-02.chain',
    '3.chain',
    '01.ch', // and a start of `.chain`
    '9876.c',
    'o-03.',
    '.chain', // every name
    '.ch',
    'chain', // no dot: every name's trigrams
    'search-alpha-01.chain.chain', // more than a name of the chain holds
    '.chainx',
    'alpha-01.test', // another top-level domain
    'search-alpha-01.chai%',
    '_.chain',
  ];

  const expectAsTheChain = async (): Promise<void> => {
    for (const query of QUERIES) {
      const expected = holding(query);
      expect(await answered(query, 100), query).to.deep.equal(expected);
      expect(await answered(query, 4), `${query}, pages of 4`).to.deep.equal(expected);
    }
    expect(holding('zq').map((n) => n.name)).to.have.members(['zqx-rare-name-01.chain', 'middle-zq-name-02.chain']);
    expect(holding('_')).to.deep.equal([]);
  };

  it("answers the chain's names holding the query with the trigram index", async () => {
    const { rows } = await v3.pool.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [NAME_SEARCH_INDEX],
    );
    expect(rows).to.deep.equal([{ valid: true }]);
    await expectAsTheChain();
  });

  /** names the chain holds none of since Lima (mainnet's first year had `.test` names) */
  const OTHERS = [
    'old-name.test',
    'sub.domain.chain',
    'search-alpha-01.chain.chain',
    'a.chainy.chain',
    'two..chain',
    '.chain',
    'search-alpha-01.chain.',
    'no-dot-at-all',
    'alpha-01.chain-and-more',
    'umlaut-ä.test',
    'astral-𝔸.test',
  ];

  // 5 000 names of the usual form beside the chain's and OTHERS, in one transaction rolled back after the cases (the
  // planner reads a rare query's names from either index from 2 000 on; 20 000, which cost 3 CPU-s of PostgreSQL's
  // index upkeep, planned the same)
  describe('beside 5 000 more names', () => {
    let client: PoolClient;

    before(async () => {
      client = await v3.pool.connect();
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
         SELECT 'nm_other' || i, n, 'th_other', 1, 1, 'ak_other', i * 7, '[]', 'claim'
           FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i)`,
        [OTHERS],
      );
      await client.query(
        `INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
         SELECT 'nm_filler' || i, 'filler-name-' || i || '.chain', 'th_filler', 1, 1, 'ak_filler', i, '[]', 'claim'
           FROM generate_series(1, 5000) i`,
      );
      // as (auto)vacuum moves a GIN index's pending entries into its tree, which a large table's has done long since
      for (const index of [NAME_SEARCH_INDEX, 'name_state_name_grams'])
        await client.query('SELECT gin_clean_pending_list($1::regclass)', [index]);
      await client.query('ANALYZE name_state');
    });

    after(async () => {
      await client?.query('ROLLBACK');
      client?.release();
    });

    it("plans a rare query's read with the trigram index, and a rare pair's with the names' grams", async () => {
      // the server's connections see only their schema (search_path), not the extension's: the plan reads the index
      // all the same (a table of the chain's 22 names is read whole)
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT name FROM name_state s WHERE s.name LIKE '%rare-na%' ORDER BY expires_at DESC NULLS LAST, name LIMIT 100`,
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).to.include(`Bitmap Index Scan on ${NAME_SEARCH_INDEX}`);
      // one or two characters hold no trigram: a rare pair is read from the names' grams (migration 1076), the route's
      // own statement planned, not a read of the table
      const values: unknown[] = [];
      const holding = holdingCondition('zq', values);
      const grams = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT name FROM name_state s WHERE ${holding} ORDER BY expires_at DESC NULLS LAST, name LIMIT 100`,
        values,
      );
      expect(grams.rows.map((r) => r['QUERY PLAN']).join('\n')).to.include(
        'Bitmap Index Scan on name_state_name_grams',
      );
    });

    it("answers as the old statement with names of other forms than `label.chain`, and a whole name reads the names' ends", async () => {
      // each page of names() equal to the old statement's on that connection
      const queries = [
        ...QUERIES,
        // `.` alone is no path segment a client sends (it names the directory): asked of names() only
        ...[
          '.',
          '.test',
          'e.test',
          'sub.domain',
          'n.chain.c',
          '.chain.',
          'a.chainy',
          '..chain',
          '.chain-and',
          'ä.test',
        ],
        ...['𝔸.test', 'al-𝔸.', 'filler-name-1234.chain', 'r-name-1.ch', '.cha', '7.chain'],
      ];
      for (const query of queries) {
        const text = query.toLowerCase();
        for (const [limit, offset] of [
          [100, 0],
          [3, 2],
        ] as const) {
          const old = await client.query(STRPOS, [text, limit, offset]);
          const found = await names(client, { contains: text, order: 'expires' }, { limit, offset });
          expect(found, `${query}, ${limit} from ${offset}`).to.deep.equal(old.rows);
        }
      }
      expect((await client.query(STRPOS, ['.test', 100, 0])).rows.map((r: Obj) => r.name)).to.have.members([
        'old-name.test',
        'umlaut-ä.test',
        'astral-𝔸.test',
      ]);

      // which indexes a whole name's search scanned: the names' ends, not the trigrams
      const scans = async (): Promise<{ reversed: number; trigrams: number }> =>
        (
          await client.query<{ reversed: number; trigrams: number }>(
            `SELECT pg_stat_get_xact_numscans('name_state_name_reversed'::regclass)::int AS reversed,
                    pg_stat_get_xact_numscans($1::regclass)::int AS trigrams`,
            [NAME_SEARCH_INDEX],
          )
        ).rows[0]!;
      const before = await scans();
      const found = await names(
        client,
        { contains: 'filler-name-1234.chain', order: 'expires' },
        { limit: 100, offset: 0 },
      );
      expect(found.map((r) => r.name)).to.deep.equal(['filler-name-1234.chain']);
      expect(await scans()).to.deep.equal({ reversed: before.reversed + 1, trigrams: before.trigrams });
    });
  });

  // after the cases above (mocha runs a suite's own cases before its suites)
  describe('without the trigram index', () => {
    it('answers the same (a database without pg_trgm reads every name for 3+ characters)', async () => {
      await v3.pool.query(`DROP INDEX ${NAME_SEARCH_INDEX}`);
      await expectAsTheChain();
    });
  });
});
