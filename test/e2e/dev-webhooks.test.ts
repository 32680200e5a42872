/**
 * @module Issue 77's "done when", as a developer tries it against `mdw dev`: a key made with `mdw keys create` owns a
 * webhook that a spend reaches on a loopback receiver, signed, within a second (the figure printed); the webhook
 * survives a restart of mdw dev (what was pending comes, again only with the same id) and a fork (a `reorg`); the key
 * past its quota gets 429 with the RateLimit fields. mdw dev runs in front of a devnode of the test's (--node-url), as
 * its own devnode makes a new chain at each start and a restart would leave the webhook nothing to survive.
 */
import { AeSdk, MemoryAccount, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import {
  ANY_MIDDLEWARE_PORTS,
  printed,
  printedSettings,
  runMdw,
  startDev,
  stopDev,
  untilUp,
  type DevRun,
} from '../support/dev-run.ts';
import { startReceiver, type Receiver, type Received } from '../support/webhook-receiver.ts';
import { waitFor } from '../support/wait.ts';
import { silentLog } from '../integration/api/harness.ts';

const DAILY_QUOTA = 12;
/** a wait's limit and pace where each try asks mdw dev over HTTP: every 50 ms, the tries cost it CPU */
const HTTP_POLL = [20_000, 200] as const;

/** The shell's exports: keys on, and a `small` tier whose daily quota a test uses up (anonymous ample for the SDK). */
const ENV = {
  API_KEYS: 'on',
  API_TIERS: JSON.stringify({
    anonymous: {
      requestsPerSecond: 1000,
      requestsPerDay: 1_000_000,
      websocketConnections: 10,
      subscriptions: 100,
      exports: 1,
    },
    small: {
      requestsPerSecond: 100,
      requestsPerDay: DAILY_QUOTA,
      websocketConnections: 1,
      subscriptions: 1,
      exports: 0,
    },
  }),
};

/** signedWith checks `Mdw-Signature: t=…,v1=…` as docs/webhooks.md tells a receiver to: HMAC-SHA256 of `t.body`. */
function signedWith(secret: string, r: Received): boolean {
  const [t, v1] = r.signature.split(',').map((part) => part.slice(part.indexOf('=') + 1));
  return v1 === createHmac('sha256', secret).update(`${t}.${r.text}`).digest('hex');
}

/** lagSeconds reads the sender's commit→2xx histogram from the printed /metrics: its sum and count. */
async function lagSeconds(http: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${http}/metrics`)).text();
  const read = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    sum: read('mdw_webhook_delivery_lag_seconds_sum'),
    count: read('mdw_webhook_delivery_lag_seconds_count'),
  };
}

describe('mdw dev: a webhook and an API key as a developer tries them (issue 77)', function () {
  this.timeout(240_000);
  const payer = MemoryAccount.generate();
  const recipient = MemoryAccount.generate().address;
  let node: Devnode;
  let receiver: Receiver;
  let run: DevRun;
  let key = '';
  let secret = '';
  let hookId = '';
  const spends: { hash: string; height: number }[] = [];
  const http = () => printed(run, 'new Node(url)');
  const started = async (dir?: string) => {
    run = startDev([...ANY_MIDDLEWARE_PORTS, '--node-url', node.externalUrl], dir, ENV);
    await untilUp(run);
  };
  /** spend pays the recipient through `url` (the printed gateway, or the node while mdw dev is down) */
  const spend = async (url: string) => {
    const aeSdk = new AeSdk({
      nodes: [{ name: 'dev', instance: new Node(url) }],
      accounts: [new MemoryAccount(payer.secretKey)],
      _expectedMineRate: 1000,
      _microBlockCycle: 300,
    });
    const tx = await aeSdk.spend(1_000_000, recipient);
    spends.push({ hash: tx.hash, height: tx.blockHeight! });
    return tx;
  };
  const at = (path: string, txHash: string) => receiver.on(path).filter((r) => r.body.tx_hash === txHash);

  before(async () => {
    // key blocks on demand: the fork below replaces the generation of the spends, within FORK_WINDOW
    node = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        keyBlockIntervalMs: 0,
        microBlockIntervalMs: 300,
        accounts: [{ secretKey: payer.secretKey, balance: 10n ** 24n }],
      },
      silentLog,
    );
    await node.mineKeyBlock();
    receiver = await startReceiver();
    await started();
  });

  after(async () => {
    const dir = run?.dir;
    if (run) await stopDev(run);
    await receiver?.close();
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("tells a key's webhook of a spend, signed, on a loopback receiver within a second of the block's commit", async () => {
    // the banner's settings line and the shell's tiers: `mdw keys create` on mdw dev's database
    const created = await runMdw(['keys', 'create', '--name', 'wallet', '--tier', 'small'], {
      ...printedSettings(run),
      API_TIERS: ENV.API_TIERS,
    });
    expect(created.code, created.output).to.equal(0);
    ({ key } = JSON.parse(created.output.trim().split('\n').at(-1)!) as { key: string });
    // a new key is taken within API_KEYS_REFRESH_MS (2 s): 401 until then
    let answer: Response | undefined;
    await waitFor(
      'the server to take the new key',
      async () => {
        answer = await fetch(`${http()}/mdw/v3/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({
            url: `${receiver.url}/wallet`,
            filters: [{ account: recipient, direction: 'in' }],
            confirmations: 0,
          }),
        });
        return answer.status !== 401;
      },
      ...HTTP_POLL,
    );
    expect(answer!.status, `${await answer!.clone().text()}\n${run.output()}`).to.equal(201);
    ({ id: hookId, secret } = (await answer!.json()) as { id: string; secret: string });

    const tx = await spend(http());
    await waitFor('the delivery of the spend', () => at('/wallet', tx.hash).length > 0);
    const [delivery] = at('/wallet', tx.hash);
    expect(signedWith(secret, delivery!), delivery!.signature).to.equal(true);
    expect(signedWith('another secret', delivery!)).to.equal(false);
    expect(delivery!.body).to.deep.include({ id: delivery!.deliveryId, type: 'transaction', height: tx.blockHeight });
    expect(delivery!.body.block_hash).to.equal(tx.blockHash);
    expect((delivery!.body.data as { tx: { recipient_id: string } }).tx.recipient_id).to.equal(recipient);

    // the figures: the sender's own (its row's commit to the receiver's 2xx), and the micro block's time to receipt;
    // the sender observes its lag once it has recorded the receiver's answer, a moment after the receiver has it
    let lag = { sum: NaN, count: 0 };
    await waitFor(
      'the sender to record the delivery',
      async () => (lag = await lagSeconds(http())).count > 0,
      ...HTTP_POLL,
    );
    expect(lag.count).to.equal(1);
    const header = (await (await fetch(`${node.externalUrl}/v2/micro-blocks/hash/${tx.blockHash}/header`)).json()) as {
      time: number;
    };
    console.log(
      `      commit → receipt ${(lag.sum * 1000).toFixed(0)} ms (mdw_webhook_delivery_lag_seconds); ` +
        `micro block's time → receipt ${delivery!.at - header.time} ms`,
    );
  });

  it('delivers what was pending across a restart of mdw dev, a repeat only with the same delivery id', async () => {
    receiver.behaviour.set('/wallet', 'fail');
    const pending = await spend(http());
    await waitFor('a failed attempt of the second spend', () => at('/wallet', pending.hash).length > 0);
    const id = at('/wallet', pending.hash)[0]!.deliveryId;
    expect(await stopDev(run)).to.equal(0);
    // a spend while mdw dev is down, sent to the node itself
    const whileDown = await spend(node.externalUrl);
    receiver.behaviour.set('/wallet', 'ok');
    const answeredOk = [receiver.on('/wallet')[0]!];
    const mark = receiver.on('/wallet').length;
    await started(run.dir);
    await waitFor('the spend made while mdw dev was down', () => at('/wallet', whileDown.hash).length > 0);
    answeredOk.push(...receiver.on('/wallet').slice(mark));
    expect(answeredOk.map((r) => r.body.tx_hash)).to.deep.equal(spends.map((s) => s.hash));
    expect(new Set(at('/wallet', pending.hash).map((r) => r.deliveryId))).to.deep.equal(new Set([id]));
    // the sender marks a delivery delivered once it has the receiver's 2xx, a moment after the receiver has the request
    const pendingCount = async () =>
      (
        (await (await fetch(`${http()}/mdw/v3/webhooks/${hookId}`, { headers: { 'x-api-key': key } })).json()) as {
          pending: number;
        }
      ).pending;
    await waitFor('the sender to record every delivery', async () => (await pendingCount()) === 0, ...HTTP_POLL);
  });

  it("tells a fork that drops the delivered spends with a reorg naming their ids, then their new blocks'", async () => {
    const delivered = receiver.on('/wallet').map((r) => r.deliveryId);
    const top = (await (await fetch(`${node.externalUrl}/v2/key-blocks/current/height`)).json()) as { height: number };
    const depth = top.height - Math.min(...spends.map((s) => s.height)) + 1;
    // the devnode's own control, as the banner's internal URL offers it under make dev
    const forked = await fetch(`${node.internalUrl}/v2/debug/dev/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ depth }),
    });
    expect(forked.status).to.equal(200);
    const mark = receiver.on('/wallet').length;
    await waitFor('the reorg and the spends in their new blocks', () => receiver.on('/wallet').length >= mark + 4);
    const [reorg, ...again] = receiver.on('/wallet').slice(mark);
    expect(reorg!.body.type).to.equal('reorg');
    expect(signedWith(secret, reorg!)).to.equal(true);
    expect((reorg!.body.data as { invalidated: string[] }).invalidated).to.have.members([...new Set(delivered)]);
    expect(again.map((r) => r.body.tx_hash)).to.deep.equal(spends.map((s) => s.hash));
    expect(again.filter((r) => delivered.includes(r.deliveryId))).to.deep.equal([]);
  });

  it('answers the key past its daily quota 429 with RateLimit-Policy, RateLimit and Retry-After', async () => {
    const list = () => fetch(`${http()}/mdw/v3/webhooks`, { headers: { 'x-api-key': key } });
    let answer = await list();
    for (let i = 0; i < DAILY_QUOTA && answer.status === 200; i++) {
      expect(answer.headers.get('ratelimit-policy')).to.contain(`"day";q=${DAILY_QUOTA};w=86400`);
      answer = await list();
    }
    expect(answer.status).to.equal(429);
    expect(answer.headers.get('ratelimit-policy')).to.contain(`"day";q=${DAILY_QUOTA};w=86400`);
    expect(answer.headers.get('ratelimit')).to.match(/"day";r=0;t=\d+$/);
    expect(Number(answer.headers.get('retry-after'))).to.be.within(1, 86_400);
    // anonymous requests are counted apart: the gateway still answers them
    expect((await fetch(`${http()}/mdw/v3/status`)).status).to.equal(200);
  });
});
