import { expect } from 'chai';
import { allocationSites, syscallCounts, type SamplingProfile } from '../../../bench/populator-traffic.lib.ts';

describe('bench/populator-traffic.lib', () => {
  it("sums a strace log's calls over the load window by name, and its writes by peer, split calls included", () => {
    const log = [
      '10 write(22<TCP:[127.0.0.1:40000->127.0.0.1:5432]>, "Q\\0\\0\\0002SEL"..., 51) = 51',
      '10 write(1</dev/null<char 1:3>>, "syncing\\n", 8) = 8',
      '10 write(22<TCP:[127.0.0.1:40000->127.0.0.1:5432]>, "Q\\0\\0\\0002SEL"..., 51) = 51',
      '10 writev(23<TCP:[127.0.0.1:40002->127.0.0.1:3013]>, [{iov_base="GET /v3/"..., iov_len=100}], 1 <unfinished ...>',
      '11 futex(0x7f, FUTEX_WAKE_PRIVATE, 1) = 1',
      '10 <... writev resumed>) = 100',
      '10 epoll_pwait(5<anon_inode:[eventpoll]>, [], 1024, 0, NULL, 8) = 0',
      '10 write(24<TCP:[127.0.0.1:40004->127.0.0.1:9999]>, ""..., 3) = 3',
      '10 write(1</dev/null<char 1:3>>, "{\\"second"..., 300) = 300',
      '10 write(22<TCP:[127.0.0.1:40000->127.0.0.1:5432]>, "X\\0\\0\\0\\4", 5) = 5',
    ].join('\n');
    const { byName, writes } = syscallCounts(log, { postgres: 5432, node: 3013 });
    // from the `syncing` line (itself counted) to the report's line
    expect(Object.fromEntries(byName)).to.deep.equal({ write: 3, writev: 1, futex: 1, epoll_pwait: 1 });
    expect(Object.fromEntries(writes)).to.deep.equal({
      '/dev/null': { calls: 1, bytes: 8 },
      postgres: { calls: 1, bytes: 51 },
      node: { calls: 1, bytes: 100 },
      'port 9999': { calls: 1, bytes: 3 },
    });
  });

  it("sums a sampling heap profile's bytes by site and package, a builtin's and Node's frames named before their caller's", () => {
    const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
    const profile: SamplingProfile = {
      head: {
        callFrame: frame('(root)', ''),
        selfSize: 0,
        children: [
          {
            callFrame: frame('decodeAt', 'file:///w/src/chain/rlp.ts', 92),
            selfSize: 100,
            children: [{ callFrame: frame('subarray', ''), selfSize: 300, children: [] }],
          },
          {
            callFrame: frame('onHeaders', 'file:///w/node_modules/undici/lib/dispatcher/client-h1.js', 9),
            selfSize: 0,
            children: [
              {
                callFrame: frame('FastBuffer', 'node:internal/buffer', 1),
                selfSize: 0,
                children: [{ callFrame: frame('Uint8Array', ''), selfSize: 50, children: [] }],
              },
            ],
          },
        ],
      },
    };
    expect(allocationSites(profile)).to.deep.equal({
      total: 450,
      sites: [
        ['subarray ← decodeAt src/chain/rlp.ts:93', 300],
        ['decodeAt src/chain/rlp.ts:93', 100],
        ['Uint8Array ← FastBuffer ← onHeaders undici/lib/dispatcher/client-h1.js:10', 50],
      ],
      packages: [
        ['src/chain', 400],
        ['undici', 50],
      ],
    });
  });
});
