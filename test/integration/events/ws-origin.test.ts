/** @module The websocket's handshake under a restricted CORS_ORIGINS (issue 27.6): a page of another origin is refused. */
import { expect } from 'chai';
import prom from 'prom-client';
import { WebSocket } from 'ws';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { createEventsFixture, testConfig, type EventsFixture } from './ws-client.ts';

const SCHEMA = 'mdw_ws_origin';

/** handshake opens a socket with the given Origin header (none when undefined): the HTTP status it ended with. */
function handshake(url: string, origin: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}/v3/websocket`, origin === undefined ? {} : { origin });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

describe('websocket origins', () => {
  let fixture: EventsFixture;
  let restricted: Role & { url: string };
  let open: Role & { url: string };

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    const start = (corsOrigins: string) =>
      startWebsocketServer({
        cfg: testConfig(fixture.databaseUrl, SCHEMA, { CORS_ORIGINS: corsOrigins }),
        log: fixture.log,
        pool: fixture.pool,
        registry: new prom.Registry(),
      });
    restricted = await start('https://explorer.example');
    open = await start('*');
  });

  after(async () => {
    await restricted?.stop();
    await open?.stop();
    await fixture?.close();
  });

  it('refuses a page of an origin CORS_ORIGINS does not list with 403, and lets listed pages and non-browsers in', async () => {
    expect(await handshake(restricted.url, 'https://evil.example')).to.equal(403);
    expect(await handshake(restricted.url, 'https://explorer.example')).to.equal(101);
    expect(await handshake(restricted.url, undefined)).to.equal(101);
  });

  it('lets every origin in under CORS_ORIGINS=*', async () => {
    expect(await handshake(open.url, 'https://evil.example')).to.equal(101);
  });
});
