/**
 * @module Names a contract claims, points, transfers and revokes through AENS (internal calls of ContractCallTx), between
 * an account's own NameUpdateTx and NameTransferTx of one of them, against the devnode's state: the names' pointers,
 * owners and expiries (the node's /v3/names/{name}), the names pointing at an id (/v3/accounts/{id}/names/pointees,
 * /middleware/names/reverse/{id}) with the update that set each pointer, the name fees a contract's claim books
 * (/v3/transfers) and the names' statistics (/v3/stats/total, /v3/stats/delta): with the internal calls derived in
 * their batch, and after the batches (the backfill's path).
 */
import { expect } from 'chai';
import { address } from '../../../src/chain/fate.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { keyPairFromSeed, type KeyPair } from '../../../src/devnode/keys.ts';
import { minimumNameFee } from '../../../src/chain/aens.ts';
import { nameStatus } from '../../../src/devnode/rules/common.ts';
import type { BuiltTx, TxFields } from '../../../src/devnode/tx-codec.ts';
import { aeBalancesApart } from '../../support/ae-balances-truth.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { populatedInternalCallsBehind } from './support/internal-calls-behind.ts';
import {
  mineGeneration,
  populatedWithNodeSettings,
  startHarness,
  verifyClean,
  type Harness,
} from './support/harness.ts';
import { serveSchema, type ServedSchema } from './support/served-schema.ts';
import { deployRegistrar } from './support/registrar.ts';

type Obj = { [key: string]: Json };

const FEE = 10n ** 15n;
/** more than 12 characters: claimed at once; 12 or fewer: auctioned */
const [MOVED, KEPT, REVOKED, AUCTIONED] = [
  'movedbycontract.chain',
  'keptbycontract.chain',
  'revokedbycontract.chain',
  'cauctioned.chain',
];
const NAMES = [MOVED, KEPT, REVOKED];

/** An update of a name as submitted: its transaction and that transaction's type. */
interface Update {
  readonly hash: string;
  readonly type: 'ContractCallTx' | 'NameUpdateTx';
}

