/**
 * @module A server reading two standbys, one ahead of the other: the live feed and the statuses may read the one
 * ahead, beyond the notification the server acted on last, and an event it pushes or a height a status shows must
 * still be readable through the same server on either standby (docs/operations.md, "Read replicas").
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { queryOnce } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { deleteFrom } from '../events/chain-writer.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

/** the second standby applies each commit this late; the first applies at once (while its replay is not paused) */
const LATE_MS = 8000;
/**
 * the time between the announced commit and the one the feed reads beyond it: the server has the notification long
 * before (milliseconds), and the rewrite must come well within LATE_MS of the first write
 */
const BETWEEN_MS = 1500;

describe('what a server read on a standby ahead of the floor', function () {
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

  it('goes out as a live event only once the standby still at the floor has it too', async () => {
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
      expect(event.payload.hash, 'the rewritten block (the first standby released the notification)').to.equal(
        rewritten,
      );
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
    } finally {
      if (!resumed) await queryOnce(ahead, 'SELECT pg_wal_replay_resume()');
    }
  });

  /**
   * shownHeightReadable writes `height` (not announced: the prompt standby has it at once, the late one LATE_MS later,
   * both at the floor) and checks that once `shown` (a status read) shows it, every read of its key block finds it.
   */
  const shownHeightReadable = async (height: number, shown: () => Promise<number>): Promise<void> => {
    await waitFor('both standbys serving', async () => {
      const status = (await (await fetch(`${fixture.server.httpUrl}/middleware/status`)).json()) as {
        read_replicas: { serving: boolean }[];
      };
      return status.read_replicas.every((r) => r.serving);
    });
    await fixture.write(height);
    const writtenAt = Date.now();
    let showing = 0;
    const statuses: number[] = [];
    // half the time the late standby lacks the height: a status showing it early is read some 40 times meanwhile
    while (Date.now() < writtenAt + LATE_MS / 2) {
      if ((await shown()) === height) {
        showing++;
        // reads take turns: four reach both standbys
        for (let i = 0; i < 4; i++)
          statuses.push((await fetch(`${fixture.server.httpUrl}/mdw/v3/key-blocks/${height}`)).status);
      }
      // reads take turns between the standbys: 0 to 2 more, so that a status's own reads do not fall on the same
      // standby's turn every time (the late one's would never show the height)
      for (let i = Math.floor(Math.random() * 3); i > 0; i--)
        await fetch(`${fixture.server.httpUrl}/mdw/v3/key-blocks/1`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(showing, `statuses showing height ${height}`).to.be.greaterThan(0);
    expect(
      statuses.filter((s) => s !== 200),
      `of ${statuses.length} reads`,
    ).to.deep.equal([]);
  };
  const getJson = async (path: string): Promise<Record<string, Json>> =>
    (await (await fetch(`${fixture.server.httpUrl}${path}`)).json()) as Record<string, Json>;

  it('shows no height in /middleware/status that the standby at the floor lacks', async () => {
    await shownHeightReadable(7, async () => Number((await getJson('/middleware/status')).height));
  });

  it("shows no mdw_height in ae_mdw's /mdw/v3/status that the standby at the floor lacks", async () => {
    await shownHeightReadable(8, async () => Number((await getJson('/mdw/v3/status')).mdw_height));
  });
});
