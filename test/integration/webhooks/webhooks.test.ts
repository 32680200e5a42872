/**
 * @module Webhooks (issue 77 parts 2-3, issue 89) against the devnode's chain with a real receiver on loopback: the
 * API, the account filter's deliveries signed (Standard Webhooks' verifier from npm, before and after a secret
 * rotation) and in /v3's shapes, PATCH and a test ping, a revoked key's hook stopped mid-stream, a fork of depth 5
 * under confirmations 0 and 3, a receiver that fails (logged once per state), hangs or is down, a sender killed with
 * SIGKILL mid-delivery, and a private address refused.
 */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import pino from 'pino';
import prom from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { createKey, revoke } from '../../../src/api/quota/keys-admin.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createWebhook } from '../../../src/db/writes/webhooks.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { writeDeliveries } from '../../../src/db/writes/webhook-deliveries.ts';
import { eventTopic as devnodeEventTopic } from '../../../src/devnode/contracts/frame.ts';
import { DeliveryPruner } from '../../../src/webhooks/delivery-pruner.ts';
import { parseFilters } from '../../../src/webhooks/filters.ts';
import { createWebhookMetrics } from '../../../src/webhooks/metrics.ts';
import { WebhookSender, type SenderSettings } from '../../../src/webhooks/sender.ts';
import { isSignedBy, newSecret } from '../../../src/webhooks/signature.ts';
import { hookShown } from '../../../src/webhooks/webhooks-admin.ts';
import { startMdw } from '../../support/mdw-process.ts';
import { SLOW_MS, startReceiver, type Received, type Receiver } from '../../support/webhook-receiver.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type V3UnderTest } from '../v3/harness.ts';

type Obj = Record<string, unknown>;

/** A new secret: `whsec_` and the base64 of 32 random bytes, as Standard Webhooks' libraries read it. */
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** verifies tells whether the Standard Webhooks verifier from npm accepts `r` with `secret`. */
function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.text, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const SETTINGS: SenderSettings = {
  timeoutMs: 1000,
  maxResponseBytes: 1024,
  allowPrivate: true,
  concurrency: 8,
  leaseMs: 2000,
  pollMs: 20,
  retry: { initialMs: 100, maxMs: 400 },
  maxAttempts: 100,
};

