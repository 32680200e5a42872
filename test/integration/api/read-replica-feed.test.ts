/**
 * @module A server reading two standbys, one ahead of the other: the live feed may read the one ahead, beyond the
 * notification it acts on, and an event it pushes must still be readable through the same server on either standby
 * (docs/operations.md, "Read replicas").
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { queryOnce } from '../../support/postgres.ts';
import { deleteFrom } from '../events/chain-writer.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

/** the second standby applies each commit this late; the first applies at once (while its replay is not paused) */
const LATE_MS = 5000;
/** the time between the announced commit and the one the feed reads beyond it */
const BETWEEN_MS = 3000;

describe('a live event read on a standby ahead of the floor', function () {
  this.timeout(180_000);
  let fixture: ReplicaFixture;

  before(async () => {
    fixture = await startReplicaFixture({
      replicas: { replicas: 2, applyDelayMs: [0, LATE_MS] },
      heights: 5,
      // every read goes to a standby, none is answered from the cache
      env: { API_CACHE_MAX_BYTES: '0' },
      subscriptions: ['key_blocks'],
    });
  });
  after(async () => {
    await fixture?.close();
  });

  it('is readable through the same server on the standby still at the floor', async () => {
    const [ahead] = fixture.pg.replicaUrls as [string, string];
    await queryOnce(ahead, 'SELECT pg_wal_replay_pause()');
    let resumed = false;
    try {
      // height 6 announced while no standby has it: the notification waits (one paused, the other late)
      await fixture.write(6);
      await fixture.announce(6, 6);
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_MS));
      // height 6 rewritten after the notification (a fork whose notification is heard only later: in production the
      // next notification follows within milliseconds, here it is held back so the moment between stays open)
      await deleteFrom(fixture.primary, 6);
      const rewritten = String((await fixture.write(6)).keyBlock.hash);
      const rewrittenAt = Date.now();
      // the first standby replays both: the notification is released and the feed reads height 6 there
      await queryOnce(ahead, 'SELECT pg_wal_replay_resume()');
      resumed = true;
      const event = (await fixture.client.next(20_000)) as { payload: Record<string, Json> };
      expect(event.payload.hash).to.equal(rewritten);
      // the late standby reaches the notification's position, then applies the rewrite LATE_MS after it was made:
      // until then a read there would not find the block the event carried
      const statuses: number[] = [];
      while (Date.now() < rewrittenAt + LATE_MS + 1500) {
        statuses.push((await fetch(`${fixture.server.httpUrl}/mdw/v3/key-blocks/${rewritten}`)).status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(
        statuses.filter((s) => s !== 200),
        `of ${statuses.length} reads`,
      ).to.deep.equal([]);
      // the late standby took its turns again by the last reads: it was not left out throughout
      const status = (await (await fetch(`${fixture.server.httpUrl}/middleware/status`)).json()) as {
        read_replicas: { serving: boolean }[];
      };
      expect(status.read_replicas.map((r) => r.serving)).to.deep.equal([true, true]);
      await fixture.announce(6, 6, 6);
    } finally {
      if (!resumed) await queryOnce(ahead, 'SELECT pg_wal_replay_resume()');
    }
  });
});
