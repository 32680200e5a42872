import { expect } from 'chai';
import type { ApiContext } from '../../../src/api/http/state.ts';
import { aeHeight, isNodeApiPath } from '../../../src/api/http/middleware/ae-height.ts';

/** answer runs the middleware once on `path` and gives the X-Ae-Height it set (undefined: none). */
async function answer(mw: ReturnType<typeof aeHeight>, path: string): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  const ctx = { path, respond: undefined, set: (k: string, v: string) => (headers[k] = v) } as unknown as ApiContext;
  await mw(ctx, async () => {});
  return headers['X-Ae-Height'];
}

describe('X-Ae-Height', () => {
  it('isNodeApiPath: /v2 always, /v3 only where it is the node’s API', () => {
    expect(isNodeApiPath('/v2/status', false)).to.equal(true);
    expect(isNodeApiPath('/v3/status', false)).to.equal(false);
    expect(isNodeApiPath('/v3/status', true)).to.equal(true);
    expect(isNodeApiPath('/mdw/v3/status', true)).to.equal(false);
    expect(isNodeApiPath('/middleware/status', true)).to.equal(false);
  });

  it('waits only for the first top; later answers take the last one read while the database does not answer', async () => {
    let reads = 0;
    const tops: (() => Promise<number | undefined>)[] = [
      async () => undefined, // an empty database: no header, as the node without a top
      async () => 7,
      () => Promise.reject(new Error('database away')),
      () => new Promise(() => {}), // a database that never answers
    ];
    const mw = aeHeight({ top: () => tops[reads++]!(), nodeV3: false, ttlMs: 0 });
    expect(await answer(mw, '/v2/status')).to.equal(undefined);
    expect(await answer(mw, '/v2/status')).to.equal('7');
    expect(await answer(mw, '/v2/status')).to.equal('7');
    expect(await answer(mw, '/v2/status')).to.equal('7');
    expect(await answer(mw, '/mdw/v3/status')).to.equal(undefined);
    expect(reads).to.equal(4);
  });
});
