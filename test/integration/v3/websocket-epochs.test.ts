/**
 * @module The `Epochs` channel's two promises (docs/websocket.md, issue 45): `from_height` replays the epochs fixed
 * from that height on, and a fork that replaces the key block fixing an epoch sends the epoch again as the new chain
 * has it. The hyperchain devnode's own state is the oracle (populator → database → websocket server).
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import WebSocket from 'ws';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import type { Hyperchain } from '../../../src/devnode/index.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';
import { waitFor } from '../../support/wait.ts';

const silent = pino({ level: 'silent' });
const EPOCH_LENGTH = 5;

type Payload = { [key: string]: Json };

/** A raw client of /mdw/v3/websocket: the Epochs payloads it got, in order. */
async function subscribe(url: string, message: object): Promise<{ epochs: Payload[]; close(): void }> {
  const ws = new WebSocket(`${url}/mdw/v3/websocket`);
  const epochs: Payload[] = [];
  const replies: Json[] = [];
  ws.on('message', (data) => {
    const m = parseJson(String(data));
    if (typeof m === 'object' && m !== null && !Array.isArray(m) && m.subscription === 'Epochs')
      epochs.push(m.payload as Payload);
    else replies.push(m);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ op: 'Subscribe', payload: 'Epochs', ...message }));
  await waitFor('the subscription list', () => replies.length > 0);
  expect(replies).to.deep.equal([['Epochs']]);
  return { epochs, close: () => ws.close() };
}

/**
 * fixedAt is the epoch the devnode's key block `boundary` fixed, as the channel must send it: the election contract's
 * epoch there, the time of that key block, and the leader schedule (each height's producer for epochs 1 and 2, which
 * the contract has no seed of).
 */
function fixedAt(hc: TestHyperchain, boundary: number): Payload {
  const chain = hc.devnode.chain;
  const hyperchain = chain.options.hyperchain as Hyperchain;
  const view = hyperchain.currentEpoch(chain.stateAfter(chain.keyBlocks[boundary]!.hash)!);
  const leaders =
    view.epoch > 2
      ? view.schedule
      : chain.keyBlocks.slice(view.first, Math.min(view.last, chain.height) + 1).map((k) => k.header.miner);
  return {
    epoch: view.epoch,
    first: view.first,
    last: view.last,
    epoch_start_time: chain.keyBlocks[boundary]!.header.time,
    validators: view.validators.map(([validator, stake]) => ({ validator, stake: String(stake) })),
    schedule: leaders.map((leader, i) => ({ height: view.first + i, leader })),
  };
}

/** sent is what the oracle checks of a payload (stakes as strings: the channel sends them exact). */
function sent(p: Payload): Payload {
  const validators = (p.validators as Payload[]).map((v) => ({ validator: v.validator!, stake: String(v.stake) }));
  const { epoch, first, last, schedule } = p;
  return {
    epoch: epoch!,
    first: first!,
    last: last!,
    epoch_start_time: Number(p.epoch_start_time),
    validators,
    schedule: schedule!,
  };
}

describe('the Epochs channel on a hyperchain: from_height replay and forks (docs/websocket.md)', function () {
  this.timeout(300_000);
  let hc: TestHyperchain;
  let pool: Pool;
  let ws: Role & { url: string };

  before(async () => {
    // 4 whole epochs and 2 heights of the 5th: epochs 1-5 fixed at heights 0, 5, 10, 15 and 20
    hc = await startHyperchain({ epochs: 4, epochLength: EPOCH_LENGTH, extra: 2, seed: 'websocket-epochs' });
    await hc.populate();
    const cfg = hc.config();
    pool = createPool({ databaseUrl: cfg.databaseUrl, schema: 'mdw', max: 4 }, silent);
    ws = await startWebsocketServer({
      cfg: { ...cfg, websocket: { ...cfg.websocket, host: '127.0.0.1', port: 0 } },
      log: silent,
      pool,
      registry: new prom.Registry(),
    });
  });
  after(async () => {
    await ws?.stop();
    await pool?.end();
    await hc?.close();
  });

  it('replays the epochs fixed from from_height on, in order, as the devnode fixed them', async () => {
    const all = await subscribe(ws.url, { from_height: 0 });
    const later = await subscribe(ws.url, { from_height: 11 });
    try {
      const boundaries = [0, 5, 10, 15, 20];
      await waitFor('five epochs replayed', () => all.epochs.length >= boundaries.length);
      expect(all.epochs.map(sent)).to.deep.equal(boundaries.map((b) => fixedAt(hc, b)));
      // from height 11: the epochs fixed at 15 and 20 (4 and 5), not those fixed before
      await waitFor('two epochs replayed', () => later.epochs.length >= 2);
      expect(later.epochs.map(sent)).to.deep.equal([15, 20].map((b) => fixedAt(hc, b)));
    } finally {
      all.close();
      later.close();
    }
  });

  it('sends an epoch again, as the new chain fixed it, when a fork replaces the key block that fixed it', async () => {
    const live = await subscribe(ws.url, {});
    try {
      const before = fixedAt(hc, 20);
      // heights 19-22 replaced (the end of epoch 4 at 20, which fixes epoch 5, among them), then a new top
      await hc.devnode.fork(4);
      await hc.devnode.mineKeyBlock();
      await hc.populate();
      const after = fixedAt(hc, 20);
      // the devnode's fork gives each replaced key block a later time: the epoch's start differs
      expect(after.epoch_start_time).to.not.equal(before.epoch_start_time);
      await waitFor('the epoch fixed again', () => live.epochs.length >= 1);
      expect(live.epochs.map(sent)).to.deep.equal([after]);
    } finally {
      live.close();
    }
  });
});
