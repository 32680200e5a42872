import { expect } from 'chai';
import { CopyPayloads, copyText } from '../../../src/db/writes/copy-in.ts';

describe('db/copy-in copyText', () => {
  it('writes NULL, numbers, booleans and text in COPY text format', () => {
    expect(copyText('int', null)).to.equal('\\N');
    expect(copyText('int', 42)).to.equal('42');
    expect(copyText('bigint', '1732000000000')).to.equal('1732000000000');
    expect(copyText('boolean', true)).to.equal('t');
    expect(copyText('boolean', false)).to.equal('f');
    expect(copyText('text', 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi')).to.equal(
      'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
    );
  });

  it('escapes backslashes, tabs and line breaks (JSON escapes included)', () => {
    expect(copyText('jsonb', '{"q":"a\\"b\\\\n"}')).to.equal('{"q":"a\\\\"b\\\\\\\\n"}');
    expect(copyText('text', 'a\tb\nc\rd')).to.equal('a\\tb\\nc\\rd');
  });

  it('writes space-joined words as an array literal, empty words left out', () => {
    expect(copyText('text[]', 'sender_id tx.recipient_id')).to.equal('{sender_id,tx.recipient_id}');
    expect(copyText('text[]', '')).to.equal('{}');
    expect(copyText('text[]', ' a  b ')).to.equal('{a,b}');
  });

  it('writes a bytea in hex with its backslash escaped, as the general escaping would', () => {
    const hex = '\\x01ff00';
    expect(copyText('bytea', hex)).to.equal('\\\\x01ff00');
    expect(copyText('bytea', hex)).to.equal(copyText('text', hex));
  });
});

describe('db/copy-in CopyPayloads', () => {
  const lines = Array.from({ length: 5000 }, (_, i) =>
    [i, i % 7 === 0 ? null : `ak_${i}\tæ€😀`, `{"n":${i},"s":"a\\"b"}`].map((v) => copyText('text', v)).join('\t'),
  );

  it('writes the lines as UTF-8, each ended by a line break, in payloads that end at a line', () => {
    const out = new CopyPayloads();
    for (const line of lines) out.line(line);
    const payloads = out.payloads();
    expect(payloads.length).to.be.greaterThan(1);
    for (const p of payloads) expect(p.at(-1)).to.equal(0x0a);
    expect(Buffer.concat(payloads).toString('utf8')).to.equal(lines.map((l) => `${l}\n`).join(''));
  });

  it('takes a line longer than a payload, and gives no payload for no lines', () => {
    const long = 'é'.repeat(100_000);
    const out = new CopyPayloads();
    out.line('1');
    out.line(long);
    out.line('2');
    expect(Buffer.concat(out.payloads()).toString('utf8')).to.equal(`1\n${long}\n2\n`);
    expect(new CopyPayloads().payloads()).to.deep.equal([]);
  });
});
