/**
 * @module /readyz's judgement of a ping too slow to answer (issue 41): under a burst the ping's rows wait for their
 * turn behind the pages rendered before them, and a loaded server was taken out of service once per burst. A slow
 * ping while requests wait for their turns is busy; a slow ping on an idle server, or a ping that fails, is not ready.
 */
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readiness } from '../../../src/api/http/readiness.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { silentLog } from './harness.ts';

describe('/readyz with a ping too slow to answer (issue 41)', function () {
  this.timeout(60_000);
  // a database that takes the connection and never answers: every ping outlasts readiness's bound
  const sockets: Socket[] = [];
  let stalled: Server;
  let slowPool: Pool;
  before(async () => {
    stalled = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as AddressInfo;
    slowPool = createPool({ databaseUrl: `postgres://mdw:x@127.0.0.1:${port}/mdw`, schema: 'public' }, silentLog);
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    stalled.close();
    await slowPool.end().catch(() => {});
  });

  it('is busy while requests wait for their turns, and not ready on an idle server', async () => {
    expect(await readiness(slowPool, undefined, undefined, () => true)).to.deep.equal({ ready: true, busy: true });
    expect(await readiness(slowPool, undefined, undefined, () => false)).to.deep.equal({
      ready: false,
      reason: 'database unreachable',
    });
  });

  it('is not ready when the ping fails, however loaded the server', async () => {
    const database = await deadEnd();
    const refused = createPool(
      { databaseUrl: `postgres://mdw:x@127.0.0.1:${database.port}/mdw`, schema: 'public' },
      silentLog,
    );
    try {
      expect(await readiness(refused, undefined, undefined, () => true)).to.deep.equal({
        ready: false,
        reason: 'database unreachable',
      });
    } finally {
      await refused.end();
      await database.close();
    }
  });
});
