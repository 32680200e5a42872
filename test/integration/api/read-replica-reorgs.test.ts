/**
 * @module A server reading a standby that lags the primary, and a fork whose notification never comes: the reorg is
 * read from the standby with the blocks that replace what it dropped (the log is written in their transaction), so
 * the subscriber is told once, before the new chain, and gets the new chain in chain order
 * (docs/websocket.md, "Reorg notices").
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { queryOnce } from '../../support/postgres.ts';
import { forkFrom, type WrittenHeight } from '../events/chain-writer.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

type Event = { payload: Record<string, Json>; subscription: string };

/** blocksOf lists a written height's key and micro block hashes in chain order. */
function blocksOf(written: WrittenHeight): string[] {
  return [String(written.keyBlock.hash), ...written.micros.map((m) => String(m.header.hash))];
}

describe('reorg notices from a standby that lags the primary', function () {
  this.timeout(120_000);
  let fixture: ReplicaFixture;

  before(async () => {
    fixture = await startReplicaFixture({
      replicas: 'shared',
      heights: 5,
      subscriptions: ['reorgs', 'key_blocks'],
    });
  });
  after(async () => {
    await fixture?.close();
  });

  it('tells a fork it finds in a snapshot before its notification, once, and sends the new chain in order', async () => {
    const [standby] = fixture.pg.replicaUrls as [string];
    await queryOnce(standby, 'SELECT pg_wal_replay_pause()');
    let resumed = false;
    try {
      // height 6 announced while the standby lacks it: the notification waits for the standby
      const old6 = await fixture.write(6);
      await fixture.announce(6, 6);
      // a fork replaces 4..6 right after, never announced (a lost notification): the standby replays it with 6
      const oldHashes = (
        await fixture.primary.query<{ hash: string }>(
          `SELECT hash FROM (SELECT height, -1 AS i, hash FROM key_blocks WHERE height >= 4
                           UNION ALL SELECT height, micro_index, hash FROM micro_blocks WHERE height >= 4) b
          ORDER BY height, i`,
        )
      ).rows.map((r) => r.hash);
      expect(oldHashes.slice(-2)).to.deep.equal(blocksOf(old6));
      const forked = await forkFrom(fixture.primary, 4, 3);
      await queryOnce(standby, 'SELECT pg_wal_replay_resume()');
      resumed = true;
      // a later height, announced: whichever snapshot the feed read 6 in, this one holds the fork
      const next = await fixture.write(7);
      await fixture.announce(7, 7);

      const events: Event[] = [];
      while (!events.some((e) => e.payload.hash === next.keyBlock.hash))
        events.push((await fixture.client.next(20_000)) as Event);
      await fixture.client.nothingFor(1000);

      const notices = events.filter((e) => e.subscription === 'reorgs');
      expect(notices, 'told once').to.have.length(1);
      const last = forked.at(-1)!;
      expect(notices[0]!.payload).to.deep.equal({
        height: 4,
        dropped: oldHashes,
        top: { height: 6, hash: String(last.micros.at(-1)!.header.hash) },
        resent_from: 4,
      });
      const at = events.indexOf(notices[0]!);
      // before it at most the old 6 (if the feed read 6 before the standby had the fork), after it the new chain
      const keys = (list: Event[]): (Json | undefined)[] => list.map((e) => e.payload.hash);
      expect([[], [old6.keyBlock.hash]]).to.deep.include(keys(events.slice(0, at)));
      expect(keys(events.slice(at + 1))).to.deep.equal([...forked, next].map((w) => w.keyBlock.hash));
    } finally {
      if (!resumed) await queryOnce(standby, 'SELECT pg_wal_replay_resume()');
    }
  });
});
