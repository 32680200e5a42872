import { expect } from 'chai';
import { CopyPayloads, copyText } from '../../../src/db/writes/copy-in.ts';
import { Random } from '../../../src/devnode/random.ts';

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

describe('db/copy-in CopyPayloads value by value', () => {
  type Value = string | number | boolean | null;
  const random = new Random('copy-in values');
  const pieces = [
    'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
    'a',
    ' ',
    '\t',
    '\n',
    '\r',
    '\\',
    '\\x',
    'æ',
  ];
  const more = ['€', '😀', '\u0000', '\u0001', '\u007f', '\u0080', '"', '{"a":[1,2]}', 'x'.repeat(90), '\\N', '{', ','];
  const text = (): string => {
    const parts = random.int(0, random.chance(0.2) ? 40 : 6);
    let s = '';
    for (let i = 0; i < parts; i++) s += random.pick(random.chance(0.6) ? pieces : more);
    return s;
  };
  const numbers = [
    0,
    -0,
    1,
    9,
    10,
    99,
    100,
    -1,
    -10,
    2 ** 31,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
    2 ** 53,
    1e21,
    0.5,
    -1.5e-7,
  ];
  const value = (pgType: string): Value => {
    if (random.chance(0.1)) return null;
    if (pgType === 'int') return random.chance(0.5) ? random.pick(numbers) : random.int(-1e9, 1e9);
    if (pgType === 'boolean') return random.chance(0.5);
    if (pgType === 'bytea')
      return `\\x${Buffer.from(random.bigint(8 * random.int(1, 400)).toString(16)).toString('hex')}`;
    if (pgType === 'text[]') return random.pick(['', 'a b', ' a  b ', 'sender_id tx.recipient_id', 'x']);
    if (pgType === 'numeric' || pgType === 'bigint') return random.bigint(random.int(1, 300)).toString();
    return text();
  };
  const types = ['int', 'boolean', 'bytea', 'text[]', 'numeric', 'bigint', 'text', 'jsonb'];
  // one oracle: a line as copyText makes each value, joined by tabs (the lines the writer made before)
  const asLines = (rows: readonly [string, Value][][]): Buffer[] => {
    const out = new CopyPayloads();
    for (const row of rows) out.line(row.map(([t, v]) => copyText(t, v)).join('\t'));
    return out.payloads();
  };
  const byValue = (rows: readonly [string, Value][][], out = new CopyPayloads()): Buffer[] => {
    for (const row of rows) {
      for (const [t, v] of row) out.value(t, v);
      out.end();
    }
    return out.payloads();
  };

  it('writes the bytes copyText and the tabs give, for any values, in payloads that end at a line', () => {
    for (let round = 0; round < 40; round++) {
      const width = random.int(1, 12);
      const columns = Array.from({ length: width }, () => random.pick(types));
      const rows = Array.from({ length: random.int(0, 400) }, () =>
        columns.map((t) => [t, value(t)] as [string, Value]),
      );
      const payloads = byValue(rows);
      expect(Buffer.concat(payloads).equals(Buffer.concat(asLines(rows))), `round ${round}`).to.equal(true);
      for (const p of payloads) expect(p.at(-1)).to.equal(0x0a);
    }
  });

  it('moves a line that outgrows the buffer, whole, into the next payload, and serves tables in turn', () => {
    const out = new CopyPayloads();
    const long = (n: number): [string, Value][] => [
      ['int', n],
      ['text', `é\t${'y'.repeat(30_000)}`],
      ['jsonb', 'z'.repeat(50_000)],
    ];
    const first = Array.from({ length: 9 }, (_, i) => long(i));
    const payloads = byValue(first, out);
    expect(payloads.length).to.be.greaterThan(3);
    for (const p of payloads) expect(p.at(-1)).to.equal(0x0a);
    expect(Buffer.concat(payloads).equals(Buffer.concat(asLines(first)))).to.equal(true);
    const second: [string, Value][][] = [
      [
        ['int', 7],
        ['text', 'b'],
      ],
    ];
    expect(Buffer.concat(byValue(second, out)).toString()).to.equal('7\tb\n');
    expect(out.payloads()).to.deep.equal([]);
  });

  it('forgets, on discard, all it wrote since the last payloads, a line begun included', () => {
    const out = new CopyPayloads();
    byValue([[['int', 1]]], out);
    out.value('int', 2);
    out.value('text', 'half');
    out.discard();
    out.value('text', 'next');
    out.end();
    expect(Buffer.concat(out.payloads()).toString()).to.equal('next\n');
  });
});