describe('webhooks (devnode → populator → deliveries → sender → a loopback receiver)', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let receiver: Receiver;
  let pool: Pool;
  let sender: WebhookSender | undefined;
  const secrets = new Map<string, string>();

  before(async () => {
    // the server's own POSTs (a hook's test ping) go to the loopback receiver too
    v3 = await startV3(8, 'webhooks', () => ({ WEBHOOKS_ANONYMOUS: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }), {
      tokenShare: 0.3,
    });
    receiver = await startReceiver();
    pool = createPool({ databaseUrl: v3.settings.DATABASE_URL!, schema: 'mdw_v3', max: 4 }, silentLog);
    sender = startSender();
  });
  after(async () => {
    await sender?.stop();
    await pool?.end();
    await receiver?.close();
    await v3?.close();
  });

  const startSender = (settings: Partial<SenderSettings> = {}, log = silentLog): WebhookSender => {
    const s = new WebhookSender({
      pool,
      schema: 'mdw_v3',
      log,
      metrics: createWebhookMetrics(new prom.Registry()),
      settings: { ...SETTINGS, ...settings },
    });
    s.start();
    return s;
  };

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Obj }> {
    const res = await fetch(`${v3.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Obj) };
  }

  async function createHook(path: string, filters: unknown[], confirmations = 0): Promise<string> {
    const res = await call('POST', '/mdw/v3/webhooks', { url: `${receiver.url}${path}`, filters, confirmations });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    secrets.set(path, String(res.body.secret));
    return String(res.body.id);
  }

  /** The transactions of the node's chain naming `account` as its hash@block, in chain order. */
  async function chainTxsOf(account: string, field?: string): Promise<string[]> {
    const truth = await v3.truth();
    return truth.transactions
      .filter((t) => {
        const tx = t.signed.tx as Obj;
        return field === undefined ? Object.values(tx).includes(account) : tx[field] === account;
      })
      .map((t) => `${t.hash}@${t.blockHash}`);
  }

  const deliveredTxs = (path: string): string[] => [
    ...new Set(
      receiver
        .on(path)
        .filter((r) => r.body.type === 'transaction')
        .map((r) => `${String(r.body.tx_hash)}@${String(r.body.block_hash)}`),
    ),
  ];

  it('creates a hook with its secret once, lists, reads and deletes it, and refuses bad input with a 400', async () => {
    const created = await call('POST', '/mdw/v3/webhooks', {
      url: `${receiver.url}/api`,
      filters: [{ account: v3.devnode.accounts[0]!.publicKey, direction: 'out', types: ['SpendTx'] }],
    });
    expect(created.status).to.equal(201);
    expect(created.body.secret).to.match(SECRET);
    const id = String(created.body.id);
    const got = await call('GET', `/mdw/v3/webhooks/${id}`);
    expect(got.body).to.include({ id, url: `${receiver.url}/api`, confirmations: 0, enabled: true });
    expect(got.body).not.to.have.property('secret');
    expect(((await call('GET', '/mdw/v3/webhooks')).body.data as Obj[]).map((h) => h.id)).to.include(id);
    for (const bad of [
      { url: 'ftp://x', filters: [{ account: v3.devnode.accounts[0]!.publicKey }] },
      { url: receiver.url, filters: [] },
      { url: receiver.url, filters: [{ account: 'ak_nope' }] },
      { url: receiver.url, filters: [{ account: v3.devnode.accounts[0]!.publicKey, direction: 'sideways' }] },
      { url: receiver.url, filters: [{ oracle: 'ok_x', extra: 1 }] },
      { url: receiver.url, filters: [{ name: 'x.chain' }], confirmations: -1 },
    ]) {
      const res = await call('POST', '/mdw/v3/webhooks', bad);
      expect(res.status, JSON.stringify(bad)).to.equal(400);
    }
    expect((await call('DELETE', `/mdw/v3/webhooks/${id}`)).status).to.equal(204);
    expect((await call('GET', `/mdw/v3/webhooks/${id}`)).status).to.equal(404);
    expect((await call('DELETE', `/mdw/v3/webhooks/${id}`)).status).to.equal(404);
  });

  it("delivers an account's transactions (any, in, out) in chain order, signed, in /v3's shape", async () => {
    const recipient = MemoryAccount.generate().address;
    const payer = v3.devnode.accounts[0]!.publicKey;
    await createHook('/any', [{ account: recipient }]);
    await createHook('/in', [{ account: recipient, direction: 'in' }]);
    await createHook('/out', [{ account: recipient, direction: 'out' }]);
    await createHook('/payer-spends', [{ account: payer, direction: 'out', types: ['SpendTx'] }]);
    for (let i = 1; i <= 3; i++) {
      await v3.spend(recipient, i);
      await v3.devnode.mineMicroBlock();
    }
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const expected = await chainTxsOf(recipient, 'recipient_id');
    expect(expected).to.have.length(3);
    await waitFor(
      'the three spends at /any and /in',
      () => deliveredTxs('/any').length === 3 && deliveredTxs('/in').length === 3,
    );
    expect(deliveredTxs('/any')).to.deep.equal(expected);
    expect(deliveredTxs('/in')).to.deep.equal(expected);
    expect(deliveredTxs('/out')).to.deep.equal([]);
    await waitFor("the payer's spends", async () => deliveredTxs('/payer-spends').length >= 3);
    for (const r of receiver.on('/any')) {
      expect(verifies(secrets.get('/any')!, r), 'Standard Webhooks').to.equal(true);
      expect(verifies(secrets.get('/in')!, r)).to.equal(false);
      expect(isSignedBy(secrets.get('/any')!, r.signature, r.text, Math.floor(Date.now() / 1000)), 'signed').to.equal(
        true,
      );
      expect(isSignedBy(secrets.get('/in')!, r.signature, r.text, Math.floor(Date.now() / 1000))).to.equal(false);
      expect(r.deliveryId).to.equal(r.body.id);
      expect(Object.keys(r.body)).to.deep.equal([
        'id',
        'type',
        'height',
        'block_hash',
        'micro_index',
        'tx_hash',
        'confirmations',
        'data',
      ]);
      // the data is /v3's Transaction, as /mdw/v3/transactions/{hash} serves it
      const v3Tx = await v3.get(`/mdw/v3/transactions/${String(r.body.tx_hash)}`);
      expect(r.body.data).to.deep.equal(v3Tx.body as Json);
    }
  });

  /** spendTo spends to `recipient` in a micro block of its own under a new key block, and waits for the populator. */
  async function spendTo(recipient: string, amount: number): Promise<void> {
    await v3.spend(recipient, amount);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
  }

  it('signs every delivery as the Standard Webhooks verifier checks it, before, during and after a rotation; a tampered one fails', async () => {
    const recipient = MemoryAccount.generate().address;
    const id = await createHook('/std', [{ account: recipient }]);
    const first = secrets.get('/std')!;
    await spendTo(recipient, 1);
    await waitFor('the first spend', () => receiver.on('/std').length === 1);
    const before = receiver.on('/std')[0]!;
    // the verifier answers the body it verified
    expect(new Webhook(first).verify(before.text, before.headers as Record<string, string>)).to.deep.equal(
      JSON.parse(before.text),
    );
    expect(before.headers['webhook-id']).to.equal(before.body.id);
    expect(Math.abs(Number(before.headers['webhook-timestamp']) - Date.now() / 1000)).to.be.below(60);
    // the 0.3 headers stay for a minor release
    expect(before.deliveryId).to.equal(before.body.id);
    expect(isSignedBy(first, before.signature, before.text, Math.floor(Date.now() / 1000))).to.equal(true);
    const tampered: Received[] = [
      { ...before, text: before.text.replace(/}$/, ',"x":1}') },
      { ...before, headers: { ...before.headers, 'webhook-id': 'another' } },
      {
        ...before,
        headers: { ...before.headers, 'webhook-timestamp': String(Number(before.headers['webhook-timestamp']) - 1) },
      },
    ];
    for (const r of tampered) expect(verifies(first, r), JSON.stringify(r.headers)).to.equal(false);

    const rotated = await call('POST', `/mdw/v3/webhooks/${id}/rotate-secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
    const second = String(rotated.body.secret);
    expect(second).to.match(SECRET).and.not.equal(first);
    const until = Date.parse(String(rotated.body.previous_secret_until));
    expect(Math.abs(until - Date.now() - 86_400_000)).to.be.below(60_000);
    expect((await call('GET', `/mdw/v3/webhooks/${id}`)).body.previous_secret_until).to.equal(
      rotated.body.previous_secret_until,
    );
    await spendTo(recipient, 2);
    await waitFor('the spend during the rotation', () => receiver.on('/std').length === 2);
    const during = receiver.on('/std')[1]!;
    expect(String(during.headers['webhook-signature']).split(' ')).to.have.length(2);
    expect(verifies(second, during), 'the new secret').to.equal(true);
    expect(verifies(first, during), 'the replaced one, for 24 h').to.equal(true);
    for (const secret of [first, second])
      expect(isSignedBy(secret, during.signature, during.text, Math.floor(Date.now() / 1000))).to.equal(true);

    // told: the replaced secret signs nothing more
    expect((await call('DELETE', `/mdw/v3/webhooks/${id}/previous-secret`)).status).to.equal(204);
    expect((await call('GET', `/mdw/v3/webhooks/${id}`)).body.previous_secret_until).to.equal(null);
    await spendTo(recipient, 3);
    await waitFor('the spend after the rotation', () => receiver.on('/std').length === 3);
    const after = receiver.on('/std')[2]!;
    expect(verifies(second, after)).to.equal(true);
    expect(verifies(first, after)).to.equal(false);
    expect(isSignedBy(first, after.signature, after.text, Math.floor(Date.now() / 1000))).to.equal(false);
    for (const path of ['rotate-secret', 'test'])
      expect((await call('POST', `/mdw/v3/webhooks/wh_nope/${path}`)).status, path).to.equal(404);
    expect((await call('DELETE', '/mdw/v3/webhooks/wh_nope/previous-secret')).status).to.equal(404);
  });

  it('changes a hook with PATCH (url, filters, confirmations, enabled), and sends it a signed ping on request', async () => {
    const [watched, other] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
    const id = await createHook('/patch-a', [{ account: watched }], 5);
    const patched = await call('PATCH', `/mdw/v3/webhooks/${id}`, {
      url: `${receiver.url}/patch-b`,
      filters: [{ account: other }],
      confirmations: 0,
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ id, url: `${receiver.url}/patch-b`, confirmations: 0, enabled: true });
    expect(patched.body.filters).to.deep.equal([{ account: other }]);
    await v3.spend(watched, 1);
    await v3.spend(other, 2);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('the spend to the new filter at the new url', () => receiver.on('/patch-b').length === 1);
    expect(deliveredTxs('/patch-b')).to.deep.equal(await chainTxsOf(other, 'recipient_id'));
    expect(receiver.on('/patch-a')).to.deep.equal([]);

    const disabled = await call('PATCH', `/mdw/v3/webhooks/${id}`, { enabled: false });
    expect(disabled.body).to.include({ enabled: false, disabled_reason: 'disabled by its owner' });
    await spendTo(other, 3);
    expect(
      ((await call('GET', `/mdw/v3/webhooks/${id}/deliveries`)).body.data as Obj[]).length,
      'none written',
    ).to.equal(1);
    expect((await call('PATCH', `/mdw/v3/webhooks/${id}`, { enabled: true })).body).to.include({
      enabled: true,
      disabled_reason: null,
    });
    for (const bad of [
      { confirmations: -1 },
      { enabled: 'yes' },
      { url: 'ftp://x' },
      { filters: [] },
      { secret: 'x' },
      [],
    ])
      expect((await call('PATCH', `/mdw/v3/webhooks/${id}`, bad)).status, JSON.stringify(bad)).to.equal(400);
    expect((await call('PATCH', '/mdw/v3/webhooks/wh_nope', { enabled: true })).status).to.equal(404);
    expect((await call('GET', `/mdw/v3/webhooks/${id}`)).body).to.include({
      url: `${receiver.url}/patch-b`,
      enabled: true,
    });

    const pinged = await call('POST', `/mdw/v3/webhooks/${id}/test`);
    expect(pinged.status, JSON.stringify(pinged.body)).to.equal(200);
    expect(pinged.body).to.include({ ok: true, status: 200, error: null });
    const ping = receiver.on('/patch-b').find((r) => r.body.type === 'ping')!;
    expect(ping.body).to.deep.include({ id: pinged.body.id, height: v3.devnode.height(), data: { webhook_id: id } });
    expect(verifies(secrets.get('/patch-a')!, ping)).to.equal(true);
    receiver.behaviour.set('/patch-b', 'fail');
    expect((await call('POST', `/mdw/v3/webhooks/${id}/test`)).body).to.include({
      ok: false,
      status: 500,
      error: 'answered 500',
    });
    receiver.behaviour.set('/patch-b', 'ok');
    // a ping is no delivery: nothing in the hook's order
    const listed = (await call('GET', `/mdw/v3/webhooks/${id}/deliveries`)).body.data as Obj[];
    expect(listed.map((d) => d.type)).to.not.include('ping');
  });

  it("stops a revoked key's hooks within a poll, mid-stream and mid-attempt, disabled with the reason its operator reads", async () => {
    const cfg = loadConfig(v3.settings);
    const key = await createKey(cfg, silentLog, 'hook owner', 'free');
    const recipient = MemoryAccount.generate().address;
    const filters = [{ account: recipient }];
    // one receiver slow to answer (the sender goes from one delivery to the next), one that never answers (an attempt
    // under way when the key is revoked, failing after it)
    for (const [id, path] of [
      ['wh_revoked_slow', '/revoked-slow'],
      ['wh_revoked_hangs', '/revoked-hangs'],
    ] as const)
      await createWebhook(pool, {
        id,
        owner: key.id,
        url: `${receiver.url}${path}`,
        filters,
        confirmations: 0,
        secret: newSecret(),
        keys: parseFilters(filters),
      });
    receiver.behaviour.set('/revoked-slow', 'slow');
    receiver.behaviour.set('/revoked-hangs', 'hang');
    for (let i = 1; i <= 8; i++) await v3.spend(recipient, i);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor(
      'two deliveries, and one attempt hanging',
      () => receiver.on('/revoked-slow').length >= 2 && receiver.on('/revoked-hangs').length === 1,
    );
    expect(await revoke(cfg, silentLog, key.id), 'hooks disabled').to.equal(2);
    const revokedAt = Date.now();
    const sent = receiver.on('/revoked-slow').length;
    // the hanging attempt's timeout (1 s) and a retry's wait (0.1 s) are past; polls of the sender every 20 ms
    await new Promise((r) => setTimeout(r, SETTINGS.timeoutMs + 10 * (SETTINGS.pollMs + SLOW_MS)));
    expect(receiver.on('/revoked-slow').length, 'at most the attempt under way').to.be.at.most(sent + 1);
    expect(receiver.on('/revoked-slow').at(-1)!.at - revokedAt).to.be.below(SLOW_MS + SETTINGS.pollMs + 500);
    expect(receiver.on('/revoked-hangs'), 'no retry of the attempt that failed after').to.have.length(1);
    // what `mdw webhooks show` prints: disabled with the reason, the rest still pending
    for (const id of ['wh_revoked_slow', 'wh_revoked_hangs']) {
      const shown = (await hookShown(cfg, silentLog, id))!;
      expect(shown).to.include({ id, owner: key.id, enabled: false });
      expect(shown.disabled_reason).to.match(
        new RegExp(`^its API key ${key.id} was revoked at \\d{4}-\\d\\d-\\d\\dT[\\d:]{8}Z$`),
      );
      expect(shown.pending, id).to.be.above(0);
      expect((shown.deliveries as Obj[]).map((d) => d.status)).to.include('pending');
    }
    receiver.behaviour.delete('/revoked-slow');
    receiver.behaviour.delete('/revoked-hangs');
  });

  it('logs a failing hook at info once per state: its first failure, another error, and its recovery', async () => {
    const lines: Obj[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Obj) });
    await sender?.stop();
    sender = startSender({}, log);
    const recipient = MemoryAccount.generate().address;
    const id = await createHook('/flaky', [{ account: recipient }]);
    receiver.behaviour.set('/flaky', 'fail');
    await spendTo(recipient, 1);
    await waitFor('three failed attempts', () => receiver.on('/flaky').length >= 3, 10_000);
    receiver.behaviour.set('/flaky', 'hang');
    const answered = receiver.on('/flaky').length;
    await waitFor('an attempt unanswered', () => receiver.on('/flaky').length > answered, 10_000);
    // it times out after this: the next attempt is answered
    receiver.behaviour.set('/flaky', 'ok');
    await waitFor(
      'delivered',
      async () => ((await call('GET', `/mdw/v3/webhooks/${id}`)).body.pending as number) === 0,
    );
    const ofHook = lines.filter((l) => l.webhook === id);
    expect(ofHook.map((l) => [l.level, l.msg, l.error ?? null])).to.deep.equal([
      [30, 'webhook delivery failed', 'answered 500'],
      [30, 'webhook delivery failed', 'no answer within 1000 ms'],
      [30, 'webhook delivered again after failures', null],
    ]);
    expect(ofHook[0]).to.include({ attempt: 1, url: `${receiver.url}/flaky` });
    await sender.stop();
    sender = startSender();
  });

  it('tells a fork of depth 5 under confirmations 0 and 3: a reorg naming what was delivered, then the new chain', async () => {
    const recipient = MemoryAccount.generate().address;
    await createHook('/fork0', [{ account: recipient }], 0);
    await createHook('/fork3', [{ account: recipient }], 3);
    for (let i = 1; i <= 3; i++) {
      await v3.spend(recipient, i);
      await v3.devnode.mineMicroBlock();
      await v3.devnode.mineKeyBlock();
    }
    await v3.synced();
    const before = await chainTxsOf(recipient, 'recipient_id');
    await waitFor('the spends at /fork0', () => deliveredTxs('/fork0').length === 3);
    // three key blocks on top of the first spend's: only it is 3 deep
    await waitFor('the first spend at /fork3', () => deliveredTxs('/fork3').length >= 1);
    const sent0 = receiver.on('/fork0').map((r) => r.deliveryId);
    const sent3 = [...new Set(receiver.on('/fork3').map((r) => r.deliveryId))];
    const count0 = receiver.on('/fork0').length;
    const count3 = receiver.on('/fork3').length;

    await v3.devnode.fork(5);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const after = await chainTxsOf(recipient, 'recipient_id');
    expect(after.map((t) => t.split('@')[0])).to.deep.equal(before.map((t) => t.split('@')[0]));
    // /fork0: the reorg names the three delivered ids, then the spends come in their new blocks
    await waitFor('the new chain at /fork0', () => receiver.on('/fork0').length >= count0 + 4);
    const next0 = receiver.on('/fork0').slice(count0);
    expect(next0[0]!.body.type).to.equal('reorg');
    expect((next0[0]!.body.data as Obj).invalidated).to.have.members([...new Set(sent0)]);
    expect(next0.slice(1).map((r) => `${String(r.body.tx_hash)}@${String(r.body.block_hash)}`)).to.deep.equal(after);
    // /fork3: a reorg naming what it had tried; the new chain's spends wait for 3 key blocks above them
    await waitFor('the reorg at /fork3', () => receiver.on('/fork3').length > count3);
    const reorg3 = receiver.on('/fork3')[count3]!;
    expect(reorg3.body.type).to.equal('reorg');
    expect((reorg3.body.data as Obj).invalidated).to.have.members(sent3);
    for (let i = 0; i < 3; i++) await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('the new chain at /fork3', () => receiver.on('/fork3').length >= count3 + 4);
    const next3 = receiver.on('/fork3').slice(count3 + 1);
    expect(next3.map((r) => `${String(r.body.tx_hash)}@${String(r.body.block_hash)}`)).to.deep.equal(after);
    for (const r of next3) expect(r.body.confirmations).to.be.at.least(3);
  });

  it('retries a receiver that answers 500, hangs or is down, with the same delivery id, while other hooks go on', async () => {
    const recipient = MemoryAccount.generate().address;
    await createHook('/fails', [{ account: recipient }]);
    await createHook('/hangs', [{ account: recipient }]);
    await createHook('/healthy', [{ account: recipient }]);
    receiver.behaviour.set('/fails', 'fail');
    receiver.behaviour.set('/hangs', 'hang');
    await v3.spend(recipient, 1);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('the healthy hook', () => receiver.on('/healthy').length === 1);
    await waitFor(
      'two tries of each failing hook',
      () => receiver.on('/fails').length >= 2 && receiver.on('/hangs').length >= 2,
      10_000,
    );
    const id = receiver.on('/healthy')[0]!.deliveryId;
    for (const path of ['/fails', '/hangs']) {
      const ids = new Set(receiver.on(path).map((r) => r.body.tx_hash));
      expect(ids.size, path).to.equal(1);
    }
    const fails = await call('GET', `/mdw/v3/webhooks/${await hookIdOf('/fails')}/deliveries`);
    const row = (fails.body.data as Obj[])[0]!;
    expect(row).to.include({ status: 'pending', last_error: 'answered 500' });
    expect(row.attempts).to.be.at.least(2);
    const hangs = await call('GET', `/mdw/v3/webhooks/${await hookIdOf('/hangs')}/deliveries`);
    expect((hangs.body.data as Obj[])[0]!.last_error).to.match(/no answer within 1000 ms/);
    // down, then up: delivered once it answers
    await receiver.down();
    receiver.behaviour.set('/fails', 'ok');
    receiver.behaviour.set('/hangs', 'ok');
    await new Promise((r) => setTimeout(r, 300));
    await receiver.up();
    await waitFor('delivered once up', async () => {
      const a = await call('GET', `/mdw/v3/webhooks/${await hookIdOf('/fails')}/deliveries`);
      const b = await call('GET', `/mdw/v3/webhooks/${await hookIdOf('/hangs')}/deliveries`);
      return (a.body.data as Obj[])[0]!.status === 'sent' && (b.body.data as Obj[])[0]!.status === 'sent';
    });
    expect(receiver.on('/healthy').map((r) => r.deliveryId)).to.deep.equal([id]);
  });

  it('disables a hook whose retries ran out and says why', async () => {
    await sender?.stop();
    sender = startSender({ maxAttempts: 2 });
    const recipient = MemoryAccount.generate().address;
    const id = await createHook('/dead', [{ account: recipient }]);
    receiver.behaviour.set('/dead', 'fail');
    await v3.spend(recipient, 1);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('disabled', async () => (await call('GET', `/mdw/v3/webhooks/${id}`)).body.enabled === false);
    const hook = (await call('GET', `/mdw/v3/webhooks/${id}`)).body;
    expect(hook.disabled_reason).to.match(/failed 2 times, the last: answered 500/);
    expect(receiver.on('/dead')).to.have.length(2);
  });

  it('refuses a receiver whose name resolves to a loopback address before connecting, unless allowed', async () => {
    await sender?.stop();
    sender = startSender({ allowPrivate: false });
    const recipient = MemoryAccount.generate().address;
    const res = await call('POST', '/mdw/v3/webhooks', {
      url: `http://localhost:${receiver.port}/ssrf`,
      filters: [{ account: recipient }],
    });
    const id = String(res.body.id);
    const connections = receiver.connections;
    await v3.spend(recipient, 1);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('a refused attempt', async () => {
      const d = await call('GET', `/mdw/v3/webhooks/${id}/deliveries`);
      return (d.body.data as Obj[])[0]?.last_error !== null && (d.body.data as Obj[]).length > 0;
    });
    const d = await call('GET', `/mdw/v3/webhooks/${id}/deliveries`);
    expect((d.body.data as Obj[])[0]!.last_error).to.match(/^refused: localhost resolves to (127\.0\.0\.1|::1)/);
    expect(receiver.connections).to.equal(connections);
    expect(receiver.on('/ssrf')).to.deep.equal([]);
    await call('DELETE', `/mdw/v3/webhooks/${id}`);
    await sender.stop();
    sender = startSender();
  });

  it('loses nothing when the sender is killed with SIGKILL mid-delivery: the next one sends the same ids', async () => {
    await sender?.stop();
    sender = undefined;
    const recipient = MemoryAccount.generate().address;
    await createHook('/killed', [{ account: recipient }]);
    receiver.behaviour.set('/killed', 'hang');
    for (let i = 1; i <= 3; i++) {
      await v3.spend(recipient, i);
      await v3.devnode.mineMicroBlock();
    }
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const child = startMdw(['--webhooks'], {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: v3.settings.DATABASE_URL!,
      DATABASE_SCHEMA: 'mdw_v3',
      NODE_URL: v3.settings.NODE_URL!,
      PORT: '0',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_TIMEOUT_MS: '60000',
      WEBHOOK_POLL_MS: '20',
    });
    try {
      await waitFor('the first delivery hanging', () => receiver.on('/killed').length === 1, 30_000);
    } finally {
      child.child.kill('SIGKILL');
    }
    const first = receiver.on('/killed')[0]!.deliveryId;
    receiver.behaviour.set('/killed', 'ok');
    sender = startSender();
    await waitFor('the three spends', () => deliveredTxs('/killed').length === 3, 20_000);
    const expected = await chainTxsOf(recipient, 'recipient_id');
    expect(deliveredTxs('/killed')).to.deep.equal(expected);
    const ids = receiver.on('/killed').map((r) => r.deliveryId);
    // the one cut off comes again with its id; nothing else twice
    expect(ids[0]).to.equal(first);
    expect(ids.slice(1)).to.deep.equal([...new Set(ids.slice(1))]);
    expect(new Set(ids).size).to.equal(3);
  });

  it("replays a name's and an oracle's transactions from a height, as the node's chain has them", async () => {
    const truth = await v3.truth();
    const txOf = (t: { signed: Obj }): Obj => {
      const tx = t.signed.tx as Obj;
      return (tx.type === 'PayingForTx' || tx.type === 'GAMetaTx' ? ((tx.tx as Obj).tx as Obj) : tx) ?? tx;
    };
    const claims = truth.transactions.filter((t) => txOf(t).type === 'NameClaimTx');
    const queries = truth.transactions.filter((t) => txOf(t).type === 'OracleQueryTx');
    expect(claims.length, 'claims in the generated chain').to.be.greaterThan(0);
    expect(queries.length, 'queries in the generated chain').to.be.greaterThan(0);
    const name = String(txOf(claims[0]!).name);
    const oracle = String(txOf(queries[0]!).oracle_id);
    const hash = nameId(name);
    const expectedName = truth.transactions
      .filter((t) => txOf(t).name_id === hash || txOf(t).name === name)
      .map((t) => `${t.hash}@${t.blockHash}`);
    const expectedOracle = queries.filter((t) => txOf(t).oracle_id === oracle).map((t) => `${t.hash}@${t.blockHash}`);
    const nameHook = await createHook('/name', [{ name }]);
    const oracleHook = await createHook('/oracle', [{ oracle }]);
    for (const id of [nameHook, oracleHook]) {
      const res = await call('POST', `/mdw/v3/webhooks/${id}/replay`, { from_height: 0 });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
    }
    expect((await call('POST', `/mdw/v3/webhooks/${nameHook}/replay`, { from_height: -1 })).status).to.equal(400);
    await waitFor(
      'the replays',
      () =>
        deliveredTxs('/name').length >= expectedName.length && deliveredTxs('/oracle').length >= expectedOracle.length,
    );
    expect(deliveredTxs('/name')).to.deep.equal(expectedName);
    expect(deliveredTxs('/oracle')).to.deep.equal(expectedOracle);
  });

  it("delivers a contract's Transfer events as the node's call logs hold them, in /v3/contracts/logs' shape", async () => {
    // the node's logs list each call's events newest first; ae_mdw numbers them oldest 0
    const byContract = new Map<string, string[]>();
    for (const e of transferEvents()) byContract.set(e.contract, [...(byContract.get(e.contract) ?? []), e.at]);
    const [contract, expected] = [...byContract].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(expected.length, 'Transfer events in the generated chain').to.be.greaterThan(1);
    const id = await createHook('/event', [
      { contract, event: 'Transfer' },
      { contract, event: 'Transfer' },
    ]);
    for (const bad of [
      { contract, event: 'Trans fer' },
      { contract, event: 'Transfer', types: ['SpendTx'] },
    ]) {
      const res = await call('POST', '/mdw/v3/webhooks', { url: receiver.url, filters: [bad] });
      expect(res.status, JSON.stringify(bad)).to.equal(400);
    }
    // the populator's statement writes the rows a replay writes (rolled back: the other hooks get nothing old)
    const top = v3.devnode.height();
    const client = await pool.connect();
    let batchRows: string[];
    try {
      await client.query('BEGIN');
      await writeDeliveries(client, 0, top);
      const { rows } = await client.query<{ at: string }>(
        `SELECT tx_hash || '/' || log_idx AS at FROM webhook_deliveries WHERE webhook_id = $1
          ORDER BY height, rank, micro_index, tx_index, seq`,
        [id],
      );
      batchRows = rows.map((r) => r.at);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect(batchRows).to.deep.equal(expected);
    expect((await call('POST', `/mdw/v3/webhooks/${id}/replay`, { from_height: 0 })).status).to.equal(202);
    await waitFor('the Transfer events', () => receiver.on('/event').length >= expected.length);
    const got = receiver.on('/event');
    expect(got.map((r) => `${String(r.body.tx_hash)}/${String((r.body.data as Obj).log_idx)}`)).to.deep.equal(expected);
    const v3Logs = await v3.walk(`/mdw/v3/contracts/logs?contract=${contract}&event=Transfer&direction=forward`);
    expect(got.map((r) => (parseJson(r.text) as Obj).data)).to.deep.equal(v3Logs);
    expect(got.every((r) => r.body.type === 'contract_log')).to.equal(true);
  });

  it("delivers an AEX-9 token's transfers to an account and of the token, as /mdw/v3/aex9/{id}/transfers lists them", async () => {
    const transfers = transferEvents();
    // the recipient of the most transfers of one token
    const counts = new Map<string, number>();
    for (const t of transfers)
      counts.set(`${t.contract} ${t.recipient}`, (counts.get(`${t.contract} ${t.recipient}`) ?? 0) + 1);
    const [token, recipient] = [...counts].sort((a, b) => b[1] - a[1])[0]![0].split(' ') as [string, string];
    const expectedIn = transfers.filter((t) => t.contract === token && t.recipient === recipient).map((t) => t.at);
    const expectedAll = transfers.filter((t) => t.contract === token).map((t) => t.at);
    expect(expectedIn.length, 'transfers to one account').to.be.greaterThan(0);
    expect(expectedAll.length, 'transfers of the token').to.be.greaterThan(expectedIn.length);
    const inHook = await createHook('/aex9-in', [{ aex9: token, account: recipient, direction: 'in' }]);
    const allHook = await createHook('/aex9-all', [{ aex9: token }]);
    expect(
      (await call('POST', '/mdw/v3/webhooks', { url: receiver.url, filters: [{ aex9: recipient }] })).status,
    ).to.equal(400);
    for (const id of [inHook, allHook])
      expect((await call('POST', `/mdw/v3/webhooks/${id}/replay`, { from_height: 0 })).status).to.equal(202);
    await waitFor(
      'the transfers',
      () =>
        receiver.on('/aex9-in').length >= expectedIn.length && receiver.on('/aex9-all').length >= expectedAll.length,
    );
    const at = (path: string): string[] =>
      receiver.on(path).map((r) => `${String(r.body.tx_hash)}/${String((r.body.data as Obj).log_idx)}`);
    expect(at('/aex9-in')).to.deep.equal(expectedIn);
    expect(at('/aex9-all')).to.deep.equal(expectedAll);
    const v3In = await v3.walk(`/mdw/v3/aex9/${token}/transfers?recipient=${recipient}&direction=forward`);
    // read exactly: an amount above 2^53 must come as the integer /v3 serves
    expect(receiver.on('/aex9-in').map((r) => (parseJson(r.text) as Obj).data)).to.deep.equal(v3In);
    expect(receiver.on('/aex9-in').every((r) => r.body.type === 'aex9_transfer')).to.equal(true);
  });

  /** The node's Transfer events in chain and emission order (a call's log lists them newest first; ae_mdw numbers them oldest 0). */
  function transferEvents(): { contract: string; recipient: string; at: string }[] {
    const transfer = devnodeEventTopic('Transfer');
    const found: { contract: string; recipient: string; at: string }[] = [];
    for (const kb of v3.devnode.chain.keyBlocks)
      for (const mb of kb.micro)
        for (const record of mb.txs) {
          const log = (record.callInfo?.log ?? []) as { address: string; topics: bigint[] }[];
          [...log].reverse().forEach((e, i) => {
            if (e.topics[0] !== transfer || e.topics.length < 4) return;
            const recipient = encode('ak', Buffer.from(e.topics[2]!.toString(16).padStart(64, '0'), 'hex'));
            found.push({ contract: e.address, recipient, at: `${record.hash}/${i}` });
          });
        }
    return found;
  }

  it('sends nothing again when -H reloads the heights it delivered, and invents nothing for a hook created since', async () => {
    const top = v3.devnode.height();
    const heights = [top - 4, top - 3, top - 2, top - 1, top];
    const before = (await pool.query('SELECT webhook_id, delivery_id, status FROM webhook_deliveries ORDER BY 1, 2'))
      .rows;
    const count = receiver.received.length;
    const recipient = MemoryAccount.generate().address;
    const payer = v3.devnode.accounts[0]!.publicKey;
    await createHook('/late', [{ account: payer }, { account: recipient }]);
    await v3.withoutPopulator(() => reloadHeights({ cfg: loadConfig(v3.settings), log: silentLog }, heights));
    await v3.synced();
    await new Promise((r) => setTimeout(r, 500));
    const after = (await pool.query('SELECT webhook_id, delivery_id, status FROM webhook_deliveries ORDER BY 1, 2'))
      .rows;
    expect(after).to.deep.equal(before);
    expect(receiver.received.slice(count)).to.deep.equal([]);
  });

  it('prunes the deliveries done past their retention, in batches, never those pending or within FORK_WINDOW', async () => {
    await sender?.stop();
    sender = undefined;
    const top = v3.devnode.height();
    const count = async (where: string): Promise<number> =>
      Number(
        (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`)).rows[0]!.n,
      );
    const pending = await count("status = 'pending'");
    const done = await count("status <> 'pending'");
    const near = await count(`status <> 'pending' AND height > ${top - 3}`);
    expect(done - near).to.be.above(2);
    const pace = { forkWindow: 3, intervalMs: 60_000, batch: 2, pauseMs: 0 };
    expect(await new DeliveryPruner(pool, silentLog, { ...pace, retentionMs: 3_600_000 }).prune()).to.equal(0);
    expect(await new DeliveryPruner(pool, silentLog, { ...pace, retentionMs: 0 }).prune()).to.equal(done - near);
    expect(await count("status = 'pending'")).to.equal(pending);
    expect(await count("status <> 'pending'")).to.equal(near);
  });

  async function hookIdOf(path: string): Promise<string> {
    const hooks = (await call('GET', '/mdw/v3/webhooks')).body.data as Obj[];
    return String(hooks.find((h) => String(h.url).endsWith(path))!.id);
  }
});
