/**
 * @module A server on a standby that applies each commit seconds late (recovery_min_apply_delay): no websocket event
 * reaches a client before the same server can read its data, and forks of depth 1 to 30 leave no stale answer in its
 * response cache.
 */
import { expect } from 'chai';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { deleteFrom, type WrittenHeight } from '../events/chain-writer.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

/** the standby applies each commit this late */
const APPLY_DELAY_MS = 1500;

describe('a server on a lagging standby', function () {
  this.timeout(240_000);
  let fixture: ReplicaFixture;
  /** the chain as the primary has it: each height's key block hash */
  const chain = new Map<number, string>();
  let top = 40;

  const write = async (height: number): Promise<WrittenHeight> => {
    const written = await fixture.write(height);
    chain.set(height, String(written.keyBlock.hash));
    return written;
  };
  const notify = (from: number, to: number, rollbackFrom?: number): Promise<void> =>
    fixture.announce(from, to, rollbackFrom);
  const get = async (path: string): Promise<{ status: number; body: Record<string, Json> }> => {
    const res = await fetch(`${fixture.server.httpUrl}${path}`);
    return { status: res.status, body: parseJson(await res.text()) as Record<string, Json> };
  };
  const hashAt = async (height: number): Promise<string | undefined> => {
    const { status, body } = await get(`/v2/key-blocks/height/${height}`);
    return status === 200 ? String(body.hash) : undefined;
  };
  /** nextEvent is the next chain event the client gets (a key block or a transaction). */
  const nextEvent = async (): Promise<{ subscription: string; payload: Record<string, Json> }> =>
    (await fixture.client.next(20_000)) as { subscription: string; payload: Record<string, Json> };

  before(async () => {
    fixture = await startReplicaFixture({
      replicas: { applyDelayMs: APPLY_DELAY_MS },
      heights: top,
      env: {
        // every height below the top is final: a fork's depth reaches into the cached answers
        FORK_WINDOW: '1',
        READ_REPLICA_MAX_LAG_SECONDS: '1',
      },
      subscriptions: ['key_blocks', 'transactions'],
    });
    const { rows } = await fixture.primary.query<{ height: number; hash: string }>(
      'SELECT height, hash FROM key_blocks',
    );
    for (const { height, hash } of rows) chain.set(height, hash);
  });
  after(async () => {
    await fixture?.close();
  });

  it('pushes no event before its key block and transaction are readable through the same server', async () => {
    for (let i = 0; i < 3; i++) {
      const height = ++top;
      const notifiedAt = Date.now();
      const written = await write(height);
      await notify(height, height);
      for (let events = 0; events < 2; events++) {
        const { subscription, payload } = await nextEvent();
        // read at once, on receipt: the standby must have it already
        if (subscription === 'key_blocks') {
          expect(payload.hash).to.equal(written.keyBlock.hash);
          expect(await hashAt(height), `key block ${height} readable`).to.equal(written.keyBlock.hash);
        } else {
          const { status, body } = await get(`/v2/transactions/${String(payload.hash)}`);
          expect(status, `transaction at ${height} readable`).to.equal(200);
          expect(body.block_height).to.equal(height);
        }
      }
      // the events waited for the standby: it applies commits late, so without the wait this test would fail
      expect(Date.now() - notifiedAt).to.be.at.least(APPLY_DELAY_MS - 200);
    }
  });

  it('is not ready while the standby lags beyond READ_REPLICA_MAX_LAG_SECONDS, and shows the lag', async () => {
    const readyz = async (): Promise<{ status: number; body: Record<string, Json> }> => get('/readyz');
    expect((await readyz()).status).to.equal(200);
    const height = ++top;
    await write(height);
    await notify(height, height);
    // the standby applies the commit 1.5 s late: after a second it lags beyond the bound
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const behind = await readyz();
    expect(behind.status).to.equal(503);
    expect(String(behind.body.reason)).to.match(/^read replica \d+ s behind \(maximum 1 s\)$/);
    const metrics = await (await fetch(`${fixture.server.httpUrl}/metrics`)).text();
    const lag = Number(/^mdw_api_read_replica_lag_seconds\{replica="[^"]+"\} ([\d.]+)/m.exec(metrics)?.[1]);
    expect(lag).to.be.greaterThan(1);
    // once the standby has it, the server is ready again
    for (;;) {
      const { subscription, payload } = await nextEvent();
      if (subscription === 'key_blocks' && payload.height === height) break;
    }
    expect((await readyz()).status).to.equal(200);
    const status = (await get('/middleware/status')).body;
    expect(status.height).to.equal(height);
    const [replica] = status.read_replicas as Record<string, Json>[];
    expect(replica).to.include({ serving: true, reachable: true });
    expect(replica!.lag_seconds).to.be.below(1);
  });

  for (const depth of [1, 2, 7, 30]) {
    it(`leaves no stale cached answer after a fork of depth ${depth}`, async () => {
      const forkFrom = top - depth + 1;
      const heights = Array.from({ length: depth }, (_, i) => forkFrom + i);
      // the old chain's answers, cached (final below the top)
      for (const h of [forkFrom - 1, ...heights]) expect(await hashAt(h)).to.equal(chain.get(h));
      expect(await cachedEntries()).to.be.greaterThan(0);
      // the fork: the heights from forkFrom replaced, one more on top, announced as a rollback
      await deleteFrom(fixture.primary, forkFrom);
      for (const h of heights) await write(h);
      top++;
      await write(top);
      await notify(forkFrom, top, forkFrom);
      // a reader keeps asking for the forked heights while the standby still has the old chain: a round every 20 ms,
      // some 75 in the standby's delay (back to back, the rounds burnt a core for it)
      let reading = true;
      const reader = (async () => {
        while (reading) {
          await Promise.all(heights.map((h) => hashAt(h)));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      try {
        // the key block of the new top comes last: by then the server has acted on the fork
        for (;;) {
          const { subscription, payload } = await nextEvent();
          if (subscription === 'key_blocks' && payload.height === top) break;
        }
      } finally {
        reading = false;
        await reader;
      }
      for (const h of [...heights, top]) expect(await hashAt(h), `height ${h}`).to.equal(chain.get(h));
    });
  }

  /** cachedEntries is how many answers the server's response cache holds now. */
  async function cachedEntries(): Promise<number> {
    const text = await (await fetch(`${fixture.server.httpUrl}/metrics`)).text();
    return Number(/^mdw_api_response_cache_size\{unit="entries"\} (\d+)/m.exec(text)?.[1] ?? 0);
  }
});
