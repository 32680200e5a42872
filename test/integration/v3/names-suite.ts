import { expect } from 'chai';
import { Ajv } from 'ajv';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { Json } from '../../../src/chain/json.ts';
import { V3_SCHEMAS, responseSchema } from '../../../src/api/mdw/rest/api-document.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import type { ChainTruth, ChainTx, V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** describeNames is the /v3/names suite over the 60-generation chain names-chain.test.ts starts (it only reads it). */
export function describeNames(shared: { v3: V3UnderTest }): void {
  describe('/v3/names through the SDK Middleware client, checked against the devnode chain', function () {
    let v3: V3UnderTest;
    let chain: ChainTruth;
    const walk = (path: string): Promise<Obj[]> => v3.walk(path);
    const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;
    const ofType = (type: string): ChainTx[] => chain.transactions.filter((t) => txOf(t).type === type);

    before(async () => {
      ({ v3 } = shared);
      chain = await v3.truth();
    });

    it('serves every claimed name by name and by hash, with its claims, transfers and updates as on chain', async () => {
      const claims = ofType('NameClaimTx');
      expect(claims.length, 'the generated chain claims names').to.be.above(0);
      const names = [...new Set(claims.map((t) => String(txOf(t).name)))];
      for (const name of names) {
        const hash = nameId(name);
        const asName = await v3.get(`/mdw/v3/names/${name}`);
        // a name only in auction is no name yet (404, as ae_mdw answers: explorer-gaps.test.ts): its auction carries it
        const inAuction = asName.status === 404;
        const byName = (inAuction ? (await v3.get(`/mdw/v3/names/auctions/${name}`)).body : asName.body) as Obj;
        const lastBid = inAuction ? ((byName.last_bid as Obj).tx as Obj) : undefined;
        expect(byName.name, name).to.equal(name);
        expect(lastBid ? lastBid.name_id : byName.hash).to.equal(hash);
        const byHash = `/mdw/v3/names/${inAuction ? 'auctions/' : ''}${hash}`;
        expect((await v3.get(byHash)).body).to.deep.equal(byName);
        const nameTxs = (type: string): string[] =>
          chain.transactions
            .filter(
              (t) =>
                txOf(t).type === type && (type === 'NameClaimTx' ? txOf(t).name === name : txOf(t).name_id === hash),
            )
            .map((t) => t.hash)
            .reverse();
        expect((await walk(`/mdw/v3/names/${hash}/claims?limit=2`)).map((c) => c.source_tx_hash)).to.deep.equal(
          nameTxs('NameClaimTx'),
        );
        expect((await walk(`/mdw/v3/names/${name}/transfers?limit=2`)).map((c) => c.source_tx_hash)).to.deep.equal(
          nameTxs('NameTransferTx'),
        );
        expect((await walk(`/mdw/v3/names/${name}/updates?limit=2`)).map((c) => c.source_tx_hash)).to.deep.equal(
          nameTxs('NameUpdateTx'),
        );
        // the owner after the last claim or transfer of this name
        const owners = chain.transactions
          .filter(
            (t) =>
              (txOf(t).type === 'NameClaimTx' && txOf(t).name === name) ||
              (txOf(t).type === 'NameTransferTx' && txOf(t).name_id === hash),
          )
          .map((t) => (txOf(t).type === 'NameClaimTx' ? txOf(t).account_id : txOf(t).recipient_id));
        expect(lastBid ? lastBid.account_id : (byName.ownership as Obj).current, name).to.equal(owners.at(-1));
      }
      const viaSdk = await v3.mdw.getName(names[0]! as `${string}.chain`);
      expect(viaSdk.name).to.equal(names[0]);
    });

    it('lists active and inactive names in every order, each walk complete and equal to the count', async () => {
      const top = v3.devnode.height();
      const active = await walk('/mdw/v3/names?state=active&limit=3');
      expect(active.every((n) => n.active === true && Number(n.expire_height) > top)).to.equal(true);
      expect(await v3.mdw.getNamesCount()).to.deep.equal({ body: active.length });
      const inactive = await walk('/mdw/v3/names?state=inactive&limit=3');
      expect(inactive.every((n) => n.active === false)).to.equal(true);
      const all = await walk('/mdw/v3/names?limit=4');
      expect(active.length, 'active names').to.be.above(0);
      expect(all.map((n) => n.name).sort()).to.deep.equal([...active, ...inactive].map((n) => n.name).sort());
      for (const by of ['name', 'deactivation', 'activation']) {
        const forward = await walk(`/mdw/v3/names?by=${by}&direction=forward&limit=2`);
        const backward = await walk(`/mdw/v3/names?by=${by}&limit=5`);
        expect(
          forward.map((n) => n.name),
          by,
        ).to.deep.equal(backward.map((n) => n.name).reverse());
        expect(forward).to.have.length(all.length);
      }
      const byName = await walk('/mdw/v3/names?by=name&direction=forward&limit=3');
      expect(byName.map((n) => n.name)).to.deep.equal(byName.map((n) => String(n.name)).sort());
      const owner = String((active[0]?.ownership as Obj | undefined)?.current ?? '');
      if (owner) {
        const owned = await walk(`/mdw/v3/names?owned_by=${owner}&state=active`);
        expect(owned.map((n) => n.name).sort()).to.deep.equal(
          active
            .filter((n) => (n.ownership as Obj).current === owner)
            .map((n) => n.name)
            .sort(),
        );
        expect(await v3.mdw.getNamesCount({ ownedBy: owner as `ak_${string}` })).to.deep.equal({ body: owned.length });
      }
      const prefix = String(all[0]!.name).slice(0, 2);
      const prefixed = await walk(`/mdw/v3/names?prefix=${prefix}&limit=3`);
      expect(prefixed.map((n) => n.name)).to.deep.equal(
        all.filter((n) => String(n.name).startsWith(prefix)).map((n) => n.name),
      );
      const auctions = await walk('/mdw/v3/names/auctions?limit=2');
      for (const a of auctions) expect(Number(a.auction_end)).to.be.above(top);
    });

    it("lists an account's claims and the names pointing at an id", async () => {
      const claims = ofType('NameClaimTx');
      const claimer = String(txOf(claims[0]!).account_id);
      const listed = await walk(`/mdw/v3/accounts/${claimer}/names/claims?limit=2`);
      expect(listed.map((c) => c.source_tx_hash)).to.deep.equal(
        claims
          .filter((t) => txOf(t).account_id === claimer)
          .map((t) => t.hash)
          .reverse(),
      );
      const updates = ofType('NameUpdateTx').filter(
        (t) => Array.isArray(txOf(t).pointers) && (txOf(t).pointers as Json[]).length > 0,
      );
      if (updates.length > 0) {
        const last = updates.at(-1)!;
        const pointer = (txOf(last).pointers as Obj[])[0]!;
        const pointees = await walk(`/mdw/v3/accounts/${String(pointer.id)}/names/pointees`);
        const byHash = (await v3.get(`/mdw/v3/names/${String(txOf(last).name_id)}`)).body as Obj;
        expect(pointees.map((p) => p.name)).to.include(byHash.name);
      }
    });

    it('answers every names operation with its documented schema, and bad names with 400', async () => {
      const ajv = new Ajv({ strict: false });
      ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
      const claim = ofType('NameClaimTx')[0]!;
      const name = String(txOf(claim).name);
      for (const op of V3_OPERATIONS.filter((o) => o.path.includes('/names') && !o.path.includes('auctions/{id}'))) {
        const path = `/mdw/v3${op.path}`
          .replace('/names/{id}', `/names/${name}`)
          .replace('{id}', String(txOf(claim).account_id));
        const res = await v3.get(path);
        expect(res.status, path).to.equal(200);
        const schema = JSON.parse(
          JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components'),
        );
        const validate = ajv.compile(schema);
        expect(validate(JSON.parse(res.text)), `${path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      }
      expect((await v3.get('/mdw/v3/names/nm_bad')).body).to.deep.equal({ error: 'invalid id: nm_bad' });
      expect((await v3.get('/mdw/v3/names?by=size')).body).to.deep.equal({ error: 'invalid query: by=size' });
      expect((await v3.get('/mdw/v3/names/unclaimed-name-xyz')).status).to.equal(404);
      // a by-name cursor is a name, ending with its registrar (issue 91: a cursor is only a text the server wrote)
      expect((await v3.get(`/mdw/v3/names?by=name&cursor=${name}`)).status).to.equal(200);
      expect((await v3.get('/mdw/v3/names?by=name&cursor=abc')).body).to.deep.equal({ error: 'invalid cursor: abc' });
      expect((await v3.get('/mdw/v3/names?cursor=abc')).body).to.deep.equal({ error: 'invalid cursor: abc' });
    });
  });
}
