/**
 * @module docs/websocket.md's message table is the protocol src/events/protocol.ts speaks: every `op`, `payload`
 * and `target` kind it lists is accepted, every payload the server knows (both spellings) and every target kind is
 * listed.
 */
import { expect } from 'chai';
import { encode, type Prefix } from '../../../src/chain/encoding.ts';
import {
  OBJECT_PREFIXES,
  parseClientMessage,
  STREAM_KINDS,
  subscriptionName,
  type Kind,
} from '../../../src/events/protocol.ts';
import { codeSpans, readDoc, section, tableRows } from './markdown.ts';

describe('docs: the websocket messages (docs/websocket.md#messages)', () => {
  const rows = new Map(
    tableRows(section(readDoc('docs/websocket.md'), '## Messages')).map((r) => [r[0]!, codeSpans(r[1]!)]),
  );
  const ops = rows.get('`op`') ?? [];
  const payloads = rows.get('`payload`') ?? [];
  const prefixes = (rows.get('`target`') ?? []).filter((id) => /^[a-z]{2}_$/.test(id)).map((id) => id.slice(0, 2));
  const accepted = (message: object): boolean => parseClientMessage(JSON.stringify(message)).ok;

  it('lists every payload the server knows, in both spellings, and nothing else', () => {
    const kinds: Kind[] = [...STREAM_KINDS, 'object'];
    const known = kinds.flatMap((k) => [subscriptionName(k, 'snake'), subscriptionName(k, 'pascal')]);
    expect([...payloads].sort()).to.deep.equal(known.sort());
  });

  it('lists ops and payloads the server accepts', () => {
    const target = encode('ak', new Uint8Array(32));
    expect(ops).to.include.members(['subscribe', 'unsubscribe']);
    const refused = ops.flatMap((op) =>
      payloads.filter((payload) => !accepted({ op, payload, target })).map((payload) => `${op} ${payload}`),
    );
    expect(refused).to.deep.equal([]);
  });

  it('lists exactly the id kinds an object subscription may target', () => {
    expect([...prefixes].sort()).to.deep.equal([...OBJECT_PREFIXES].sort());
    const refused = prefixes.filter(
      (p) => !accepted({ op: 'subscribe', payload: 'object', target: encode(p as Prefix, new Uint8Array(32)) }),
    );
    expect(refused).to.deep.equal([]);
  });
});
