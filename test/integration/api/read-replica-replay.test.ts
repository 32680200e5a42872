/**
 * @module Websocket replays (`from_height`) of a server reading a standby read the primary (docs/operations.md, "Read
 * replicas"): the live feed's reads may see a standby beyond the floor (commits after the notification it acts on),
 * and a block it delivered is never delivered again, so a replay must read a position at or past every feed read;
 * only the primary is. Here the standby's replay is paused behind the primary: the replay sends what the primary holds.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { queryOnce } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { deleteFrom } from '../events/chain-writer.ts';
import { startReplicaFixture, type ReplicaFixture } from './replica-fixture.ts';

describe('a websocket replay of a server reading a standby', function () {
  this.timeout(120_000);
  let fixture: ReplicaFixture;

  before(async () => {
    fixture = await startReplicaFixture({ replicas: 'shared', heights: 5, subscriptions: [] });
  });
  after(async () => {
    await fixture?.close();
  });

  it('reads the primary, not the standby behind it', async () => {
    const [standby] = fixture.pg.replicaUrls as [string];
    await queryOnce(standby, 'SELECT pg_wal_replay_pause()');
    try {
      // the primary drops height 5 (not announced): the paused standby still holds it, the primary does not
      await deleteFrom(fixture.primary, 5);
      expect((await queryOnce(standby, 'SELECT height FROM key_blocks WHERE height = 5')).rows).to.have.length(1);
      const ws = new WebSocket(`${fixture.server.httpUrl.replace(/^http/, 'ws')}/mdw/v3/websocket`);
      const heights: number[] = [];
      ws.on('message', (data) => {
        const message = parseJson(String(data)) as {
          subscription?: string;
          source?: string;
          payload?: { [key: string]: Json };
        };
        // each key block comes from both sources: the middleware's own is enough
        if (message.subscription === 'KeyBlocks' && message.source === 'mdw')
          heights.push(Number(message.payload?.height));
      });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.send(JSON.stringify({ op: 'Subscribe', payload: 'KeyBlocks', from_height: 2 }));
      await waitFor('the replayed key blocks', () => Promise.resolve(heights.length >= 3), 20_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      ws.close();
      // a replay reading the standby would have sent height 5 too
      expect(heights).to.deep.equal([2, 3, 4]);
    } finally {
      await queryOnce(standby, 'SELECT pg_wal_replay_resume()');
    }
  });
});
