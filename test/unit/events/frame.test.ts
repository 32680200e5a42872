/** @module Tests of the pre-encoded websocket text frames against the ws library's own encoder. */
import { expect } from 'chai';
import * as wsModule from 'ws';
import { decodeTextFrame, decodeTextFrames, encodeTextFrame } from '../../../src/events/frame.ts';

// ws's own encoder (exported at run time, not in its typings) is the reference our frames must equal.
const { Sender } = wsModule as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } };

function wsFrame(text: string): Buffer {
  return Buffer.concat(
    Sender.frame(Buffer.from(text), { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false }),
  );
}

describe('encodeTextFrame', () => {
  for (const length of [0, 1, 125, 126, 127, 65535, 65536, 200_000]) {
    it(`encodes a ${length}-byte message exactly as ws does`, () => {
      const text = 'x'.repeat(length);
      const frame = encodeTextFrame(text);
      expect(frame.equals(wsFrame(text))).to.equal(true);
      expect(decodeTextFrame(frame)).to.equal(text);
    });
  }

  it('counts UTF-8 bytes, not characters', () => {
    const text = 'æternity ✓'.repeat(20);
    expect(encodeTextFrame(text).equals(wsFrame(text))).to.equal(true);
  });

  it('refuses to decode a frame whose length disagrees with its header', () => {
    expect(() => decodeTextFrame(encodeTextFrame('abc').subarray(0, 4))).to.throw(/does not match/);
  });

  it('reads back consecutive frames joined in one buffer, and refuses a truncated last one', () => {
    const texts = ['a', 'x'.repeat(300), '', 'y'.repeat(70_000)];
    const joined = Buffer.concat(texts.map(encodeTextFrame));
    expect(decodeTextFrames(joined)).to.deep.equal(texts);
    expect(() => decodeTextFrames(joined.subarray(0, joined.length - 1))).to.throw(/does not match/);
  });
});
