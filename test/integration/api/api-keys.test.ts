/**
 * @module Issue 77 part 1: API keys and quotas on real servers. Two server replicas on one database share a key's
 * quota, an unknown key is refused 401, a revoked one within API_KEYS_REFRESH_MS, an address without a key gets the
 * anonymous tier, a tier's websocket connections and subscriptions hold, the keys file is reread live, and `mdw keys`
 * makes, lists and revokes keys end to end. The quota per day is the one counted (a second's window would roll over
 * between requests on a loaded machine): a run across UTC midnight can see a window reset.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import prom from 'prom-client';
import { WebSocket } from 'ws';
import { startServer, type ApiServer } from '../../../src/api/server.ts';
import { createKey, revoke } from '../../../src/api/quota/keys-admin.ts';
import { hookList } from '../../../src/webhooks/webhooks-admin.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { buildFixture, TOP } from './fixture.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';

const MDW = new URL('../../../bin/mdw.js', import.meta.url).pathname;

/** Small quotas per day, so that a test reaches them in a few requests; seconds never bind. */
const TIERS = {
  anonymous: { requestsPerSecond: 1000, requestsPerDay: 5, websocketConnections: 1, subscriptions: 2, exports: 1 },
  free: { requestsPerSecond: 1000, requestsPerDay: 6, websocketConnections: 2, subscriptions: 5, exports: 1 },
  pro: { requestsPerSecond: 1000, requestsPerDay: 1000, websocketConnections: 5, subscriptions: 50, exports: 2 },
};

const REFRESH_MS = 200;

/** An oracle a hook watches (any will do: these servers have no populator). */
const ORACLE = 'ok_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';

