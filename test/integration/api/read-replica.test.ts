/**
 * @module A server reading a streaming replica (DATABASE_READ_URLS) answers every list and count of ae_mdw's API, the
 * original middleware's and the node's cached queries exactly as a server reading the primary does.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import type { Role } from '../../../src/base/roles.ts';
import { queryOnce } from '../../support/postgres.ts';
import { sharedReplicatedPostgres, type ReplicatedPostgres } from '../../support/replica.ts';
import { silentLog } from './harness.ts';

type Server = Role & { httpUrl: string };

/** Answers that tell the time or the node's height now, not stored rows: they may differ between two reads. */
const MOMENTARY = /\/status$|\/api$|\/swagger|\/openapi/;

describe('a server on a streaming replica', function () {
  this.timeout(180_000);
  let pg: ReplicatedPostgres;
  let devnode: Devnode;
  let onPrimary: Server;
  let onReplica: Server;

  before(async () => {
    pg = await sharedReplicatedPostgres();
    devnode = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: 40, seed: 'read-replica' } },
      silentLog,
    );
    const env = {
      DATABASE_URL: pg.primaryUrl,
      NODE_URL: devnode.externalUrl,
      POLL_INTERVAL_MS: '100',
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
    };
    const populator = await startPopulator({ cfg: loadConfig(env), log: silentLog, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
    await pg.caughtUp();
    const start = (extra: Record<string, string>): Promise<Server> =>
      startServer({
        cfg: loadConfig({ ...env, ...extra }),
        log: silentLog,
        registry: new prom.Registry(),
        version: 't',
      });
    onPrimary = await start({});
    onReplica = await start({ DATABASE_READ_URLS: pg.replicaUrl });
  });
  after(async () => {
    await onReplica?.stop();
    await onPrimary?.stop();
    await devnode?.stop();
    await pg?.destroy();
  });

  /** answer is a request's status and exact body. */
  const answer = async (base: string, path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${base}${path}`);
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? parseJson(text) : text };
  };
  const firstOf = async (path: string, pick: (item: Record<string, unknown>) => unknown): Promise<string> => {
    const { body } = await answer(onPrimary.httpUrl, path);
    const data = (body as { data?: Record<string, unknown>[] }).data ?? [];
    return String(data.map(pick).find((v) => v !== undefined && v !== null) ?? 'none');
  };

  it('reads the replica: its reads are on the standby, not the primary', async () => {
    const status = (await answer(onReplica.httpUrl, '/middleware/status')).body as Record<string, unknown>;
    expect(status.read_replicas).to.have.length(1);
    expect((status.read_replicas as Record<string, unknown>[])[0]).to.include({ serving: true, reachable: true });
    expect(status.height).to.equal(devnode.height());
    const servers =
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'mdw-server' AND datname = current_database()";
    expect((await queryOnce<{ n: number }>(pg.replicaUrl, servers)).rows[0]!.n).to.be.greaterThan(0);
  });

  it('answers every list and count (ae_mdw, the middleware, the cached node reads) as the server on the primary', async () => {
    const spend = await firstOf(
      '/mdw/v3/transactions?type=spend&limit=10',
      (t) => (t.tx as Record<string, unknown>)?.sender_id,
    );
    const values: Record<string, string> = {
      height: '5',
      hash_or_kbi: '5',
      from: '1',
      to: '30',
      millis: String(Date.now()),
      tokenId: '1',
      templateId: '1',
      account: spend,
      accountId: spend,
      sender: spend,
      receiver: await firstOf(
        '/mdw/v3/transactions?type=spend&limit=10',
        (t) => (t.tx as Record<string, unknown>)?.recipient_id,
      ),
      address: spend,
      name: await firstOf('/mdw/v3/names?limit=1', (n) => n.name),
      oracle_id: await firstOf('/mdw/v3/oracles?limit=1', (o) => o.oracle),
      contractId: await firstOf('/mdw/v3/contracts?limit=1', (c) => c.contract),
    };
    const ids: Record<string, string> = {
      names: values.name!,
      oracles: values.oracle_id!,
      contracts: values.contractId!,
      channels: await firstOf('/mdw/v3/channels?limit=1', (c) => c.channel),
      accounts: spend,
      transactions: await firstOf('/mdw/v3/transactions?limit=1', (t) => t.hash),
      'key-blocks': await firstOf('/mdw/v3/key-blocks?limit=1', (k) => k.hash),
      'micro-blocks': await firstOf('/mdw/v3/micro-blocks?limit=1', (m) => m.hash),
    };
    /** fill gives each parameter a stored value: `{id}` and `{hash}` by the collection the path names. */
    const fill = (path: string): string =>
      path.replace(/\{([^}]+)\}|:(\w+)/g, (_, a: string | undefined, b: string | undefined) => {
        const name = (a ?? b)!;
        if (name !== 'id' && name !== 'hash') return values[name] ?? '1';
        const collection = Object.keys(ids).find((c) => path.includes(`/${c}/`)) ?? 'key-blocks';
        return ids[collection]!;
      });
    const paths = [
      ...V3_OPERATIONS.map((o) => `/mdw/v3${o.path}`),
      ...OPERATIONS.filter((o) => o.method === 'get').map((o) => o.path),
    ]
      .filter((p) => !MOMENTARY.test(p))
      .map(fill);
    const differ: string[] = [];
    let found = 0;
    for (const path of [...new Set(paths)]) {
      const [primary, replica] = await Promise.all([answer(onPrimary.httpUrl, path), answer(onReplica.httpUrl, path)]);
      if (primary.status === 200) found++;
      if (stringifyJson(primary) !== stringifyJson(replica))
        differ.push(`${path}: ${primary.status} ≠ ${replica.status}`);
    }
    expect(differ).to.deep.equal([]);
    // most routes found what they were asked for: the comparison is of answers, not of two 404s
    expect(found).to.be.greaterThan(60);
  });
});
