/** @module -v --full re-derives every derived row from the node and finds each corruption of one. */
import { expect } from 'chai';
import { idOfKey } from '../../../src/chain/id-key.ts';
import prom from 'prom-client';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';

describe('verify --full of derived rows (account index, fees, names, …)', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await startHarness(125, 'verify-derived');
    const populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
  });
  after(async () => {
    await h.close();
  });

  async function verify(opts: { heights?: number[] } = {}): Promise<{ lines: string[]; differences: number }> {
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: h.config(), log: silent, out: (l) => lines.push(l) },
      { ...opts, full: true },
    );
    return { lines, differences: report.differences };
  }

  it('finds nothing in a populated database: a re-derivation from the node equals what the populator wrote', async () => {
    expect(await verify()).to.deep.equal({ lines: [], differences: 0 });
    // and leaves no scratch schema behind
    const schemas = await h.query<{ n: string }>(
      'mdw',
      "SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name LIKE 'mdw_verify_%'",
    );
    expect(Number(schemas[0]!.n)).to.equal(0);
  });

  it('finds a fee changed at height 120', async () => {
    const changed = await h.query('mdw', 'UPDATE transactions SET fee = fee + 1 WHERE height = 120 RETURNING hash');
    expect(changed.length).to.be.greaterThan(0);
    try {
      const { lines, differences } = await verify();
      expect(differences).to.be.greaterThan(0);
      const inDb = lines.filter((l) => l.startsWith('derived transactions: row only in the database'));
      expect(inDb).to.have.length(Math.min(changed.length, 5));
      expect(inDb[0]).to.contain('"height":120');
      // a range that holds the height finds it too; one that does not, does not
      expect((await verify({ heights: [119, 120] })).differences).to.be.greaterThan(0);
      expect(await verify({ heights: [118, 119] })).to.deep.equal({ lines: [], differences: 0 });
    } finally {
      await h.query('mdw', 'UPDATE transactions SET fee = fee - 1 WHERE height = 120');
    }
  });

  it('finds one account-index row deleted', async () => {
    const [row] = await h.query<Record<string, unknown>>(
      'mdw',
      'DELETE FROM account_transactions WHERE ctid = (SELECT ctid FROM account_transactions WHERE height = 60 LIMIT 1) RETURNING *',
    );
    expect(row).to.not.equal(undefined);
    try {
      const { lines } = await verify();
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^derived account_transactions: row only re-derived from the node: /);
      // the id stored as its number (migration 1000) is shown as the id itself
      const [key] = await h.query<{ key: Buffer }>('mdw', 'SELECT key FROM account_ids WHERE num = $1', [row!.account]);
      expect(lines[0]).to.contain(`"height":60,`);
      expect(lines[0]).to.contain(`"account":"${idOfKey(key!.key)}"`);
    } finally {
      await h.query(
        'mdw',
        `INSERT INTO account_transactions (height, micro_index, tx_index, tx_type, account, fields)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row!.height, row!.micro_index, row!.tx_index, row!.tx_type, row!.account, row!.fields],
      );
    }
  });

  it("finds a name's owner changed", async () => {
    const [event] = await h.query<{ name_hash: string; owner: string }>(
      'mdw',
      `UPDATE name_events SET owner = 'ak_2QkttUgEyPixKzqXkJ4LX7ugbRjwCDWPBT4p4M2r8brjxUxUYd'
        WHERE (name_hash, height, micro_index, tx_index) = (SELECT name_hash, height, micro_index, tx_index FROM name_events ORDER BY height DESC LIMIT 1)
        RETURNING name_hash, owner`,
    );
    expect(event, 'the generated chain has a name').to.not.equal(undefined);
    const { lines } = await verify();
    expect(
      lines.some((l) => l.startsWith('derived name_events: row only in the database') && l.includes(event!.name_hash)),
    ).to.equal(true);
    expect(lines.some((l) => l.startsWith('derived name_state: row only in the database'))).to.equal(true);
  });
});
