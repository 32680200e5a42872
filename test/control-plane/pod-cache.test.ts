/** @module The node agent's pods as its watch tells them (pod-cache.ts): no cluster needed. */
import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { PodCache } from './pod-cache.ts';

const pod = (name: string, version: number, message = ''): V1Pod => ({
  metadata: { namespace: 'ns', name, resourceVersion: String(version) },
  status: { message },
});
const line = (type: string, object: V1Pod): string => `${JSON.stringify({ type, object })}\n`;
const held = (cache: PodCache): string[] =>
  cache.pods.map((p) => `${p.metadata?.name}@${p.metadata?.resourceVersion}${p.status?.message ?? ''}`);

describe("the node agent's pod cache", () => {
  it('holds the list, then each event of the stream, however the stream is cut (a character cut in two too)', () => {
    const cache = new PodCache();
    cache.reset([pod('a', 1), pod('b', 2)]);
    const stream = Buffer.from(
      line('MODIFIED', pod('a', 3, ' état')) + line('ADDED', pod('c', 4)) + line('DELETED', pod('b', 5)),
    );
    const cut = stream.indexOf(Buffer.from('é')) + 1; // inside the two bytes of é
    cache.feed(stream.subarray(0, cut));
    expect(held(cache)).to.deep.equal(['a@1', 'b@2']);
    cache.feed(stream.subarray(cut, cut + 40));
    cache.feed(stream.subarray(cut + 40));
    expect(held(cache)).to.deep.equal(['a@3 état', 'c@4']);
  });

  it("keeps the answer to the agent's own write over the watch's older event of the same pod", () => {
    const cache = new PodCache();
    cache.reset([pod('a', 1)]);
    cache.put(pod('a', 7, ' written'));
    cache.feed(Buffer.from(line('MODIFIED', pod('a', 6)) + line('DELETED', pod('a', 6))));
    expect(held(cache)).to.deep.equal(['a@7 written']);
    cache.feed(Buffer.from(line('MODIFIED', pod('a', 8))));
    expect(held(cache)).to.deep.equal(['a@8']);
  });

  it('ignores an ERROR line, drops a pod the agent deleted, and holds only the new list after a reset', () => {
    const cache = new PodCache();
    cache.reset([pod('a', 1), pod('b', 1)]);
    cache.feed(Buffer.from(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410 } })}\n`));
    cache.remove(pod('a', 1));
    expect(held(cache)).to.deep.equal(['b@1']);
    cache.feed(Buffer.from('{"type":"ADDED","object":{"metadata":{"namespace":"ns","name":"c"'));
    cache.reset([pod('d', 9)]);
    cache.feed(Buffer.from(line('ADDED', pod('e', 10))));
    expect(held(cache)).to.deep.equal(['d@9', 'e@10']);
  });
});
