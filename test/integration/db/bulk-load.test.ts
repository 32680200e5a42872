/**
 * @module copyMany (db/writes/bulk-load.ts): the populator's COPY of the payloads it holds, through the COPY FROM a
 * snapshot's import streams with (schema/snapshot-copy.ts); what PostgreSQL then holds, and a COPY it refuses.
 */
import { expect } from 'chai';
import pino from 'pino';
import type { Socket } from 'node:net';
import type pg from 'pg';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { copyMany } from '../../../src/db/writes/bulk-load.ts';
import { CopyPayloads, copyText } from '../../../src/db/writes/copy-in.ts';
import { createTestDatabase } from '../../support/postgres.ts';

describe('copyMany against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  // a COPY runs on one client, as the writer's
  let client: pg.PoolClient;
  before(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, schema: 'public', max: 1 }, pino({ level: 'silent' }));
    client = await pool.connect();
    await client.query('CREATE TABLE loaded (n bigint PRIMARY KEY, t text)');
  });
  after(async () => {
    client?.release();
    await pool?.end();
    await db?.drop();
  });

  it('loads payloads of many CopyData messages row for row, big integers and escaped text exact', async () => {
    const out = new CopyPayloads();
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ n: `${2n ** 60n + BigInt(i)}`, t: `ak_${i}\t"x"\\` }));
    for (const r of rows) out.line(`${copyText('bigint', r.n)}\t${copyText('text', r.t)}`);
    const payloads = out.payloads();
    expect(payloads.length).to.be.above(3);
    await copyMany(client, 'loaded', ['n', 't'], payloads);
    const { rows: back } = await client.query<{ n: string; t: string }>('SELECT n::text, t FROM loaded ORDER BY n');
    expect(back).to.deep.equal(rows);
  });

  it('sends the statement, then every payload and the end of the data in one write (a system call each before)', async () => {
    const out = new CopyPayloads();
    for (let i = 0; i < 30_000; i++) out.line(`${copyText('bigint', String(100_000 + i))}\t${'x'.repeat(20)}`);
    const payloads = out.payloads();
    expect(payloads.length).to.be.above(3);
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    const writes: number[] = [];
    const { _write: one, _writev: many } = socket as unknown as Record<string, (...a: unknown[]) => unknown>;
    Object.assign(socket, {
      _write(...a: unknown[]) {
        writes.push(1);
        return one!.apply(socket, a);
      },
      _writev(chunks: unknown[], ...a: unknown[]) {
        writes.push(chunks.length);
        return many!.apply(socket, [chunks, ...a]);
      },
    });
    try {
      await copyMany(client, 'loaded', ['n', 't'], payloads);
    } finally {
      delete (socket as unknown as Record<string, unknown>)._write;
      delete (socket as unknown as Record<string, unknown>)._writev;
    }
    // the COPY statement, then a header and a payload per CopyData message and CopyDone
    expect(writes).to.deep.equal([1, 2 * payloads.length + 1]);
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM loaded WHERE n BETWEEN 100000 AND 129999',
    );
    expect(rows[0]!.n).to.equal(30_000);
  });

  it("rejects with PostgreSQL's error for a COPY it refuses, and the connection runs the next statement", async () => {
    const out = new CopyPayloads();
    out.line(`${copyText('bigint', '7')}\tfirst`);
    out.line(`${copyText('bigint', '7')}\tagain`);
    const err = await copyMany(client, 'loaded', ['n', 't'], out.payloads()).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(err?.code).to.equal('23505');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM loaded WHERE n = 7');
    expect(rows[0]!.n).to.equal(0);
  });
});
