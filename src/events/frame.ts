/**
 * @module Websocket text frames encoded once per event (RFC 6455 §5.2, server to client: FIN set,
 * unmasked), so fanning out to thousands of clients costs one socket write each and no per-client
 * framing. Pure.
 */

const FIN_TEXT = 0x81;

/** encodeTextFrame returns the complete wire frame carrying `text` as one text message. */
export function encodeTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const length = payload.length;
  let header: Buffer;
  if (length < 126) {
    header = Buffer.from([FIN_TEXT, length]);
  } else if (length < 0x10000) {
    header = Buffer.alloc(4);
    header[0] = FIN_TEXT;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = FIN_TEXT;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** decodeTextFrame reads back one unmasked text frame (for tests and diagnostics). */
export function decodeTextFrame(frame: Buffer): string {
  const { text, end } = readTextFrame(frame, 0);
  if (end !== frame.length) throw new Error(`frame length ${frame.length} does not match its header (${end})`);
  return text;
}

/** decodeTextFrames reads back consecutive unmasked text frames written as one buffer (for tests and diagnostics). */
export function decodeTextFrames(bytes: Buffer): string[] {
  const texts: string[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const { text, end } = readTextFrame(bytes, offset);
    texts.push(text);
    offset = end;
  }
  return texts;
}

function readTextFrame(bytes: Buffer, start: number): { text: string; end: number } {
  if (bytes[start] !== FIN_TEXT) throw new Error('not a single unfragmented text frame');
  const marker = bytes[start + 1]! & 0x7f;
  const offset = start + (marker < 126 ? 2 : marker === 126 ? 4 : 10);
  const length =
    marker < 126 ? marker : marker === 126 ? bytes.readUInt16BE(start + 2) : Number(bytes.readBigUInt64BE(start + 2));
  if (offset + length > bytes.length)
    throw new Error(
      `frame at ${start} does not match its header (${offset - start}+${length} bytes, ${bytes.length - start} left)`,
    );
  return { text: bytes.toString('utf8', offset, offset + length), end: offset + length };
}
