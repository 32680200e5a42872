/**
 * @module Issue 89 item 9 on a real PostgreSQL: a batch's transfers read its GA calls (a GA's own call's gas is part of
 * the generation's fees, a GAMetaTx's failed inner transaction's fee is not), so a batch that cannot derive the `ga`
 * area (the node's GA info not read) defers its transfers too, to the backfill that derives `ga` first; one that can
 * counts the GA's gas in its fees.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { withTransaction, type Pool } from '../../../src/db/connection/pool.ts';
import { deriveBatchAreas } from '../../../src/indexer/derived/derive-batch.ts';
import { DEFAULT_TRANSFER_RULES } from '../../../src/indexer/derived/internal-transfers.ts';
import type { GaInfoReader } from '../../../src/indexer/derived/ga-calls.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import { writeGenerations } from '../../../src/indexer/rows/writer.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

const id = (p: 'ak' | 'kh' | 'mh' | 'th' | 'sg'): string => encode(p, randomBytes(p === 'sg' ? 64 : 32));
const ga = id('ak');
const META_FEE = 100_000_000_000_000n;
const INNER_FEE = 20_000_000_000_000n;
const GAS_PRICE = 1_000_000_000n;
const AUTH_GAS = 3_000n;

/** a generation at `height` holding one GAMetaTx (its inner spend `INNER_FEE`) */
function gen(height: number): FetchedGeneration {
  const time = 1_700_000_000_000 + height * 180_000;
  const inner: JsonObject = {
    type: 'SpendTx',
    version: 1,
    sender_id: ga,
    recipient_id: id('ak'),
    amount: 1,
    fee: INNER_FEE,
    nonce: 0,
    payload: 'ba_Xfbg4g==',
  };
  const meta: JsonObject = {
    type: 'GAMetaTx',
    version: 2,
    ga_id: ga,
    auth_data: 'cb_KxFQ8g2+G59J',
    abi_version: 3,
    fee: META_FEE,
    gas: 5000,
    gas_price: GAS_PRICE,
    tx: { tx: inner, signatures: [] },
  };
  return {
    height,
    keyBlock: {
      hash: id('kh'),
      height,
      prev_hash: id('kh'),
      prev_key_hash: id('kh'),
      miner: id('ak'),
      beneficiary: id('ak'),
      nonce: 1,
      time,
      version: 6,
      target: 553713663,
    },
    microBlocks: [
      {
        header: { hash: id('mh'), height, time: time + 3000 },
        transactions: [{ tx: meta, hash: id('th'), signatures: [id('sg')] }],
      },
    ],
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

describe("a batch's transfers wait for its GA calls (issue 89 item 9)", () => {
  let db: { pool: Pool; drop(): Promise<void> };
  before(async () => {
    db = await createMigratedDatabase('mdw');
  });
  after(() => db.drop());

  /** derive writes generation `height` and derives its areas as a batch does, the node's GA info `info` (none: unread) */
  async function derive(height: number, info?: JsonObject): Promise<void> {
    const batch = [gen(height)].map(transformGeneration);
    const gaCalls: GaInfoReader = {
      transactionInfo: () => (info ? Promise.resolve({ info }) : Promise.reject(new Error('node down'))),
    };
    await withTransaction(db.pool, async (c) => {
      await writeGenerations(c, batch);
      await deriveBatchAreas(c, batch, { rules: DEFAULT_TRANSFER_RULES, gaCalls });
    });
  }
  const pendingAreas = async (): Promise<string[]> =>
    (await db.pool.query<{ area: string }>('SELECT area FROM derive_backfill ORDER BY area')).rows.map((r) => r.area);
  const fees = async (height: number): Promise<string[]> =>
    (
      await db.pool.query<{ fees: string }>('SELECT fees::text FROM generation_fees WHERE height = $1', [height])
    ).rows.map((r) => r.fees);

  it('counts the authentication gas, not the failed inner fee, where the GA info is read', async () => {
    await derive(1, { ga_info: { gas_used: Number(AUTH_GAS), return_type: 'error' } });
    const pending = await pendingAreas();
    expect(pending).to.not.include('ga');
    expect(pending).to.not.include('transfers');
    expect(await fees(1)).to.deep.equal([String(META_FEE + AUTH_GAS * GAS_PRICE)]);
  });

  it('defers the transfers with the ga area where the GA info cannot be read', async () => {
    await derive(2);
    expect(await pendingAreas()).to.include.members(['ga', 'transfers']);
    // no fees without the GA's gas: the backfill derives them after the GA calls
    expect(await fees(2)).to.deep.equal([]);
  });
});
