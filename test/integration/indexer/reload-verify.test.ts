/** @module -H reloads (sparse, range, into a new schema, atomic for readers, following replaced heights) and -v reports (clean, corrupted rows). */
import { expect } from 'chai';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';
import { populateToTop } from '../../support/populate.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { renderStoredTx, storedTxColumns } from '../../../src/chain/stored-tx.ts';

describe('reload (-H) and verify (-v)', function () {
  this.timeout(120_000); // a full verify also asks the node for the state at the top (issue 58)
  let h: Harness;
  const all = (): number[] => Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);

  before(async () => {
    h = await startHarness(20, 'reload-test');
  });
  after(async () => {
    await h.close();
  });

  async function verify(
    schema: string,
    opts: { heights?: number[]; full?: boolean },
  ): Promise<{ lines: string[]; checked: number; differences: number }> {
    const lines: string[] = [];
    // a full run loads its scratch schema in one batch (the reloads' are of 10 heights): a batch's steps paid once
    const cfg = h.config({ ...FULL_VERIFY_BATCH, DATABASE_SCHEMA: schema });
    const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, opts);
    return { lines, checked: report.checked, differences: report.differences };
  }

  it('reloads sparse heights into a new schema, and verify checks exactly those', async () => {
    const { reloaded } = await reloadHeights(
      { cfg: h.config({ DATABASE_SCHEMA: 'sparse' }), log: silent },
      [3, 7, 8, 9, 20],
    );
    expect(reloaded).to.equal(5);
    expect(
      (await h.query<{ height: number }>('sparse', 'SELECT height FROM key_blocks ORDER BY height')).map(
        (r) => r.height,
      ),
    ).to.deep.equal([3, 7, 8, 9, 20]);
    // the key blocks' count (migration 1069) is the heights stored, not the top's + 1: the status's heights not contiguous
    expect(await h.query('sparse', 'SELECT n::int FROM key_block_count')).to.deep.equal([{ n: 5 }]);
    expect(await verify('sparse', { full: true })).to.deep.equal({
      lines: [
        'derived areas not compared: heights 0-20 are not all stored (each derives from those below)',
        'derived rows not compared: heights 0-20 are not all stored (names and oracles derive from each)',
      ],
      checked: 5,
      differences: 0,
    });
    const listed = await verify('sparse', { heights: [3, 4] });
    expect(listed).to.deep.equal({ lines: ['height 4: not in the database'], checked: 2, differences: 1 });
  });

  it('fills the gaps of a sparse database when populating', async () => {
    await populateToTop(h.config({ DATABASE_SCHEMA: 'sparse' }));
    expect(await h.query('sparse', 'SELECT n::int FROM key_block_count')).to.deep.equal([
      { n: h.devnode.height() + 1 },
    ]);
    expect(await verify('sparse', { full: true })).to.deep.equal({
      lines: [],
      checked: h.devnode.height() + 1,
      differences: 0,
    });
  });

  it('detects a corrupted row, reports it on its own line, and a range reload repairs it', async () => {
    await reloadHeights({ cfg: h.config(), log: silent }, all());
    const [victim] = await h.query<{ hash: string; height: number; signed: Buffer }>(
      'mdw',
      'SELECT hash, height, signed FROM transactions ORDER BY height DESC, tx_index LIMIT 1',
    );
    // its fee forged in the stored transaction and in the fee column
    const { signatures, tx } = renderStoredTx(victim!.signed);
    const forged = storedTxColumns({ tx: { ...tx, fee: 1 }, ...(signatures === null ? {} : { signatures }) });
    await h.query('mdw', 'UPDATE transactions SET fee = 1, signed = $2 WHERE hash = $1', [
      victim!.hash,
      Buffer.from(forged.signed),
    ]);
    // the fee stored for the generation no longer follows from its stored transactions
    const feeLines = [
      'derived generation_fees: row only in the database',
      'derived generation_fees: row only re-derived from the stored rows',
    ];
    const plain = await verify('mdw', {});
    expect(plain.lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal(feeLines);
    expect(plain.lines[0]).to.contain(`"height":${victim!.height},`);
    const full = await verify('mdw', { full: true });
    // the stored transaction differs from the node's, and so does its row from the one re-derived from the node
    expect(full.lines).to.have.length(5);
    expect(full.lines[0]).to.equal(`height ${victim!.height}: transaction ${victim!.hash} content differs`);
    expect(full.lines.slice(1).map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
      ...feeLines,
      'derived transactions: row only in the database',
      'derived transactions: row only re-derived from the node',
    ]);
    expect(full.differences).to.equal(5);
    await h.query('mdw', 'DELETE FROM transactions WHERE hash = $1', [victim!.hash]);
    const counted = await verify('mdw', { heights: [victim!.height] });
    expect(counted.differences).to.be.greaterThan(0);
    expect(counted.lines.join('\n')).to.contain('transaction count differs');
    await reloadHeights({ cfg: h.config(), log: silent }, [victim!.height - 1, victim!.height]);
    expect(await verify('mdw', { full: true })).to.include({ differences: 0 });
  });

  it("finds a kept count (migrations 1015, 1069), an oracle's kept expiry (1069), an AEX-9 balance after an event (1050) and a channel's totals (1051) that are not their rows' recount; the reloads before kept them exact", async () => {
    // every reload of the tests above deleted and wrote heights again: the counts followed them (the -v --full that
    // closes the test above, over this same state, compared them clean)
    const [kept] = await h.query<{ account: number; n: string }>(
      'mdw',
      'SELECT account, sum(n)::text AS n FROM account_tx_counts GROUP BY 1 ORDER BY sum(n) DESC, account LIMIT 1',
    );
    const [recount] = await h.query<{ n: string }>(
      'mdw',
      'SELECT count(*)::text AS n FROM account_transactions WHERE account = $1',
      [kept!.account],
    );
    expect(recount!.n).to.equal(kept!.n);
    const [balance] = await h.query<{ contract_id: string; account: string; height: number }>(
      'mdw',
      'SELECT contract_id, account, height FROM aex9_event_balances ORDER BY height DESC LIMIT 1',
    );
    const [channel] = await h.query<{ channel_id: string }>(
      'mdw',
      'SELECT channel_id FROM channel_totals ORDER BY updates DESC, channel_id LIMIT 1',
    );
    const [oracle] = await h.query<{ oracle_id: string }>(
      'mdw',
      'SELECT min(oracle_id) AS oracle_id FROM oracle_expiries',
    );
    expect(oracle?.oracle_id, 'an oracle').to.be.a('string');
    expect(balance, 'an AEX-9 event').to.not.equal(undefined);
    expect(channel, 'a channel').to.not.equal(undefined);
    const plant = async (by: number): Promise<void> => {
      await h.query('mdw', 'UPDATE account_tx_counts SET n = n + $2 WHERE account = $1', [kept!.account, by]);
      await h.query('mdw', 'UPDATE tx_type_totals SET size = size - $1', [by]);
      await h.query('mdw', 'UPDATE key_block_count SET n = n + $1', [by]);
      await h.query('mdw', 'UPDATE oracle_expiries SET expires_at = expires_at + $2 WHERE oracle_id = $1', [
        oracle!.oracle_id,
        by,
      ]);
      await h.query(
        'mdw',
        'UPDATE aex9_event_balances SET balance = balance + $4 WHERE contract_id = $1 AND account = $2 AND height = $3',
        [balance!.contract_id, balance!.account, balance!.height, by],
      );
      await h.query('mdw', 'UPDATE channel_totals SET deposited = deposited + $2 WHERE channel_id = $1', [
        channel!.channel_id,
        by,
      ]);
    };
    // one pass finds each
    await plant(1);
    try {
      const { lines } = await verify('mdw', {});
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.include.members([
        'derived account_tx_counts: row only in the database',
        'derived account_tx_counts: row only re-derived from the stored rows',
        'derived tx_type_totals: row only in the database',
        'derived tx_type_totals: row only re-derived from the stored rows',
        'derived key_block_count: row only in the database',
        'derived key_block_count: row only re-derived from the stored rows',
        'derived oracle_expiries: row only in the database',
        'derived oracle_expiries: row only re-derived from the stored rows',
        'derived aex9_event_balances: row only in the database',
        'derived aex9_event_balances: row only re-derived from the stored rows',
        'derived channel_totals: row only in the database',
        'derived channel_totals: row only re-derived from the stored rows',
      ]);
      expect(lines.join('\n')).to.contain(`"channel_id":"${channel!.channel_id}"`);
    } finally {
      await plant(-1);
    }
    // restored: the next test's -v, over this same state, lists its own plant's lines and no other
  });

  it("finds a pair of a sender and a recipient (migration 1077) that is not the account rows' join", async () => {
    const pairs = 'SELECT sender, recipient, height, micro_index, tx_index FROM account_pairs ORDER BY 1, 2, 3, 4, 5';
    const written = await h.query('mdw', pairs);
    expect(written.length, 'spends').to.be.above(5);
    // a pair's recipient another id: the pair written is missing, the one made up is extra
    const moved = `UPDATE account_pairs p SET recipient = p.recipient + $1
       FROM (SELECT * FROM account_pairs WHERE sender <> recipient ORDER BY height, micro_index, tx_index LIMIT 1) o
      WHERE (p.sender, p.height, p.micro_index, p.tx_index) = (o.sender, o.height, o.micro_index, o.tx_index)`;
    await h.query('mdw', moved, [8]);
    try {
      const { lines } = await verify('mdw', {});
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
        'derived account_pairs: row only in the database',
        'derived account_pairs: row only re-derived from the stored rows',
      ]);
    } finally {
      await h.query('mdw', moved, [-8]);
    }
    expect(await h.query('mdw', pairs)).to.deep.equal(written);
    // restored: the next test's -v, over this same state, lists its own plant's lines and no other
  });

  it("finds a generation's first txi (what txis and a scope's count read) that is not its micro blocks' recount", async () => {
    const [row] = await h.query<{ height: number }>(
      'mdw',
      'SELECT height FROM generation_txis WHERE first_txi > 0 ORDER BY height LIMIT 1',
    );
    await h.query('mdw', 'UPDATE generation_txis SET first_txi = first_txi + 1 WHERE height = $1', [row!.height]);
    try {
      const { lines } = await verify('mdw', {});
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
        'derived generation_txis: row only in the database',
        'derived generation_txis: row only re-derived from the stored rows',
      ]);
      expect(lines[0]).to.contain(`"height":${row!.height},`);
    } finally {
      await h.query('mdw', 'UPDATE generation_txis SET first_txi = first_txi - 1 WHERE height = $1', [row!.height]);
    }
    // restored: the next test's -v, over this same state, lists its own plant's lines and no other
  });

  it("finds the active names' edges, their spans and a generation's size below (migrations 1045, 1046, 1060) that are not a recount", async () => {
    // clean before: the test above restored what it planted (a difference left would be among the lines below)
    const [edge] = await h.query<{ height: number }>(
      'mdw',
      "SELECT height FROM name_count_edges WHERE owner = '' ORDER BY height LIMIT 1",
    );
    const [gen] = await h.query<{ height: number }>(
      'mdw',
      'SELECT height FROM generation_txis WHERE size_before > 0 ORDER BY height LIMIT 1',
    );
    await h.query('mdw', "UPDATE name_count_edges SET expiring = expiring + 1 WHERE owner = '' AND height = $1", [
      edge!.height,
    ]);
    await h.query('mdw', 'UPDATE generation_txis SET size_before = size_before - 1 WHERE height = $1', [gen!.height]);
    try {
      const { lines } = await verify('mdw', {});
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
        'derived name_count_edges: row only in the database',
        'derived name_count_edges: row only re-derived from the stored rows',
        // the edge's change reaches its spans (1060's trigger), which a recount of the names does not give either
        'derived name_count_spans: row only in the database',
        'derived name_count_spans: row only in the database',
        'derived name_count_spans: row only re-derived from the stored rows',
        'derived name_count_spans: row only re-derived from the stored rows',
        'derived generation_txis: row only in the database',
        'derived generation_txis: row only re-derived from the stored rows',
      ]);
      expect(lines[6]).to.contain(`"height":${gen!.height},`);
    } finally {
      await h.query('mdw', "UPDATE name_count_edges SET expiring = expiring - 1 WHERE owner = '' AND height = $1", [
        edge!.height,
      ]);
      await h.query('mdw', 'UPDATE generation_txis SET size_before = size_before + 1 WHERE height = $1', [gen!.height]);
    }
    // restored: the next test's -v, over this same state, lists its own plant's lines and no other
  });

  it('finds a name pointing at an id (migration 1062) that its current pointers do not hold, and one missing', async () => {
    // clean before: the test above restored what it planted (a difference left would be among the lines below)
    const [row] = await h.query<{ id: string; name: string }>(
      'mdw',
      'SELECT id, name FROM name_pointees ORDER BY id, name LIMIT 1',
    );
    expect(row, 'a name with pointers').to.not.equal(undefined);
    // the row moved to an id its name does not point at
    await h.query('mdw', "UPDATE name_pointees SET id = 'ak_pointed_at_by_nothing' WHERE id = $1 AND name = $2", [
      row!.id,
      row!.name,
    ]);
    try {
      const { lines } = await verify('mdw', {});
      expect(lines.map((l) => l.replace(/: \{.*/, ''))).to.deep.equal([
        'derived name_pointees: row only in the database',
        'derived name_pointees: row only re-derived from the stored rows',
      ]);
      expect(lines[0]).to.contain('ak_pointed_at_by_nothing');
      expect(lines[1]).to.contain(row!.id);
    } finally {
      await h.query('mdw', "UPDATE name_pointees SET id = $1 WHERE id = 'ak_pointed_at_by_nothing' AND name = $2", [
        row!.id,
        row!.name,
      ]);
    }
    // restored: the next test's -v, over this same state, lists its own plant's lines and no other
  });

  it('finds the spends of a height and day, and of a day (migration 1061), that are not the stored spends decoded', async () => {
    // clean before: the test above restored what it planted (a difference left would be among the lines below)
    const [row] = await h.query<{ height: number; day: number }>(
      'mdw',
      'SELECT height, day FROM spend_heights ORDER BY height DESC LIMIT 1',
    );
    expect(row, 'a height with spends').to.not.equal(undefined);
    const lines = async (): Promise<string[]> => (await verify('mdw', {})).lines.map((l) => l.replace(/: \{.*/, ''));
    // a height's row (its day's total follows by the trigger): both differ from the decoded spends
    const plantHeight = (by: number): Promise<unknown> =>
      h.query('mdw', 'UPDATE spend_heights SET amount = amount + $3 WHERE height = $1 AND day = $2', [
        row!.height,
        row!.day,
        by,
      ]);
    await plantHeight(1);
    try {
      expect(await lines()).to.deep.equal([
        'derived spend_heights: row only in the database',
        'derived spend_heights: row only re-derived from the stored rows',
        'derived spend_days: row only in the database',
        'derived spend_days: row only re-derived from the stored rows',
      ]);
    } finally {
      await plantHeight(-1);
    }
    // a day's total alone
    const plantDay = (by: number): Promise<unknown> =>
      h.query('mdw', 'UPDATE spend_days SET count = count + $2 WHERE day = $1', [row!.day, by]);
    await plantDay(1);
    try {
      const found = await lines();
      expect(found).to.deep.equal([
        'derived spend_days: row only in the database',
        'derived spend_days: row only re-derived from the stored rows',
      ]);
    } finally {
      await plantDay(-1);
    }
    expect(await verify('mdw', {})).to.include({ differences: 0 });
  });

  it('keeps every height visible to readers while it is being reloaded', async () => {
    const expected = h.devnode.height() + 1;
    let reloading = true;
    const seen: number[] = [];
    const reader = (async () => {
      while (reloading)
        seen.push((await h.query<{ n: number }>('mdw', 'SELECT count(*)::int AS n FROM key_blocks'))[0]!.n);
    })();
    // batches of at most 3 heights, cut sooner at 4 transactions
    const { reloaded } = await reloadHeights(
      { cfg: h.config({ BATCH_SIZE: '3', BATCH_TRANSACTIONS: '4' }), log: silent },
      all(),
    );
    reloading = false;
    await reader;
    expect(reloaded).to.equal(expected);
    expect(seen.length).to.be.greaterThan(3);
    expect(seen.every((n) => n === expected)).to.equal(true);
    expect(await verify('mdw', { full: true })).to.include({ differences: 0 });
  });

  it('refuses heights the node does not have with a clear error', async () => {
    try {
      await reloadHeights({ cfg: h.config(), log: silent }, [h.devnode.height() + 5]);
      expect.fail('expected a failure');
    } catch (err) {
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).code).to.equal(ErrorCode.CLI_BAD_HEIGHTS);
      expect((err as AppError).message).to.match(/node has no generation/);
    }
  });

  it('reloads every stored height above a height the node replaced, and only then', async () => {
    expect(await reloadHeights({ cfg: h.config(), log: silent }, [5, 6])).to.deep.equal({
      reloaded: 2,
      rederived: 0,
      callInfoPruned: 0,
    });
    await h.devnode.fork(3);
    const top = h.devnode.height();
    // only the lowest replaced height is listed: the two stored above it are stale and follow
    expect(await reloadHeights({ cfg: h.config(), log: silent }, [top - 2])).to.deep.equal({
      reloaded: 1,
      rederived: 2,
      callInfoPruned: 0,
    });
    expect(await verify('mdw', { full: true })).to.include({ differences: 0 });
    // listed in full and in order, nothing is left to follow
    await h.devnode.fork(3);
    expect(await reloadHeights({ cfg: h.config(), log: silent }, [top - 2, top - 1, top])).to.deep.equal({
      reloaded: 3,
      rederived: 0,
      callInfoPruned: 0,
    });
    expect(await verify('mdw', { full: true })).to.include({ differences: 0 });
  });
});
