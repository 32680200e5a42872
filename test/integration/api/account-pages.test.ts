import { expect } from 'chai';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { FROM_OLDEST_MIN_OFFSET } from '../../../src/api/legacy/account-pages.ts';
import { jsonArrayText } from '../../../src/api/http/route-deps.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import {
  ANCHOR_EVERY,
  finalRowsOfAccount,
  transactionsOfAccount,
} from '../../../src/db/queries/account-transactions.ts';
import { id, TOP } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';
import { accountNumber } from '../../support/account-numbers.ts';
import { storedTxJsonSql } from '../../support/stored-tx.ts';
import { plainGet } from '../../support/app-request.ts';

const HEAVY = id('ak', 'heavy');
/** enough rows for a few kept positions (one every ANCHOR_EVERY) */
const ROWS = 2 * ANCHOR_EVERY + 2600;
/** rows spread over heights 1..SPREAD: those up to TOP - FORK_WINDOW (30) are final, the others newer */
const SPREAD = 50;

describe('account transaction pages read from the oldest end, from kept positions (real PostgreSQL)', () => {
  let api: ApiUnderTest;
  let cache: ResponseCache;
  before(async () => {
    cache = new ResponseCache({ maxBytes: 1024 * 1024 });
    api = await startApi({ responseCache: cache });
    await addRows(0, ROWS);
  });
  after(async () => {
    await api.close();
  });

  /** addRows gives HEAVY rows number from..to-1: every third a ContractCallTx, in positions no fixture transaction uses. */
  const addRows = async (from: number, to: number, height?: number): Promise<void> => {
    const heightOf = height === undefined ? `1 + i % ${SPREAD}` : String(height);
    const type = "CASE WHEN i % 3 = 0 THEN 'ContractCallTx' ELSE 'SpendTx' END";
    const typeCode = `CASE WHEN i % 3 = 0 THEN ${txTypeCode('ContractCallTx')} ELSE ${txTypeCode('SpendTx')} END`;
    await api.pool.query(
      `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, signed, size)
       SELECT 'th_heavy' || i, ${heightOf}, 1000, i, 0, ${typeCode}, 1,
              ${storedTxJsonSql("ARRAY['sg_heavy']", `jsonb_build_object('type', ${type}, 'nonce', i)`)}, 100
         FROM generate_series($1::int, $2::int - 1) AS i`,
      [from, to],
    );
    await api.pool.query(
      `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields)
       SELECT $3, ${heightOf}, 1000, i, ${typeCode}, 'sender_id' FROM generate_series($1::int, $2::int - 1) AS i`,
      [from, to, await accountNumber(api.pool, HEAVY)],
    );
  };
  /**
   * pageText is one page's answer text, its status 200: over node:http (plainGet), as the cases compare ~600 pages'
   * texts, where supertest also parsed each and gzip encoded it
   */
  const pageText = async (query: string): Promise<string> => {
    const { status, text } = await plainGet(`${api.url}/middleware/transactions/account/${HEAVY}?${query}`);
    expect(status, `${query}: ${text}`).to.equal(200);
    return text;
  };
  /** expectPagesEqualScan checks pages through the API against the plain scan from the newest end. */
  const expectPagesEqualScan = async (limit: number, pages: number[], txType?: string): Promise<void> => {
    for (const page of pages) {
      const query = `limit=${limit}&page=${page}${txType ? `&txtype=${txType}` : ''}`;
      const text = await pageText(query);
      const scanned = await transactionsOfAccount(api.pool, HEAVY, txType, { limit, offset: (page - 1) * limit });
      expect(text, query).to.equal(jsonArrayText(scanned));
    }
  };
  const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('every page, the last partial one and those beyond the end equal the scan from the newest end', async () => {
    await expectPagesEqualScan(100, range(1, Math.ceil(ROWS / 100) + 2));
    // limit 7: the page's start from the oldest end crosses kept positions near pages 371 and 1086
    await expectPagesEqualScan(7, [143, 144, 370, 371, 372, 373, 1084, 1085, 1086, 1087, 1088, 1799, 1800, 1801]);
    // The deep pages did go through the kept count: it is in the cache.
    expect(cache.stats().entries).to.equal(1);
  });

  it('keeps the final count and every ANCHOR_EVERY-th position from the oldest end', async () => {
    const final = (await finalRowsOfAccount(api.pool, HEAVY, undefined, 30))!;
    const { rows } = await api.pool.query<{ height: number; micro_index: number; tx_index: number }>(
      'SELECT height, micro_index, tx_index FROM account_transactions WHERE account = $1 AND height <= $2 ORDER BY height, micro_index, tx_index',
      [await accountNumber(api.pool, HEAVY), final.height],
    );
    expect(final.height).to.equal(TOP - 30);
    expect(final.count).to.equal(rows.length);
    const kept = rows.filter((_, i) => i > 0 && i % ANCHOR_EVERY === 0);
    expect(kept).to.have.length.greaterThan(0);
    expect(final.anchorHeights).to.deep.equal(kept.map((r) => r.height));
    expect(final.anchorMicroIndexes).to.deep.equal(kept.map((r) => r.micro_index));
    expect(final.anchorTxIndexes).to.deep.equal(kept.map((r) => r.tx_index));
  });

  it('the pages of one transaction type equal the scan too', async () => {
    await expectPagesEqualScan(30, range(30, Math.ceil(ROWS / 3 / 30) + 1), 'ContractCallTx');
    await expectPagesEqualScan(100, range(10, Math.ceil((ROWS * 2) / 3 / 100) + 1), 'SpendTx');
  });

  it('the whole list read page by page is the full list, newest first, without gaps or repeats', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(ROWS / 1000); page++) {
      pages.push(await pageText(`limit=1000&page=${page}`));
    }
    const hashes = pages.flatMap((p) => (JSON.parse(p) as { hash: string }[]).map((t) => t.hash));
    expect(hashes).to.have.length(ROWS);
    expect(new Set(hashes).size).to.equal(ROWS);
    const position = (h: string): number => {
      const i = Number(h.slice('th_heavy'.length));
      return (1 + (i % SPREAD)) * 1e6 + i;
    };
    expect(hashes.map(position)).to.deep.equal(hashes.map(position).sort((a, b) => b - a));
  });

  it('rows added above the final heights after the count and positions were kept are counted with each page', async () => {
    await expectPagesEqualScan(100, [20]); // keeps the count
    await addRows(ROWS, ROWS + 150, TOP - 1);
    await expectPagesEqualScan(100, [...range(20, 35), ...range(70, 85), 128, 129]);
    await api.pool.query('DELETE FROM account_transactions WHERE account = $1 AND height = $2', [
      await accountNumber(api.pool, HEAVY),
      TOP - 1,
    ]);
  });

  it('a rollback below the final heights drops the kept count and positions, so pages stay exact', async () => {
    await expectPagesEqualScan(100, [20]);
    await api.pool.query('DELETE FROM account_transactions WHERE account = $1 AND height = 3 AND tx_index % 2 = 0', [
      await accountNumber(api.pool, HEAVY),
    ]);
    cache.invalidateFrom(3); // what the invalidation does on the populator's rollback notification
    expect(cache.stats().entries).to.equal(0);
    await expectPagesEqualScan(100, [...range(20, 35), ...range(70, 85), 126, 127]);
  });

  it('pages before FROM_OLDEST_MIN_OFFSET and cursor pages never need the count', async () => {
    cache.clear();
    await expectPagesEqualScan(FROM_OLDEST_MIN_OFFSET / 10, [1, 10]);
    expect(cache.stats().entries).to.equal(0);
  });
});
