/**
 * @module The writer's COPY payloads, written value by value, give every table's rows of a mainnet-like devnode chain
 * the bytes a line of copyText's values joined by tabs gave (the encoding before issue 88's own-cost work).
 */
import { expect } from 'chai';
import type { Devnode } from '../../../src/devnode/index.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { copyText } from '../../../src/db/writes/copy-in.ts';
import { fetchGenerations } from '../../../src/indexer/sync/fetch.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { ContractDecoder, createdContractCode } from '../../../src/indexer/contracts/contract-decoder.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import { copyPayloads, encodeRows, resolveRows } from '../../../src/indexer/rows/writer.ts';
import { TABLES, type IdNumbers } from '../../../src/indexer/rows/tables.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import type { ResolvedRows } from '../../../src/indexer/rows/rows.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { silent } from './support/harness.ts';

describe('indexer writer COPY encoding on a devnode chain', () => {
  let devnode: Devnode;
  let db: { pool: Pool; drop(): Promise<void> };
  let resolved: ResolvedRows;
  let direct: Awaited<ReturnType<typeof encodeRows>>;
  const ids = new Map<string, number>();
  const numbers: IdNumbers = {
    number: (id) => ids.get(id) ?? (ids.set(id, ids.size + 1), ids.size),
    typeCode: (type) => txTypeCode(type as never),
  };
  // the oracle: each row one line of copyText's values joined by tabs
  const asLines = <R>(columns: (typeof TABLES)[number]['columns'], rows: readonly R[]): Buffer =>
    Buffer.from(
      rows
        .map((row) => `${columns.map(([, type, value]) => copyText(type, value(row, numbers))).join('\t')}\n`)
        .join(''),
    );

  before(async function () {
    this.timeout(120_000);
    devnode = await startGeneratedDevnode({ generations: 60, seed: 'copy-encoding', profile: 'mainnet-like' });
    db = await createMigratedDatabase('mdw');
    const node = new NodeClient({ url: devnode.externalUrl, timeoutMs: 10_000 }, silent);
    const fetched = await fetchGenerations(
      node,
      Array.from({ length: 61 }, (_, i) => i),
      4,
    );
    const decoder = new ContractDecoder({ timeoutMs: 10_000, db: db.pool, node });
    const code = createdContractCode(fetched.flatMap((g) => g.microBlocks.flatMap((m) => m.transactions)));
    const gens = (await decoder.decodeCalls(fetched, code)).map(transformGeneration);
    resolved = await resolveRows(db.pool, gens);
    direct = await encodeRows(gens);
  });
  after(async () => {
    await db?.drop();
    await devnode?.stop();
  });

  it("gives every table's rows the bytes of the lines of copyText's values", () => {
    let tables = 0;
    for (const spec of TABLES) {
      const rows = spec.rows(resolved);
      if (rows.length > 0) tables++;
      const expected = asLines(spec.columns, rows);
      const payloads = copyPayloads(spec, rows, numbers);
      expect(Buffer.concat(payloads).equals(expected), spec.table).to.equal(true);
      for (const p of payloads) expect(p.at(-1), spec.table).to.equal(0x0a);
    }
    expect(tables, 'tables with rows').to.be.at.least(8);
    expect(resolved.transactions.length).to.be.greaterThan(500);
  });

  it('gives the batch encoded before the transaction the same bytes, each table in its own payloads', () => {
    const encoded = TABLES.filter((spec) => !spec.firstWins && !spec.needsState);
    expect([...direct.keys()]).to.deep.equal(encoded.map((spec) => spec.table));
    for (const spec of encoded)
      expect(
        Buffer.concat(direct.get(spec.table)!).equals(asLines(spec.columns, spec.rows(resolved))),
        spec.table,
      ).to.equal(true);
  });
});
