/**
 * @module Issue 39: a chain that crosses Ceres → Arcus and then enters a protocol this middleware does not know is
 * followed to its top and verified clean; the unknown protocol is said once, counted and shown in both statuses;
 * the headers' `flags` (shown by 7.3 nodes) are stored and served as the node gave them.
 */
import { decode } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import request from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { IMMUTABLE } from '../../../src/api/http/middleware/cache-headers.ts';
import { Protocol } from '../../../src/chain/aens.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { pendingBackfills } from '../../../src/db/queries/pending-backfills.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { capturedLog } from '../../support/captured-log.ts';

const ARCUS_AT = 8;
const FUTURE_AT = 16;
const FUTURE = 8;
const SCHEMA = 'mdw';

describe('issue 39: Ceres → Arcus → a protocol the middleware does not know', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let db: { url: string; drop(): Promise<void> };
  let cfg: Config;
  let populator: Populator;
  let pool: Pool;
  const registry = new prom.Registry();
  const { log, lines } = capturedLog();
  const storedTop = async (): Promise<number> =>
    (await pool.query<{ h: number | null }>('SELECT max(height) AS h FROM key_blocks')).rows[0]!.h ?? -1;

  before(async () => {
    devnode = await startGeneratedDevnode(
      { generations: 24, microBlocksPerGeneration: 2, txsPerMicroBlock: 4, seed: 'issue-39-protocols' },
      {
        hardForks: [
          { version: Protocol.CERES, height: 0 },
          { version: Protocol.ARCUS, height: ARCUS_AT },
          { version: FUTURE, height: FUTURE_AT, future: true },
        ],
      },
    );
    db = await createTestDatabase();
    cfg = loadConfig({
      NODE_URL: devnode.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: SCHEMA,
      POLL_INTERVAL_MS: '50',
      BATCH_SIZE: '5',
      FETCH_CONCURRENCY: '4',
      // blocks below the top few are final: the API answers them from the database as immutable
      FORK_WINDOW: '4',
    });
    populator = await startPopulator({ cfg, log, registry });
    await populator.synced();
    pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 4 }, pino({ level: 'silent' }));
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await devnode?.stop();
    await db?.drop();
  });

  it('stores every height, each key and micro block with the protocol the node gave it', async () => {
    expect(await storedTop()).to.equal(devnode.height());
    const { rows } = await pool.query<{ height: number; version: number; micro: number[] }>(
      `SELECT k.height, (k.data->>'version')::int AS version,
              ARRAY(SELECT (m.header->>'version')::int FROM micro_blocks m WHERE m.height = k.height) AS micro
         FROM key_blocks k ORDER BY k.height`,
    );
    for (const r of rows) {
      const expected = r.height >= FUTURE_AT ? FUTURE : r.height >= ARCUS_AT ? Protocol.ARCUS : Protocol.CERES;
      expect(r.version, `key block ${r.height}`).to.equal(expected);
      expect(new Set(r.micro), `micro blocks of ${r.height}`).to.satisfy(
        (s: Set<number>) => s.size === 0 || (s.size === 1 && s.has(expected)),
      );
    }
    expect(rows.filter((r) => r.micro.length > 0 && r.height >= FUTURE_AT)).to.not.deep.equal([]);
  });

  it('keeps following on the unknown protocol: new blocks are stored', async () => {
    const before = devnode.height();
    await devnode.mineKeyBlock();
    await devnode.mineKeyBlock();
    await waitFor('the two new key blocks', async () => (await storedTop()) === before + 2);
  });

  it('derives every area and verifies clean (mdw -v --full)', async () => {
    expect(await pendingBackfills(pool)).to.deep.equal([]);
    const out: string[] = [];
    const report = await verifyChain({ cfg, log: pino({ level: 'silent' }), out: (l) => out.push(l) }, { full: true });
    expect(out).to.deep.equal([]);
    expect(report).to.deep.include({ checked: devnode.height() + 1, differences: 0, unverifiable: 0 });
  });

  it('says the unknown protocol once, with where it started and the rules it gets', () => {
    const said = lines.filter((l) => /protocol this middleware does not know/.test(l.msg));
    expect(said.map(({ protocol, height, rules }) => ({ protocol, height, rules }))).to.deep.equal([
      { protocol: FUTURE, height: FUTURE_AT, rules: Protocol.ARCUS },
    ]);
    // Arcus is known: nothing is said of it
    expect(lines.filter((l) => l.protocol === Protocol.ARCUS)).to.deep.equal([]);
  });

  it('exposes the protocol as metrics: the newest stored and the unknown one', async () => {
    const version = await registry.getSingleMetric('mdw_protocol_version')!.get();
    expect(version.values.map((v) => v.value)).to.deep.equal([FUTURE]);
    const unknown = await registry.getSingleMetric('mdw_unknown_protocol')!.get();
    expect(unknown.values.map((v) => ({ labels: v.labels, value: v.value }))).to.deep.equal([
      { labels: { protocol: String(FUTURE) }, value: 1 },
    ]);
  });

  it('shows it in /middleware/status and /mdw/v3/status, still OK and synced', async () => {
    const app = createApp({ cfg, log: pino({ level: 'silent' }), pool, registry: new prom.Registry(), version: 't' });
    const shown = { version: FUTURE, name: null, known: false, rules: Protocol.ARCUS, since_height: FUTURE_AT };
    await waitFor('a synced status', async () => {
      const res = await request(app.callback()).get('/middleware/status');
      return res.status === 200 && (res.body as { synced: boolean }).synced;
    });
    const status = await request(app.callback()).get('/middleware/status');
    expect(status.body).to.deep.include({ OK: true, synced: true, protocol: shown });
    const v3 = await request(app.callback()).get('/mdw/v3/status');
    expect(v3.status).to.equal(200);
    expect(v3.body).to.deep.include({ mdw_synced: true, mdw_protocol: shown });
  });

  it('stores and serves key and micro header flags exactly as the node gave them, in every API', async () => {
    const app = createApp({ cfg, log: pino({ level: 'silent' }), pool, registry: new prom.Registry(), version: 't' });
    const api = request(app.callback());
    const node = async (path: string): Promise<Record<string, unknown>> =>
      (await fetch(`${devnode.externalUrl}${path}`)).json() as Promise<Record<string, unknown>>;
    const { rows } = await pool.query<{ height: number; hash: string }>(
      'SELECT height, hash FROM micro_blocks WHERE height IN ($1, $2, $3) AND micro_index = 0 ORDER BY height',
      [ARCUS_AT - 1, ARCUS_AT, FUTURE_AT],
    );
    expect(rows.map((r) => r.height)).to.deep.equal([ARCUS_AT - 1, ARCUS_AT, FUTURE_AT]);
    for (const { height, hash } of rows) {
      const key = await node(`/v2/key-blocks/height/${height}`);
      const micro = await node(`/v2/micro-blocks/hash/${hash}/header`);
      // a 7.3 node's flags on Arcus and later blocks: the key tag (and no info), a micro block without fraud proof
      const flags =
        height >= ARCUS_AT ? [decode(key.flags as `ba_${string}`), decode(micro.flags as `ba_${string}`)] : [];
      expect(
        flags.map((f) => Buffer.from(f).toString('hex')),
        `flags at ${height}`,
      ).to.deep.equal(height >= ARCUS_AT ? ['80000000', '00000000'] : []);
      if (height < ARCUS_AT) expect([key, micro].map((b) => Object.hasOwn(b, 'flags'))).to.deep.equal([false, false]);
      for (const path of [`/v2/key-blocks/height/${height}`, `/v3/key-blocks/height/${height}`]) {
        const res = await api.get(path);
        // answered from the database (a final block), not forwarded
        expect([res.status, res.headers['cache-control']], path).to.deep.equal([200, IMMUTABLE]);
        expect(res.body, path).to.deep.equal(key);
      }
      const header = await api.get(`/v2/micro-blocks/hash/${hash}/header`);
      expect(header.body).to.deep.equal(micro);
      const mdwKey = (await api.get(`/mdw/v3/key-blocks/${height}`)).body as Record<string, unknown>;
      const mdwMicro = (await api.get(`/mdw/v3/micro-blocks/${hash}`)).body as Record<string, unknown>;
      expect([mdwKey.flags, mdwMicro.flags]).to.deep.equal([key.flags, micro.flags]);
    }
  });
});