describe('API keys and quotas (two servers, one database)', function () {
  this.timeout(60_000);
  let node: FakeNode;
  let drop: () => Promise<void>;
  let dir: string;
  let keysFile: string;
  let cfg: Config;
  let a: ApiServer;
  let b: ApiServer;
  let env: Record<string, string>;

  before(async () => {
    node = await startFakeNode();
    const db = await createTestDatabase({ migrated: 'public' });
    drop = db.drop;
    dir = await mkdtemp(join(tmpdir(), 'mdw-keys-'));
    await writeFile(join(dir, 'tiers.json'), JSON.stringify(TIERS));
    keysFile = join(dir, 'keys.json');
    await writeFile(keysFile, JSON.stringify([{ name: 'from-file', tier: 'pro', key: 'mdw_file_key_0123456789' }]));
    env = {
      DATABASE_URL: db.url,
      NODE_URL: node.url,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      API_KEYS: 'on',
      API_TIERS_FILE: join(dir, 'tiers.json'),
      API_QUOTA_FLUSH_MS: '20',
      API_KEYS_REFRESH_MS: String(REFRESH_MS),
      TRUSTED_PROXIES: '127.0.0.1',
    };
    cfg = loadConfig(env);
    // A reads the keys file; B learns its keys from the database
    a = await startServer({
      cfg: loadConfig({ ...env, API_KEYS_FILE: keysFile }),
      log: silentLog,
      registry: new prom.Registry(),
      version: 't',
    });
    b = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await node.close();
    await drop();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (server: ApiServer, headers: Record<string, string> = {}, path = '/v2/status') =>
    fetch(`${server.httpUrl}${path}`, { headers });

  /** metricsOf is `server`'s /metrics text (never counted). */
  const metricsOf = async (server: ApiServer): Promise<string> => (await get(server, {}, '/metrics')).text();

  /** flushes is how many times `server` has flushed its counts (its /metrics, never counted). */
  async function flushes(server: ApiServer): Promise<number> {
    const text = await (await get(server, {}, '/metrics')).text();
    return Number(/^mdw_api_quota_flush_duration_seconds_count (\d+)/m.exec(text)?.[1] ?? 0);
  }

  /** socketsHeld is how many websocket connections `server` counts for addresses without a key (its /metrics). */
  async function socketsHeld(server: ApiServer): Promise<number> {
    const text = await (await get(server, {}, '/metrics')).text();
    const line = /^mdw_api_key_held\{key_id="anonymous",tier="anonymous",kind="websocketConnections"\} (\d+)/m.exec(
      text,
    );
    return Number(line?.[1] ?? 0);
  }

  /** flushedTwice waits until `server` has flushed twice more: it has added its counts and read everyone's. */
  async function flushedTwice(server: ApiServer): Promise<void> {
    const from = await flushes(server);
    await until(async () => (await flushes(server)) >= from + 2);
  }

  it('shares a key quota between the replicas: past it either answers 429 with RateLimit and Retry-After', async () => {
    const { id, key } = await createKey(cfg, silentLog, 'shared', 'free');
    const headers = { 'X-API-Key': key };
    await until(async () => (await get(a, headers)).status === 200);
    const first = await get(a, { ...headers, Origin: 'https://wallet.example' });
    expect(first.headers.get('ratelimit-policy')).to.equal('"second";q=1000;w=1, "day";q=6;w=86400');
    // a page's script may read them, and the key never reaches the node
    expect(first.headers.get('access-control-expose-headers')).to.contain('RateLimit-Policy');
    expect(node.seen.at(-1)!.headers).not.to.have.property('x-api-key');
    // nor as apikey=: the node sees the rest of the query as sent
    expect((await get(a, {}, `/v2/status?apikey=${key}&int-as-string=true`)).status).to.equal(200);
    expect(node.seen.at(-1)!.url).to.equal('/v2/status?int-as-string=true');
    expect(first.headers.get('ratelimit')).to.match(/^"second";r=\d+;t=1, "day";r=4;t=\d+$/);
    expect((await get(a, headers)).status).to.equal(200);
    await flushedTwice(a);
    // B had not seen the key: its first request counts with what B knows, then its flush learns A's four
    await until(async () => (await get(b, headers)).status === 200);
    await flushedTwice(b);
    const last = await get(b, headers);
    expect(last.status).to.equal(200);
    expect(last.headers.get('ratelimit')).to.match(/"day";r=0;/);
    const refused = await get(b, headers);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 86_400);
    expect(refused.headers.get('ratelimit')).to.match(/"day";r=0;t=\d+$/);
    expect(await refused.json()).to.deep.include({ code: 'MDW_API_QUOTA_EXCEEDED' });
    await flushedTwice(a);
    const fromA = await get(a, headers);
    expect(fromA.status).to.equal(429);
    expect(fromA.headers.get('ratelimit-policy')).to.contain('"day";q=6');
    const { rows } = await queryOnce<{ used: string }>(
      cfg.databaseUrl,
      'SELECT used::text AS used FROM api_quota_usage WHERE window_seconds = 86400 AND subject = $1',
      [id],
    );
    // the polls for a key not read yet were refused 401 and counted nothing: exactly the quota was let in
    expect(rows.map((r) => Number(r.used))).to.deep.equal([6]);
  });

  it('refuses an unknown key 401 with a clear error, at once, on both replicas', async () => {
    for (const server of [a, b]) {
      const res = await get(server, { 'X-API-Key': 'mdw_not_a_key_of_ours' });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^ApiKey/);
      expect(await res.json()).to.deep.equal({
        reason: 'unknown API key (X-API-Key or apikey=)',
        code: 'MDW_API_KEY_INVALID',
      });
      const mdw = await get(server, {}, '/mdw/v3/status?apikey=mdw_not_a_key_of_ours');
      expect(mdw.status).to.equal(401);
      expect(await mdw.json()).to.deep.equal({ error: 'unknown API key (X-API-Key or apikey=)' });
    }
  });

  it(`refuses a revoked key within API_KEYS_REFRESH_MS (${REFRESH_MS} ms) of its revocation`, async () => {
    const { id, key } = await createKey(cfg, silentLog, 'to-revoke', 'pro');
    await until(async () => (await get(b, { 'X-API-Key': key })).status === 200);
    expect(await revoke(cfg, silentLog, id), 'hooks disabled').to.equal(0);
    const revokedAt = Date.now();
    await until(async () => (await get(b, { 'X-API-Key': key })).status === 401);
    // a refresh period, and the margin of a loaded machine's timers
    expect(Date.now() - revokedAt).to.be.below(REFRESH_MS * 3 + 500);
    const res = await get(b, { 'X-API-Key': key });
    expect(await res.json()).to.deep.equal({ reason: `API key ${id} was revoked`, code: 'MDW_API_KEY_INVALID' });
  });

  // a server's pools are read-only but the one it writes through: the hook was refused 503 "database unavailable"
  it("creates, lists and deletes a key's webhook through a real server", async () => {
    const { key } = await createKey(cfg, silentLog, 'hooks', 'pro');
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    // both replicas know the new key once each has read the keys again (API_KEYS_REFRESH_MS)
    await until(async () => (await get(a, headers)).status === 200 && (await get(b, headers)).status === 200);
    const created = await fetch(`${b.httpUrl}/mdw/v3/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        url: 'http://127.0.0.1:9/hook',
        filters: [{ account: 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi' }],
      }),
    });
    expect(created.status, await created.clone().text()).to.equal(201);
    const { id } = (await created.json()) as { id: string };
    const listed = (await (await fetch(`${a.httpUrl}/mdw/v3/webhooks`, { headers })).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((h) => h.id)).to.deep.equal([id]);
    expect((await fetch(`${a.httpUrl}/mdw/v3/webhooks/${id}`, { method: 'DELETE', headers })).status).to.equal(204);
  });

  it('answers a webhook request without a key 401 as one with an unknown key, and a body that is not JSON 415', async () => {
    const hook = {
      url: 'http://127.0.0.1:9/hook',
      filters: [{ account: 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi' }],
    };
    for (const [method, path] of [
      ['GET', '/mdw/v3/webhooks'],
      ['GET', '/mdw/v3/webhooks/wh_x'],
      ['DELETE', '/mdw/v3/webhooks/wh_x'],
    ]) {
      const res = await fetch(`${a.httpUrl}${path}`, { method });
      expect(res.status, `${method} ${path}`).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^ApiKey/);
      expect(((await res.json()) as { error: string }).error).to.match(/^webhooks need an API key/);
    }
    const { key } = await createKey(cfg, silentLog, 'form-hooks', 'pro');
    await until(async () => (await get(a, { 'X-API-Key': key })).status === 200);
    // curl -d sends a form: the hook is refused by its content type, not by a field it seems to lack
    const form = await fetch(`${a.httpUrl}/mdw/v3/webhooks`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify(hook),
    });
    expect(form.status).to.equal(415);
    expect(await form.json()).to.deep.equal({
      error: 'unsupported content type: application/x-www-form-urlencoded; send the body as application/json',
    });
    const balances = await fetch(`${a.httpUrl}/mdw/v3/accounts/balances`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ accounts: [hook.filters[0]!.account] }),
    });
    expect(balances.status).to.equal(415);
  });

  it('counts a request without a key in the anonymous tier by its address (X-Forwarded-For from a trusted proxy)', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let i = 0; i < 5; i++) {
      const res = await get(a, from('203.0.113.7'));
      expect(res.status).to.equal(200);
      expect(res.headers.get('ratelimit-policy')).to.equal('"second";q=1000;w=1, "day";q=5;w=86400');
    }
    const refused = await get(a, from('203.0.113.7'));
    expect(refused.status).to.equal(429);
    expect((await refused.json()) as object).to.have.property('code', 'MDW_API_QUOTA_EXCEEDED');
    expect((await get(a, from('203.0.113.8'))).status).to.equal(200);
    // probes and scrapes are never counted
    for (let i = 0; i < 10; i++) expect((await get(a, from('203.0.113.7'), '/healthz')).status).to.equal(200);
  });

  it('counts an export as EXPORT_COST units, refused before it streams when they do not fit', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.20' };
    expect((await get(a, from)).status).to.equal(200);
    const path = '/mdw/v3/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/transactions/export';
    const refused = await get(a, from, path);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    expect(((await refused.json()) as { error: string }).error).to.match(
      /^quota exceeded: your address \(tier anonymous\)/,
    );
  });

  it("holds a tier's websocket connections and subscriptions per key or address", async () => {
    const url = `${b.httpUrl.replace('http', 'ws')}/mdw/v3/websocket`;
    const headers = { 'X-Forwarded-For': '198.51.100.9' };
    const first = await opened(new WebSocket(url, { headers }));
    const second = await refusedWith(new WebSocket(url, { headers }));
    expect(second).to.equal(429);
    // two subscriptions are the anonymous tier's; the third is refused in ae_mdw's way, a message
    const answers: string[] = [];
    first.on('message', (data) => answers.push(String(data)));
    for (const payload of ['KeyBlocks', 'MicroBlocks', 'Transactions'])
      first.send(JSON.stringify({ op: 'Subscribe', payload }));
    await until(async () => answers.length === 3);
    expect(JSON.parse(answers[2]!)).to.match(/^too many subscriptions for your API key's tier/);
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.close();
    await closed;
    // the place is free again once the socket is gone
    await until(async () => {
      const ws = new WebSocket(url, { headers });
      const status = await opened(ws).then(
        () => 101,
        () => 429,
      );
      ws.close();
      return status === 101;
    });
    const unknown = await refusedWith(new WebSocket(url, { headers: { 'X-API-Key': 'mdw_nobody_0000000000' } }));
    expect(unknown).to.equal(401);
  });

  it("holds a tier's websocket connections across the replicas, as of their last sync", async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.10' };
    const onA = await opened(new WebSocket(`${a.httpUrl.replace('http', 'ws')}/mdw/v3/websocket`, { headers }));
    await until(async () => (await socketsHeld(a)) === 1);
    const onB = `${b.httpUrl.replace('http', 'ws')}/mdw/v3/websocket`;
    // B lets the address in until its sync reads what A holds (a second at most), then refuses it; each poll it lets
    // in is gone from B before the next, so a refusal is for what A holds
    const statusOnB = async (): Promise<number> => {
      const ws = new WebSocket(onB, { headers });
      const status = await opened(ws).then(
        () => 101,
        (err: Error) => Number(err.message),
      );
      ws.close();
      await until(async () => (await socketsHeld(b)) === 0);
      return status;
    };
    await until(async () => (await statusOnB()) === 429);
    const closed = new Promise((resolve) => onA.once('close', resolve));
    onA.close();
    await closed;
    await until(async () => (await statusOnB()) === 101);
  });

  it("counts a GraphQL document's cost, and refuses one past the quota before it runs", async () => {
    const { key } = await createKey(cfg, silentLog, 'graphql', 'free');
    // cost 201: three units, a page of 100 being one
    const query = '{ transactions(limit: 100) { data { hash block { hash } } } }';
    const post = () =>
      fetch(`${a.httpUrl}/mdw/graphql`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    await until(async () => (await get(a, { 'X-API-Key': key })).status === 200);
    const first = await post();
    expect(first.status).to.equal(200);
    expect(first.headers.get('ratelimit')).to.match(/"day";r=2;/);
    // its request's unit is let in, the document's two more are not: refused in GraphQL's shape, nothing read
    const refused = await post();
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    const body = (await refused.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).to.equal('MDW_API_QUOTA_EXCEEDED');
    expect(body.errors[0]!.message).to.match(/^quota exceeded: API key key_[0-9a-f]{16} \(tier free\)/);
  });

  it('takes the keys file live: its key works on every replica, and is refused once it leaves the file, its hooks disabled', async () => {
    const headers = { 'X-API-Key': 'mdw_file_key_0123456789' };
    expect((await get(a, headers)).status).to.equal(200);
    await until(async () => (await get(b, headers)).status === 200);
    const created = await fetch(`${a.httpUrl}/mdw/v3/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/file-hook', filters: [{ oracle: ORACLE }] }),
    });
    expect(created.status).to.equal(201);
    const { id } = (await created.json()) as { id: string };
    await writeFile(keysFile, '[]');
    await until(async () => (await get(a, headers)).status === 401);
    await until(async () => (await get(b, headers)).status === 401);
    const [hook] = (await hookList(cfg, silentLog, undefined)).filter((h) => h.id === id);
    expect(hook!.disabledReason).to.match(new RegExp(`^its API key ${hook!.owner} was revoked at `));
  });

  /** mdw runs the binary with the test database's settings: its exit status and output. */
  const mdw = (...args: string[]) => {
    const r = spawnSync(process.execPath, [MDW, ...args], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: cfg.databaseUrl,
        API_TIERS_FILE: env.API_TIERS_FILE!,
        LOG_LEVEL: 'warn',
      },
      timeout: 30_000,
    });
    return { status: r.status, out: r.stdout, err: r.stderr };
  };

  it('`mdw keys create`, `list` and `revoke` make, show and revoke a key the servers take', async () => {
    const created = mdw('keys', 'create', '--name', 'cli key', '--tier', 'pro');
    expect(created.status, created.err).to.equal(0);
    const { id, key, tier } = JSON.parse(created.out) as { id: string; key: string; tier: string };
    expect(id).to.match(/^key_[0-9a-f]{16}$/);
    expect(key).to.match(/^mdw_[A-Za-z0-9_-]{43}$/);
    expect(tier).to.equal('pro');
    expect(mdw('keys', 'create', '--name', 'x', '--tier', 'gold')).to.include({ status: 1 });
    await until(async () => (await get(a, { 'X-API-Key': key })).status === 200);
    const listed = mdw('keys', 'list', '--json');
    expect(listed.status, listed.err).to.equal(0);
    const row = listed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((k) => k.id === id);
    expect(row).to.include({ name: 'cli key', tier: 'pro', source: 'cli', revoked_at: null });
    // only the hash is stored: the key's text is in no column
    expect(listed.out).not.to.contain(key);
    expect(mdw('keys', 'revoke', id)).to.include({ status: 0 });
    await until(async () => (await get(a, { 'X-API-Key': key })).status === 401);
  });

  it("`mdw keys revoke` disables the key's webhooks with the reason; `mdw webhooks list|show|disable|delete` manage any hook", async () => {
    const owner = await createKey(cfg, silentLog, 'revoked owner', 'pro');
    const other = await createKey(cfg, silentLog, 'other owner', 'pro');
    const headersOf = (key: string) => ({ 'X-API-Key': key, 'Content-Type': 'application/json' });
    await until(
      async () =>
        (await get(b, headersOf(owner.key))).status === 200 && (await get(b, headersOf(other.key))).status === 200,
    );
    const create = async (key: string): Promise<string> => {
      const res = await fetch(`${b.httpUrl}/mdw/v3/webhooks`, {
        method: 'POST',
        headers: headersOf(key),
        body: JSON.stringify({
          url: 'http://127.0.0.1:9/hook',
          filters: [{ account: 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi' }],
        }),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      return ((await res.json()) as { id: string }).id;
    };
    const [revokedHook, otherHook] = [await create(owner.key), await create(other.key)];

    const revoked = mdw('keys', 'revoke', owner.id);
    expect(revoked.status, revoked.err).to.equal(0);
    expect(revoked.out.trim()).to.equal(`revoked ${owner.id}; 1 webhook(s) of it disabled`);
    // its owner can no longer reach it; the operator can
    await until(
      async () =>
        (await fetch(`${b.httpUrl}/mdw/v3/webhooks/${revokedHook}`, { headers: headersOf(owner.key) })).status === 401,
    );
    const listed = mdw('webhooks', 'list', '--owner', owner.id, '--json');
    expect(listed.status, listed.err).to.equal(0);
    const rows = listed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ id: revokedHook, owner: owner.id, enabled: false, pending: 0 });
    expect(rows[0]!.disabled_reason).to.match(
      new RegExp(`^its API key ${owner.id} was revoked at \\d{4}-[\\d-]{5}T[\\d:]{8}Z$`),
    );
    const all = mdw('webhooks', 'list').out.trim().split('\n');
    expect(all.find((l) => l.startsWith(otherHook))).to.equal(
      [otherHook, other.id, 'enabled', '0 pending', 'http://127.0.0.1:9/hook'].join('\t'),
    );
    expect(all.find((l) => l.startsWith(revokedHook))).to.match(/\tdisabled: its API key /);

    const shown = mdw('webhooks', 'show', otherHook);
    expect(shown.status, shown.err).to.equal(0);
    expect(JSON.parse(shown.out))
      .to.include({ id: otherHook, owner: other.id, enabled: true })
      .and.deep.include({ deliveries: [] });
    expect(shown.out).not.to.match(/whsec_|secret"/);

    expect(mdw('webhooks', 'disable', otherHook, '--reason', 'abuse report 42')).to.include({ status: 0 });
    const seen = await fetch(`${a.httpUrl}/mdw/v3/webhooks/${otherHook}`, { headers: headersOf(other.key) });
    expect(await seen.json()).to.include({ enabled: false, disabled_reason: 'abuse report 42' });
    // its owner enables it again
    const enabled = await fetch(`${a.httpUrl}/mdw/v3/webhooks/${otherHook}`, {
      method: 'PATCH',
      headers: headersOf(other.key),
      body: JSON.stringify({ enabled: true }),
    });
    expect(await enabled.json()).to.include({ enabled: true, disabled_reason: null });

    expect(mdw('webhooks', 'delete', revokedHook)).to.include({ status: 0 });
    for (const command of ['show', 'delete', 'disable']) {
      const gone = mdw('webhooks', command, revokedHook);
      expect(gone.status, command).to.equal(1);
      expect(gone.err, command).to.contain(`no webhook ${revokedHook}`);
    }
    expect(mdw('webhooks', 'list', '--owner', owner.id).out).to.equal('');
  });

  it('answers a page asked with another apikey= from memory: the key is no part of the cache key, nor of a metric', async () => {
    const pool = createPool({ databaseUrl: cfg.databaseUrl, schema: 'public' }, silentLog);
    try {
      await buildFixture(pool);
    } finally {
      await pool.end();
    }
    const first = await createKey(cfg, silentLog, 'cached-first', 'pro');
    const second = await createKey(cfg, silentLog, 'cached-second', 'pro');
    await until(async () => (await get(a, { 'X-API-Key': second.key })).status === 200);
    // a block deeper than the fork window: final, kept in memory
    const path = `/v2/key-blocks/height/${TOP - 40}`;
    const hits = async (): Promise<number> =>
      Number(/^mdw_api_response_cache_events_total\{event="hit"\} (\d+)/m.exec(await metricsOf(a))?.[1]);
    const before = await hits();
    const asked = await get(a, {}, `${path}?apikey=${first.key}`);
    expect(asked.status).to.equal(200);
    expect(await hits()).to.equal(before);
    const again = await get(a, {}, `${path}?apikey=${second.key}`);
    expect(again.status).to.equal(200);
    expect(await hits()).to.equal(before + 1);
    expect(await again.text()).to.equal(await asked.text());
    const metrics = await metricsOf(a);
    for (const key of [first.key, second.key]) expect(metrics).not.to.contain(key);
  });
});

describe('API keys off (the default)', () => {
  it('answers without RateLimit fields and takes any X-API-Key as before', async () => {
    const node = await startFakeNode();
    const db = await createTestDatabase({ migrated: 'public' });
    try {
      const cfg = loadConfig({ DATABASE_URL: db.url, NODE_URL: node.url, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' });
      const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
      try {
        const res = await fetch(`${server.httpUrl}/v2/status`, { headers: { 'X-API-Key': 'anything' } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('ratelimit')).to.equal(null);
        expect(res.headers.get('ratelimit-policy')).to.equal(null);
      } finally {
        await server.stop();
      }
    } finally {
      await node.close();
      await db.drop();
    }
  });
});

/** until polls `check` (every 10 ms) until it holds, failing after 10 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function opened(ws: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
  });
}

function refusedWith(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => reject(new Error('opened')));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}
