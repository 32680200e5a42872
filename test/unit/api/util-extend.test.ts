/**
 * @module A server forwarding to the node prints no deprecation warning of Node's (DEP0060, util._extend, which
 * http-proxy 1.18 calls on every forwarded request): checked in a process of its own, where Node warns once.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const PROXY = new URL('../../../src/api/http/proxy.ts', import.meta.url).href;

describe('util._extend under http-proxy', () => {
  it('copies as Node did, without the deprecation warning, once proxy.ts is loaded', async () => {
    const script = `
      await import(${JSON.stringify(PROXY)});
      const util = (await import('node:util')).default;
      const common = (await import('node:module')).createRequire(import.meta.url)('http-proxy/lib/http-proxy/common');
      const target = { a: 1 };
      const out = util._extend(target, { b: 2n, c: undefined });
      console.log(JSON.stringify({ same: out === target, keys: Object.keys(out), b: String(out.b), none: util._extend(target, null) === target }));
      // http-proxy's own copy of an outgoing request's options, as it does per forwarded request
      common.setupOutgoing({}, { target: new URL('http://node.example:3013/v2') }, { method: 'GET', url: '/status', headers: {} });
    `;
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('../../../', import.meta.url).pathname,
    });
    expect(JSON.parse(stdout)).to.deep.equal({ same: true, keys: ['a', 'b', 'c'], b: '2', none: true });
    expect(stderr).to.not.match(/DEP0060|util\._extend/);
  });
});