for (const behind of [false, true])
  describe(`names a contract points, transfers and revokes through AENS (internal calls ${behind ? 'derived after the batches' : 'in their batch'})`, function () {
    this.timeout(300_000);
    let h: Harness;
    let pool: Pool;
    let env: Record<string, string>;
    let server: ServedSchema;
    let registrar = '';
    const [x, y, z] = [1, 2, 3].map((i) => keyPairFromSeed(Buffer.alloc(32, 100 + i)).address);
    /** each name's updates, in chain order */
    const updates = new Map<string, Update[]>();
    /** each claim of a contract: the name, its call, its fee, the height of its micro block */
    const claims: { name: string; hash: string; fee: bigint; height: number }[] = [];
    /** the heights of the contract's revokes */
    const revokes: number[] = [];

    const get = (path: string): ReturnType<ServedSchema['get']> => server.get(path);

    before(async () => {
      h = await startHarness(3, `names-contract-updates-${behind}`, {}, { REWARD_RULES: 'devnode' });
      const holder: KeyPair = keyPairFromSeed(Buffer.alloc(32, 98));
      const r = await deployRegistrar(h, [holder]);
      registrar = r.account;
      const { submit, call } = r;
      const sign = (k: KeyPair, tx: TxFields): BuiltTx => ({ tx: { ...tx, nonce: r.nonce(k) }, signers: [k] });
      const updated = (name: string, update: Update): void =>
        void updates.set(name, [...(updates.get(name) ?? []), update]);
      // the contract claims three names at once and opens an auction
      const claimed = [...NAMES, AUCTIONED].map((name) => ({
        name,
        fee: minimumNameFee(name),
        hash: call('claim', [name], minimumNameFee(name)),
      }));
      const claimedAt = await mineGeneration(h);
      claims.push(...claimed.map((c) => ({ ...c, height: claimedAt })));
      // it points them
      for (const [name, target] of [
        [MOVED, x],
        [KEPT, x],
        [REVOKED, y],
      ] as const)
        updated(name, { hash: call('update', [name, address(target!)]), type: 'ContractCallTx' });
      await mineGeneration(h);
      // it hands one to an account and revokes another
      call('transfer', [MOVED, address(holder.address)]);
      call('revoke', [REVOKED]);
      revokes.push(await mineGeneration(h));
      // the account points it elsewhere (a NameUpdateTx) and hands it back
      const byHolder = submit(
        sign(holder, {
          type: 'NameUpdateTx',
          version: 1,
          account_id: holder.address,
          name_id: nameId(MOVED),
          name_ttl: 1000,
          pointers: [{ key: 'account_pubkey', id: y! }],
          client_ttl: 100,
          fee: FEE,
        }),
      );
      updated(MOVED, { hash: byHolder, type: 'NameUpdateTx' });
      await mineGeneration(h);
      submit(
        sign(holder, {
          type: 'NameTransferTx',
          version: 1,
          account_id: holder.address,
          name_id: nameId(MOVED),
          recipient_id: registrar,
          fee: FEE,
        }),
      );
      await mineGeneration(h);
      // the contract points it again, and sets the other's pointer again
      updated(MOVED, { hash: call('update', [MOVED, address(z!)]), type: 'ContractCallTx' });
      updated(KEPT, { hash: call('update', [KEPT, address(x!)]), type: 'ContractCallTx' });
      await mineGeneration(h);
      // a generation with nothing in it: the totals at the top are the state's
      await h.devnode.mineKeyBlock();
      if (behind) {
        // the batches go on while the dry-runs are refused; the backfill derives the internal calls after them
        ({ env, pool } = await populatedInternalCallsBehind(h));
      } else ({ env, pool } = await populatedWithNodeSettings(h));
      server = await serveSchema(h, env);
    });

    after(async () => {
      await server?.stop();
      await pool?.end();
      await h?.close();
    });

    it("serves each name's pointers, owner and expiry as the devnode's /v3/names", async () => {
      for (const name of NAMES) {
        const node = await fetch(`${h.devnode.externalUrl}/v3/names/${name}`);
        const truth = parseJson(await node.text()) as Obj;
        const { status, body } = await get(`/mdw/v3/names/${name}`);
        expect(status, name).to.equal(200);
        if (node.status === 404) {
          expect(truth.reason, name).to.equal('Name revoked');
          expect(body.active, name).to.equal(false);
          expect(body.pointers, name).to.deep.equal([]);
          continue;
        }
        expect(
          { pointers: body.pointers, owner: (body.ownership as Obj).current, ttl: body.expire_height },
          name,
        ).to.deep.equal({ pointers: truth.pointers, owner: truth.owner, ttl: truth.ttl });
      }
    });

    it("holds each name after each of its events as the devnode's state after that micro block", async () => {
      const { rows } = await pool.query<{
        name: string;
        hash: string;
        kind: string;
        owner: string;
        expires: number;
        pointers: Obj[];
      }>(
        `SELECT e.name_hash AS name, m.hash, e.kind, e.owner, e.expires_at AS expires, e.pointers
           FROM name_events e JOIN micro_blocks m ON (m.height, m.micro_index) = (e.height, e.micro_index)
          WHERE e.name_hash = ANY ($1) ORDER BY e.height, e.micro_index, e.tx_index`,
        [NAMES.map(nameId)],
      );
      // the contract's claim, update and transfer, the account's update and transfer, the contract's update; a claim
      // and two updates; a claim, an update and a revoke
      expect(rows.length).to.equal(6 + 3 + 3);
      for (const e of rows) {
        const truth = h.devnode.chain.stateAfter(e.hash)!.names.get(e.name)!;
        if (e.kind === 'revoke') {
          expect(truth.revokedAt, e.hash).to.be.a('number');
          continue;
        }
        expect(
          { owner: e.owner, expires: e.expires, pointers: e.pointers.map((p) => ({ key: p.key, id: p.id })) },
          `${e.kind} at ${e.hash}`,
        ).to.deep.equal({ owner: truth.owner, expires: truth.expires, pointers: truth.pointers });
      }
    });

    it("lists the names pointing at each id as the devnode's state, each with the update that set it", async () => {
      const state = h.devnode.chain.state;
      for (const id of [x!, y!, z!]) {
        const expected = NAMES.flatMap((name) => {
          const entry = state.names.get(nameId(name));
          if (nameStatus(entry, h.devnode.chain.height) !== 'claimed') return [];
          return entry!.pointers
            .filter((p) => p.id === id)
            .map((p) => {
              const last = updates.get(name)!.at(-1)!;
              return { name, key: p.key, hash: last.hash, type: last.type, account: entry!.owner, active: true };
            });
        });
        const { status, body } = await get(`/mdw/v3/accounts/${id}/names/pointees?limit=100`);
        expect(status, id).to.equal(200);
        const served = (body.data as Obj[]).map((p) => ({
          name: p.name,
          key: p.key,
          hash: p.source_tx_hash,
          type: p.source_tx_type,
          account: (p.tx as Obj).account_id,
          active: p.active,
        }));
        expect(served, id).to.have.deep.members(expected);
        expect(served.length, id).to.equal(expected.length);
        // the reverse lookup of the first middleware: the names active at the top pointing at the id
        const reverse = await get(`/middleware/names/reverse/${id}`);
        expect(reverse.status, id).to.equal(200);
        const listed = (reverse.body as unknown as Obj[]).map((n) => n.name);
        expect(listed, id).to.have.members([...new Set(expected.map((e) => e.name))]);
      }
      // the contract's update as ae_mdw renders it: its internal transaction, pointing at the id
      const [toZ] = (await get(`/mdw/v3/accounts/${z}/names/pointees`)).body.data as Obj[];
      const tx = toZ!.tx as Obj;
      expect({ name: tx.name_id, pointers: (tx.pointers as Obj[]).map((p) => p.id) }).to.deep.equal({
        name: nameId(MOVED),
        pointers: [z],
      });
    });

    it("books the name fees of the contract's claims: a claim's lock, an auction's bid spent", async () => {
      const { status, body } = await get('/mdw/v3/transfers?limit=100&direction=forward');
      expect(status).to.equal(200);
      const hashes = new Set(claims.map((c) => c.hash));
      const served = (body.data as Obj[])
        .filter(
          (t) => ['fee_lock_name', 'fee_spend_name'].includes(String(t.kind)) && hashes.has(String(t.ref_tx_hash)),
        )
        .map((t) => ({
          kind: t.kind,
          account: t.account_id,
          amount: String(t.amount),
          hash: t.ref_tx_hash,
          type: t.ref_tx_type,
          height: t.height,
        }));
      expect(served).to.have.deep.members(
        claims.map((c) => ({
          kind: c.name === AUCTIONED ? 'fee_spend_name' : 'fee_lock_name',
          account: registrar,
          amount: String(c.fee),
          hash: c.hash,
          type: 'ContractCallTx',
          height: c.height,
        })),
      );
      expect(served.length).to.equal(claims.length);
    });

    it("counts the contract's names in the statistics as the devnode's state: active names, auctions, fees", async () => {
      const chain = h.devnode.chain;
      const top = chain.height;
      const total = ((await get('/mdw/v3/stats/total?limit=1')).body.data as Obj[])[0]!;
      expect(total.height).to.equal(top);
      const active = [...chain.state.names.entries()]
        .map(([, n]) => n)
        .filter((n) => nameStatus(n, top) === 'claimed').length;
      const auctions = [...chain.state.auctions.entries()].map(([, a]) => a);
      expect({
        active_names: total.active_names,
        active_auctions: total.active_auctions,
        locked_in_auctions: String(total.locked_in_auctions),
      }).to.deep.equal({
        active_names: active,
        active_auctions: auctions.length,
        locked_in_auctions: String(auctions.reduce((s, a) => s + a.bid, 0n)),
      });
      // the generation of the claims: three names activated, an auction started, every fee burned
      const deltas = (await get('/mdw/v3/stats/delta?limit=100')).body.data as Obj[];
      const delta = (height: number): Obj => deltas.find((d) => d.height === height)!;
      const at = delta(claims[0]!.height);
      expect({
        names_activated: at.names_activated,
        auctions_started: at.auctions_started,
        burned_in_auctions: String(at.burned_in_auctions),
      }).to.deep.equal({
        names_activated: 3,
        auctions_started: 1,
        burned_in_auctions: String(claims.reduce((s, c) => s + c.fee, 0n)),
      });
      expect(delta(revokes[0]!).names_revoked).to.equal(1);
    });

    it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
      const all = Array.from({ length: h.devnode.height() + 1 }, (_, i) => i);
      expect(await aeBalancesApart(pool, h.devnode.chain, all)).to.deep.equal([]);
      const unexplained = await pool.query('SELECT account_id, height FROM account_balance_changes WHERE kind = $1', [
        'unexplained',
      ]);
      expect(unexplained.rows).to.deep.equal([]);
    });

    it('verifies clean against the devnode (mdw -v --full)', async () => {
      await verifyClean(h, env);
    });
  });
