/**
 * @module Issue 44, item 7: a spend sent to a name is a transaction of the account the name pointed at in that block,
 * as ae_mdw indexes it, and never one of the name: the name's activities listed it (the explorer showed "Spend … N/A").
 * A stored chain loses the name's rows with migration 1012.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { innerTx } from '../../../src/chain/tx-fields.ts';
import type { Json } from '../../../src/chain/json.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { accountNumber } from '../../support/account-numbers.ts';
import { startV3, type ChainTx, type V3UnderTest } from './harness.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';

type Obj = { [key: string]: Json };

/** A spend to a name, with the account the name pointed at when it was sent. */
interface NamedSpend {
  readonly t: ChainTx;
  readonly name: string;
  readonly pointee: string;
  /** the field the name stands in (`tx.recipient_id` inside a GAMetaTx or PayingForTx) */
  readonly field: string;
}

/** namedSpends follows the names' account pointers through the node's own transactions, in chain order. */
function namedSpends(transactions: readonly ChainTx[]): NamedSpend[] {
  const pointers = new Map<string, string>();
  const spends: NamedSpend[] = [];
  for (const t of transactions) {
    let tx = t.signed.tx as Obj;
    let field = 'recipient_id';
    for (let inner = innerTx(tx); inner; inner = innerTx(tx)) {
      tx = inner;
      field = `tx.${field}`;
    }
    const name = String(tx.name_id ?? tx.recipient_id);
    if (tx.type === 'NameUpdateTx') {
      const pointer = (tx.pointers as Obj[]).find((p) => p.key === 'account_pubkey');
      if (pointer) pointers.set(name, String(pointer.id));
      else pointers.delete(name);
    }
    if (tx.type === 'NameRevokeTx') pointers.delete(name);
    if (tx.type === 'SpendTx' && name.startsWith('nm_')) spends.push({ t, name, pointee: pointers.get(name)!, field });
  }
  return spends;
}

describe('a spend sent to a name, as ae_mdw indexes it (issue 44)', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let spends: NamedSpend[];

  before(async () => {
    v3 = await startV3(120, 'v3-aex9', (devnode) => ({ DEX_WRAPPED_AE: wrappedAe(devnode.chain) }), {
      populatedOnce: true,
    });
    await v3.synced();
    spends = namedSpends((await v3.truth()).transactions);
  });
  after(() => v3?.close());

  const hashes = (items: Obj[]): string[] =>
    items.map((item) => String((item.payload as Obj | undefined)?.hash ?? item.hash));
  /** the name's activities (ae_mdw takes no name for /v3/transactions?account=) */
  const nameLists = async (name: string): Promise<string[]> =>
    hashes(await v3.walk(`/mdw/v3/accounts/${name}/activities?limit=100`));

  it("lists it under the account the name pointed at in that block, never under the name's own", async () => {
    expect(spends.length, 'spends to names in the chain').to.be.above(0);
    expect(new Set(spends.map((s) => s.pointee)).size, 'pointees').to.be.above(0);
    // each list walked once, however many spends were sent to its name or its account (nothing changes meanwhile)
    const walked = new Map<string, Promise<string[]>>();
    const once = (key: string, walk: () => Promise<string[]>): Promise<string[]> => {
      if (!walked.has(key)) walked.set(key, walk());
      return walked.get(key)!;
    };
    for (const { t, name, pointee } of spends) {
      expect(pointee, `${t.hash}: the name points at an account`).to.match(/^ak_/);
      expect(await once(name, () => nameLists(name)), name).not.to.include(t.hash);
      const pointees = once(pointee, async () =>
        hashes(await v3.walk(`/mdw/v3/transactions?account=${pointee}&type=spend&limit=100`)),
      );
      expect(await pointees, pointee).to.include(t.hash);
    }
  });

  it("takes a stored chain's rows of the name out (migration 1012), and nothing else", async () => {
    const rows = async (): Promise<unknown[]> =>
      (
        await v3.pool.query(
          'SELECT account, height, micro_index, tx_index, fields FROM account_transactions ORDER BY 1, 2, 3, 4',
        )
      ).rows;
    const indexed = await rows();
    // the rows the writer stored before: the spend under its name too
    for (const { t, name, field } of spends) {
      await v3.pool.query(
        'INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields) VALUES ($1, $2, $3, $4, $5, $6)',
        [
          await accountNumber(v3.pool, name),
          t.height,
          t.microIndex,
          t.txIndex,
          txTypeCode(String((t.signed.tx as Obj).type)),
          field,
        ],
      );
    }
    const [first] = spends;
    expect(await nameLists(first!.name)).to.include(first!.t.hash);
    await v3.pool.query(
      await readFile(new URL('../../../migrations/1012_name_recipients.sql', import.meta.url), 'utf8'),
    );
    expect(await rows()).to.deep.equal(indexed);
    expect(await nameLists(first!.name)).not.to.include(first!.t.hash);
  });
});
