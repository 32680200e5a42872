/**
 * @module /middleware/names/reverse/{id} walks the names currently pointing at an id in name order (migration 1062's
 * name_pointees, kept by name_state's triggers): many names pointed at one account, then repointed away and to it,
 * revoked and expired, and a fork, each answer page by page against the names the devnode's node API shows; and the
 * rollback of the repointing generation (a fork's delete) gives back the answer the chain gave before it.
 */
import { expect } from 'chai';
import { buildTx, Tag, type AensName } from '@aeternity/aepp-sdk';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { namesPointingAt } from '../../../src/db/queries/names.ts';
import { deleteFrom } from '../../../src/db/writes/heights.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { claimNames } from './name-claims.ts';

type Obj = { [key: string]: Json };

/** What the route shows of a name that the node shows too. */
interface Shown {
  readonly name: string;
  readonly name_hash: string;
  readonly owner: string;
  readonly expires_at: number;
  readonly pointers: Json;
}

const NAMES = Array.from({ length: 24 }, (_, i) => `reverse-pointee-${String(i).padStart(2, '0')}.chain` as AensName);

describe('/middleware/names/reverse/{id} as names are pointed, repointed, revoked, expire and fork, against the devnode', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let owner: `ak_${string}`;
  let target: `ak_${string}`;
  let other: `ak_${string}`;
  let nonce = 0;

  before(async () => {
    v3 = await startV3(2, 'names-reverse');
    [owner, target, other] = v3.devnode.accounts.slice(0, 3).map((a) => a.publicKey as `ak_${string}`) as [
      `ak_${string}`,
      `ak_${string}`,
      `ak_${string}`,
    ];
    nonce = Number(((await v3.nodeGet(`/v3/accounts/${owner}/next-nonce`)) as Obj).next_nonce);
  });
  after(async () => {
    await v3?.close();
  });

  /** send submits the owner's next transactions (consecutive nonces) and mines them in a micro block and a key block */
  const send = async (txs: ((nonce: number) => string)[]): Promise<number> => {
    for (const tx of txs) await v3.submit(tx(nonce++));
    await v3.devnode.mineMicroBlock();
    const height = v3.devnode.height();
    await v3.devnode.mineKeyBlock();
    return height;
  };
  const update =
    (name: AensName, ids: readonly string[], nameTtl = 1000) =>
    (n: number): string =>
      buildTx({
        tag: Tag.NameUpdateTx,
        accountId: owner,
        nonce: n,
        nameId: nameId(name) as `nm_${string}`,
        nameTtl,
        pointers: ids.map((id, i) => ({ key: i === 0 ? 'account_pubkey' : `extra_${i}`, id: id as `ak_${string}` })),
        clientTtl: 60,
      });

  /** expected: the names the node shows now whose pointers hold the id, in the database's order of names */
  const expected = async (id: string): Promise<Shown[]> => {
    const shown: Shown[] = [];
    for (const name of NAMES) {
      const n = (await v3.nodeGet(`/v2/names/${name}`)) as Obj;
      const pointers = (n.pointers ?? []) as { id: string }[];
      if (typeof n.id !== 'string' || !pointers.some((p) => p.id === id)) continue;
      shown.push({ name, name_hash: n.id, owner: String(n.owner), expires_at: Number(n.ttl), pointers });
    }
    const { rows } = await v3.pool.query<{ n: string }>('SELECT n FROM unnest($1::text[]) n ORDER BY n', [
      shown.map((s) => s.name),
    ]);
    return rows.map((r) => shown.find((s) => s.name === r.n)!);
  };
  const shownOf = (rows: readonly Obj[]): Shown[] =>
    rows.map((r) => ({
      name: String(r.name),
      name_hash: String(r.name_hash),
      owner: String(r.owner),
      expires_at: Number(r.expires_at),
      pointers: r.pointers!,
    }));
  /** answered: the route's pages of `limit` until a short one */
  const answered = async (id: string, limit = 5): Promise<Shown[]> => {
    const all: Shown[] = [];
    for (let page = 1; ; page++) {
      const res = await v3.get(`/middleware/names/reverse/${id}?limit=${limit}&page=${page}`);
      expect(res.status, res.text).to.equal(200);
      all.push(...shownOf(res.body as Obj[]));
      if ((res.body as Obj[]).length < limit) return all;
    }
  };
  const expectAsTheNode = async (): Promise<{ target: Shown[]; other: Shown[] }> => {
    await v3.synced();
    const now = { target: await expected(target), other: await expected(other) };
    expect(await answered(target)).to.deep.equal(now.target);
    expect(await answered(target, 100)).to.deep.equal(now.target);
    expect(await answered(other, 3)).to.deep.equal(now.other);
    return now;
  };

  it('follows pointers set, repointed, revoked, expired and forked, and a rollback gives back the earlier answer', async () => {
    await claimNames(send, owner, NAMES, 9_000);
    // 0–19 point at the target (every fourth by two keys: listed once), 5 and 6 for 3 heights only; 20–23 at another
    await send(
      NAMES.map((name, i) =>
        i >= 20
          ? update(name, [other])
          : update(name, i % 4 === 0 ? [target, target] : [target], i === 5 || i === 6 ? 3 : 1000),
      ),
    );
    const pointed = await expectAsTheNode();
    expect(pointed.target.map((s) => s.name)).to.deep.equal(NAMES.slice(0, 20));
    const topBefore = v3.devnode.height();

    // 0–4 repointed away, 20 and 21 to the target (21 beside the other), 7 and 8 revoked; then 5 and 6 expire
    const repointedAt = await send([
      ...NAMES.slice(0, 5).map((name) => update(name, [other])),
      update(NAMES[20]!, [target]),
      update(NAMES[21]!, [other, target]),
      ...[7, 8].map(
        (i) => (n: number) =>
          buildTx({ tag: Tag.NameRevokeTx, accountId: owner, nonce: n, nameId: nameId(NAMES[i]!) as `nm_${string}` }),
      ),
    ]);
    for (let i = 0; i < 4; i++) await v3.devnode.mineKeyBlock();
    const moved = await expectAsTheNode();
    expect(moved.target.map((s) => s.name)).to.deep.equal([...NAMES.slice(9, 22)]);

    // the repointing generation undone (as a fork's rollback deletes it): the answer the chain gave before it
    const client = await v3.pool.connect();
    try {
      await client.query('BEGIN');
      await deleteFrom(client, repointedAt);
      const rolledBack = await namesPointingAt(client, target, topBefore, { limit: 100, offset: 0 });
      expect(shownOf(rolledBack as unknown as Obj[])).to.deep.equal(pointed.target);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }

    // a fork of the generations from the repointing one: rolled back and loaded again from the new blocks
    await v3.devnode.fork(v3.devnode.height() - repointedAt + 1);
    await v3.devnode.mineKeyBlock();
    expect(await expectAsTheNode()).to.deep.equal(moved);
  });
});
