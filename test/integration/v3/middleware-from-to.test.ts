/**
 * @module `/middleware/transactions/account/{sender}/to/{receiver}` against the devnode's chain (issue 57 made its page
 * read the pair's rows, migration 1077): for an account that pays itself, the hot account that never does
 * (hundreds of rows of other types), two accounts both ways, the hot account against a quiet one both ways, an
 * inner spend's ends and a spend to a name's, every page is what the node's transactions say, and byte for byte what
 * the statement before it answered (kept here as the second oracle).
 */
import { expect } from 'chai';
import { produceNameId } from '@aeternity/aepp-sdk';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { idKey } from '../../../src/chain/id-key.ts';
import { jsonArrayText } from '../../../src/api/http/route-deps.ts';
import { renderedTxJson, SIGNED_TX_JSON_COLUMNS, type TxJson } from '../../../src/db/queries/transactions.ts';
import { hotSpotKeys } from '../../../src/devnode/traffic/hot-spots.ts';
import { mdwLink, startV3, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

const SEED = 'from-to';
const LIMIT = 3;

/** The statement of the route before issue 57's cure, verbatim but for its helpers' SQL written out. */
const BEFORE = `WITH page AS (
       SELECT s.height, s.micro_index, s.tx_index FROM account_transactions s
         JOIN account_transactions r ON r.account = (SELECT num FROM account_ids WHERE key = $2) AND r.height = s.height
          AND r.micro_index = s.micro_index AND r.tx_index = s.tx_index AND r.fields ~ '(^| )(recipient_id|tx\\.recipient_id)( |$)'
        WHERE s.account = (SELECT num FROM account_ids WHERE key = $1) AND s.fields ~ '(^| )(sender_id|tx\\.sender_id)( |$)'
        ORDER BY s.height DESC, s.micro_index DESC, s.tx_index DESC LIMIT $3 OFFSET $4)
     SELECT ${SIGNED_TX_JSON_COLUMNS} FROM page p
       JOIN transactions t ON t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index
     ORDER BY t.height DESC, t.micro_index DESC, t.tx_index DESC`;

/** The levels of a signed transaction the route reads: the outer one, and the one a GAMetaTx or PayingForTx wraps. */
function levels(signed: Obj): Obj[] {
  const tx = signed.tx as Obj;
  return tx.type === 'GAMetaTx' || tx.type === 'PayingForTx' ? [tx, (tx.tx as Obj).tx as Obj] : [tx];
}

describe('/middleware/transactions/account/{sender}/to/{receiver} against the devnode', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  const hot = hotSpotKeys(SEED)[0]!;

  before(async () => {
    v3 = await startV3(40, SEED, () => ({}), {
      hotSpots: {
        contractCalls: 300,
        tokenTransfers: 100,
        tokenHolders: 20,
        names: 40,
        channelUpdates: 2,
        oracleQueries: 2,
      },
    });
    // beside the generated chain's: an account that pays itself, two that pay each other and the hot account, over
    // micro blocks
    const [a, b] = [v3.devnode.accounts[1]!, v3.devnode.accounts[2]!];
    const spend = async (signer: number | string, from: string, to: string, amount: number): Promise<void> => {
      const built = await fetch(`${v3.devnode.internalUrl}/v2/debug/transactions/spend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender_id: from, recipient_id: to, amount, fee: 20_000_000_000_000 }),
      });
      await v3.submit(((await built.json()) as { tx: string }).tx, signer);
      await v3.devnode.mineMicroBlock();
    };
    for (let i = 1; i <= 7; i++) await spend(1, a.publicKey, a.publicKey, i);
    for (let i = 1; i <= 8; i++) await spend(1, a.publicKey, b.publicKey, 10 + i);
    for (let i = 1; i <= 4; i++) await spend(2, b.publicKey, a.publicKey, 20 + i);
    for (let i = 1; i <= 5; i++) await spend(hot.secretKey, hot.address, a.publicKey, 30 + i);
    for (let i = 1; i <= 2; i++) await spend(1, a.publicKey, hot.address, 40 + i);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
  });
  after(async () => {
    await v3?.close();
  });

  /** A transaction of the chain with the ids standing in its sender_id and its recipient_id, outer or wrapped. */
  interface Ends {
    readonly tx: ChainTx;
    readonly senders: ReadonlySet<string>;
    readonly recipients: ReadonlySet<string>;
    /** a spend to a name, resolved */
    readonly named: boolean;
  }

  /**
   * chainEnds is what the node's chain says of each transaction's ends: a name in recipient_id resolved through the
   * account_pubkey its last update gave (a spend names only the name's account, a name transfer both).
   */
  const chainEnds = async (): Promise<Ends[]> => {
    const pointee = new Map<string, string>();
    return (await v3.truth()).transactions.map((t) => {
      const senders = new Set<string>();
      const recipients = new Set<string>();
      let named = false;
      for (const tx of levels(t.signed)) {
        if (typeof tx.sender_id === 'string') senders.add(tx.sender_id);
        const to = tx.recipient_id;
        if (typeof to === 'string' && to.startsWith('nm_')) {
          if (pointee.has(to)) recipients.add(pointee.get(to)!);
          if (tx.type !== 'SpendTx') recipients.add(to);
          named ||= tx.type === 'SpendTx';
        } else if (typeof to === 'string') recipients.add(to);
        if (tx.type === 'NameUpdateTx') {
          const account = (tx.pointers as Obj[]).find((p) => p.key === 'account_pubkey');
          if (account) pointee.set(String(tx.name_id), String(account.id));
          else pointee.delete(String(tx.name_id));
        }
        if (tx.type === 'NameClaimTx') pointee.delete(produceNameId(String(tx.name) as `${string}.chain`));
      }
      return { tx: t, senders, recipients, named };
    });
  };

  /** fromTo is the chain's answer of the route for one pair, newest first. */
  const fromTo = (ends: readonly Ends[], sender: string, recipient: string): string[] =>
    ends
      .filter((e) => e.senders.has(sender) && e.recipients.has(recipient))
      .map((e) => e.tx.hash)
      .reverse();

  /** expectPages asks the pair's pages (LIMIT each, then one past the end) and compares each with both oracles. */
  const expectPages = async (sender: string, recipient: string, expected: string[]): Promise<void> => {
    for (let page = 1; page <= Math.floor(expected.length / LIMIT) + 2; page++) {
      const path = `/middleware/transactions/account/${sender}/to/${recipient}?limit=${LIMIT}&page=${page}`;
      const res = await v3.get(path);
      expect(res.status, res.text).to.equal(200);
      const hashes = ((res.body as { transactions: Obj[] }).transactions ?? []).map((t) => String(t.hash));
      expect(hashes, path).to.deep.equal(expected.slice((page - 1) * LIMIT, page * LIMIT));
      const { rows } = await v3.pool.query<TxJson>(BEFORE, [
        idKey(sender),
        idKey(recipient),
        LIMIT,
        (page - 1) * LIMIT,
      ]);
      expect(res.text, `${path}: the statement before`).to.equal(jsonArrayText(renderedTxJson(rows), 'transactions'));
    }
  };

  /**
   * expectV3 walks `/mdw/v3/transactions?sender_id&recipient_id` by its next links, both ways of the query, and counts
   * it: ae_mdw's form of the same question (the pair's rows, migration 1077, where the ids differ).
   */
  const expectV3 = async (sender: string, recipient: string, expected: string[]): Promise<void> => {
    for (const query of [
      `sender_id=${sender}&recipient_id=${recipient}`,
      `recipient_id=${recipient}&sender_id=${sender}`,
    ]) {
      const listed: string[] = [];
      for (let path = mdwLink(`/v3/transactions?${query}&limit=${LIMIT}`); path !== null;) {
        const res = await v3.get(path);
        expect(res.status, res.text).to.equal(200);
        const body = res.body as { data: Obj[]; next: string | null };
        listed.push(...body.data.map((t) => String(t.hash)));
        path = mdwLink(body.next);
      }
      expect(listed, query).to.deep.equal(expected);
      const counted = await v3.get(`/mdw/v3/transactions/count?${query}`);
      expect(counted.body, `count of ${query}`).to.equal(expected.length);
    }
  };

  it('pages each pair as the chain says, and byte for byte as the statement before answered; /mdw/v3 the same', async () => {
    const ends = await chainEnds();
    const [a, b] = [v3.devnode.accounts[1]!.publicKey, v3.devnode.accounts[2]!.publicKey];
    const outer = ends.find(
      (e) => (e.tx.signed.tx as Obj).type === 'SpendTx' && !e.named && !e.senders.has(hot.address),
    );
    const inner = ends.find(
      (e) => (e.tx.signed.tx as Obj).type !== 'SpendTx' && e.senders.size > 0 && e.recipients.size > 0,
    );
    const named = ends.find((e) => e.named && e.recipients.size > 0);
    const one = (set: ReadonlySet<string> | undefined): string => [...(set ?? [])][0]!;
    expect(
      ends.filter((e) => stringifyJson(e.tx.signed).includes(hot.address)),
      'the hot account',
    ).to.have.length.at.least(400);
    const pairs: [string, string, string, number?][] = [
      ['pays itself', a, a, 7],
      ['hot, never pays itself', hot.address, hot.address, 0],
      ['hot to a', hot.address, a, 5],
      ['a to hot', a, hot.address, 2],
      ['a to b', a, b, 8],
      ['b to a', b, a, 4],
      ['hot to a quiet one', hot.address, one(outer?.senders)],
      ['a quiet one to hot', one(outer?.senders), hot.address],
      ['a quiet pair', one(outer?.senders), one(outer?.recipients)],
      ['an inner spend', one(inner?.senders), one(inner?.recipients)],
      ['a spend to a name', one(named?.senders), one(named?.recipients)],
    ];
    for (const [label, sender, recipient, size] of pairs) {
      expect(sender, label).to.be.a('string');
      expect(recipient, label).to.be.a('string');
      const expected = fromTo(ends, sender, recipient);
      if (size === 0) expect(expected, label).to.deep.equal([]);
      else if (size !== undefined) expect(expected, label).to.have.length.at.least(size);
      else if (!label.includes('hot')) expect(expected, label).to.not.deep.equal([]);
      await expectPages(sender, recipient, expected);
      await expectV3(sender, recipient, expected);
    }
  });
});
