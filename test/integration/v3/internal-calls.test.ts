/**
 * @module Internal contract calls (issue 76) over a generated devnode chain with wrapped AE withdrawn (`Chain.spend`),
 * AE swapped through the DEX router (`Call.amount`), names a registrar contract claims, points, transfers and revokes
 * (`AENS.*`) and pairs the DEX factory creates (a replay the node answers 500: gaps): the stored calls equal the
 * devnode's own dry-run `tx_events` of each contract call (its micro block's transactions up to it, on top of the
 * block before), asked here over HTTP with the transactions' bytes from the devnode, and the names the contract acted on are served as ae_mdw serves them (their claims and history with
 * `internal_source`, their owner and pointers as the devnode's name says); before and after a fork while the
 * populator follows, and after a -H reload of heights whose rows were spoiled.
 */
import { expect } from 'chai';
import { hash } from '@aeternity/aepp-sdk';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import { reprefix } from '../../../src/chain/encoding.ts';
import { decodeCallData } from '../../../src/chain/fate.ts';
import {
  internalCallsTruth,
  type InternalCallsTruth,
  type TrueInternalCall,
} from '../../support/internal-calls-truth.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { GAP } from '../../../src/indexer/derived/internal-calls.ts';
import { silentLog } from '../api/harness.ts';
import { perChainState, startV3, walkPages, type V3UnderTest } from './harness.ts';
import { aeBalancesApart, devnodeContractAccounts } from '../../support/ae-balances-truth.ts';

type Obj = { [key: string]: Json };

/** An internal call as stored: its call's place, its index, the function and the transaction. */
type Stored = Omit<TrueInternalCall, 'callTxHash' | 'blockHash'>;

describe('internal contract calls: the int_calls area against the devnode', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let expected: () => Promise<{ calls: Stored[]; gaps: string[] }>;
  let fullTruth: () => Promise<InternalCallsTruth>;

  /** stored reads the area's rows in chain order, once the populator has the node's top and no pending area. */
  async function stored(): Promise<{ calls: Stored[]; gaps: string[] }> {
    await v3.synced();
    for (let i = 0; i < 200; i++) {
      const { rows } = await v3.pool.query("SELECT 1 FROM derive_backfill WHERE area = 'int_calls'");
      if (rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows } = await v3.pool.query<{ height: number; m: number; t: number; l: number; f: string; tx: string }>(
      `SELECT height, micro_index AS m, tx_index AS t, local_idx AS l, function AS f, internal_tx::text AS tx
         FROM contract_internal_calls ORDER BY height, micro_index, tx_index, local_idx`,
    );
    const gaps = await v3.pool.query<{ at: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS at FROM contract_internal_call_gaps
        ORDER BY height, micro_index, tx_index`,
    );
    const calls = rows.map((r) => ({
      height: r.height,
      microIndex: r.m,
      txIndex: r.t,
      localIdx: r.l,
      function: r.f,
      internalTx: parseJson(r.tx) as Obj,
    }));
    return { calls, gaps: gaps.rows.map((g) => g.at) };
  }

  before(async () => {
    v3 = await startV3(60, 'internal-calls', () => ({}), { tokenShare: 0.5, registrar: true, populatedOnce: true });
    fullTruth = perChainState(v3.devnode, async () => internalCallsTruth(v3.devnode, (await v3.truth()).transactions));
    expected = perChainState(v3.devnode, async () => {
      const { calls, gaps } = await fullTruth();
      return { calls: calls.map(({ callTxHash: _h, blockHash: _b, ...c }) => c), gaps };
    });
  });
  after(async () => {
    await v3?.close();
  });

  it("stores every contract call's internal calls as the devnode's dry-run tells them: Chain.spend, Call.amount, AENS", async () => {
    const truth = await expected();
    const functions = new Set(truth.calls.map((c) => c.function));
    expect([...functions].sort(), 'the chain has each kind').to.include.members([
      'AENS.claim',
      'AENS.update',
      'Call.amount',
      'Chain.spend',
    ]);
    expect(truth.gaps.length, 'calls wrapped or after a wrapper').to.be.above(0);
    expect(await stored()).to.deep.equal(truth);
  });

  it("takes each call that created a contract (the DEX's create_pair) as a gap the node answered 500, and goes on", async () => {
    const { transactions } = await v3.truth();
    const { crashed, gaps } = await fullTruth();
    expect(crashed.length, 'pairs the DEX router created').to.be.above(0);
    // the calls that created a pair, read apart from the dry-runs: their call_info logs the factory's PairCreated
    const pairCreated = String(BigInt(`0x${hash('PairCreated').toString('hex')}`));
    const creating: string[] = [];
    for (const t of transactions.filter((x) => (x.signed.tx as Obj).type === 'ContractCallTx')) {
      const info = (await v3.nodeGet(`/v3/transactions/${t.hash}/info`)) as {
        call_info: { log: { topics: Json[] }[] };
      };
      if (info.call_info.log.some((l) => String(l.topics[0]) === pairCreated))
        creating.push(`${t.height}-${t.microIndex}-${t.txIndex}`);
    }
    // each one the node answered 500 created a pair; each that created one is a gap (after a wrapper: of that reason)
    expect(creating).to.include.members(crashed);
    expect(gaps).to.include.members(creating);
    await stored();
    const { rows } = await v3.pool.query<{ at: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS at FROM contract_internal_call_gaps
        WHERE reason = $1 ORDER BY height, micro_index, tx_index`,
      [GAP.crashed],
    );
    expect(rows.map((r) => r.at)).to.deep.equal(crashed);
    // the area went past them to the node's top: none of its heights pending, /v3/status counting them by reason
    expect((await v3.pool.query("SELECT 1 FROM derive_backfill WHERE area = 'int_calls'")).rows).to.deep.equal([]);
    const { body } = await v3.get('/mdw/v3/status');
    const areas = (body as { mdw_incomplete_areas: Obj[] }).mdw_incomplete_areas;
    expect(areas.find((a) => a.reason === GAP.crashed)).to.deep.include({ calls: crashed.length });
  });

  it("serves them as ae_mdw does through the SDK's getContractCalls: fields, order, filters, cursors", async () => {
    await stored();
    const { calls } = await fullTruth();
    const contractOf = new Map(
      (await v3.truth()).transactions.map((t) => {
        const tx = t.signed.tx as Obj;
        return [t.hash, tx.type === 'ContractCallTx' ? String(tx.contract_id) : undefined];
      }),
    );
    // the SDK's models (camelCase) of ae_mdw's ContractCall, newest first
    const expectedSdk = calls
      .map((c) => ({
        blockHash: c.blockHash,
        callTxHash: c.callTxHash,
        contractId: contractOf.get(c.callTxHash),
        function: c.function,
        height: c.height,
        localIdx: c.localIdx,
        microIndex: c.microIndex,
        sender: c.internalTx.sender_id,
      }))
      .reverse();
    const pick = (c: Record<string, unknown>): Record<string, unknown> => {
      const tx = c.internalTx as Record<string, unknown>;
      return {
        blockHash: c.blockHash,
        callTxHash: c.callTxHash,
        contractId: c.contractId,
        function: c.function,
        height: c.height,
        localIdx: c.localIdx,
        microIndex: c.microIndex,
        sender: tx.sender_id ?? tx.senderId,
      };
    };
    const served = await walkPages<Record<string, unknown>>(await v3.mdw.getContractCalls({ limit: 7 }));
    expect(served.map(pick)).to.deep.equal(expectedSdk);
    // the amounts digit for digit (the SDK reads an untyped object's big integers as floats, as from ae_mdw)
    const rawAll = await v3.walk('/mdw/v3/contracts/calls?limit=100');
    expect(rawAll.map((c) => String((c.internal_tx as Obj).amount))).to.deep.equal(
      [...calls].reverse().map((c) => String(c.internalTx.amount)),
    );
    // each item has ae_mdw's ContractCall fields, its internal_tx the node's SpendTx with type and version
    const [raw] = ((await v3.get('/mdw/v3/contracts/calls?limit=1')).body as { data: Obj[] }).data;
    expect(Object.keys(raw!).sort()).to.deep.equal([
      'block_hash',
      'call_tx_hash',
      'contract_id',
      'contract_tx_hash',
      'function',
      'height',
      'internal_tx',
      'local_idx',
      'micro_index',
    ]);
    expect(raw!.internal_tx).to.deep.include({ type: 'SpendTx', version: 1, fee: 0, nonce: 0 });
    // forward, by function, by contract (the query's and the path's), in pages
    const forward = await walkPages<Record<string, unknown>>(
      await v3.mdw.getContractCalls({ direction: 'forward', limit: 5 }),
    );
    expect(forward.map(pick)).to.deep.equal([...expectedSdk].reverse());
    for (const fname of ['Chain.spend', 'Call.amount']) {
      const listed = await v3.walk(`/mdw/v3/contracts/calls?function=${fname}&limit=3`);
      expect(listed.map((c) => `${String(c.call_tx_hash)} ${String(c.local_idx)}`)).to.deep.equal(
        expectedSdk.filter((c) => c.function === fname).map((c) => `${c.callTxHash} ${c.localIdx}`),
      );
    }
    const contract = expectedSdk[0]!.contractId!;
    const byPath = await v3.walk(`/mdw/v3/contracts/${contract}/calls?limit=2`);
    expect(byPath).to.deep.equal(await v3.walk(`/mdw/v3/contracts/calls?contract_id=${contract}&limit=2`));
    expect(byPath.map((c) => `${String(c.call_tx_hash)} ${String(c.local_idx)}`)).to.deep.equal(
      expectedSdk.filter((c) => c.contractId === contract).map((c) => `${c.callTxHash} ${c.localIdx}`),
    );
    expect((await v3.get('/mdw/v3/contracts/calls?caller_id=ak_x')).body).to.deep.equal({
      error: 'invalid query: caller_id=ak_x',
    });
    expect((await v3.get('/mdw/v3/contracts/calls?cursor=1-2')).status).to.equal(400);
  });

  /** contractActivitiesMatch checks the `contract` activities of a paid account and a paying contract. */
  async function contractActivitiesMatch(): Promise<void> {
    await stored();
    const { transactions } = await v3.truth();
    const { calls } = await fullTruth();
    const contractOf = new Map(
      transactions.map((t) => [t.hash, String((t.signed.tx as Obj).contract_id ?? (t.signed.tx as Obj).type)]),
    );
    const key = (id: Json | undefined): string => String(id).slice(3);
    // an id's calls: those naming its public key in an id field, and a contract's own calls' (ae_mdw's two indexes)
    const concerning = (id: string, ownedOnly: boolean): string[] =>
      calls
        .filter(
          (c) =>
            contractOf.get(c.callTxHash) === id ||
            Object.entries(c.internalTx).some(
              ([f, v]) => f.endsWith('_id') && key(v) === key(id) && !(ownedOnly && f === 'recipient_id'),
            ),
        )
        .map((c) => `${c.callTxHash} ${c.localIdx}`)
        .reverse();
    const spends = calls.filter((c) => c.function === 'Chain.spend');
    const paid = String(spends[0]!.internalTx.recipient_id);
    const contract = contractOf.get(spends[0]!.callTxHash)!;
    const listed = async (id: string, query = ''): Promise<Obj[]> =>
      (await v3.walk(`/mdw/v3/accounts/${id}/activities?type=contract&limit=4${query}`)).filter(
        (a) => a.type === 'InternalContractCallEvent',
      );
    const byCall = new Map(
      (await v3.walk('/mdw/v3/contracts/calls?limit=100')).map((c) => [
        `${String(c.call_tx_hash)} ${String(c.local_idx)}`,
        c,
      ]),
    );
    for (const id of [paid, contract]) {
      const items = await listed(id);
      const at = items.map((a) => `${String((a.payload as Obj).call_tx_hash)} ${String((a.payload as Obj).local_idx)}`);
      expect(at, id).to.deep.equal(concerning(id, false));
      expect(at.length, id).to.be.above(0);
      // each payload is the call as /v3/contracts/calls serves it, in the item's block
      for (const [i, a] of items.entries()) {
        expect(a.payload).to.deep.equal(byCall.get(at[i]!));
        expect(a.block_hash).to.equal((a.payload as Obj).block_hash);
      }
      const owned = (await listed(id, '&owned_only=true')).map(
        (a) => `${String((a.payload as Obj).call_tx_hash)} ${String((a.payload as Obj).local_idx)}`,
      );
      expect(owned, `${id} owned_only`).to.deep.equal(concerning(id, true));
    }
    // the SDK reads them as its InternalContractCallEvent model
    const sdk = await v3.mdw.getAccountActivities(paid as `ak_${string}`, { type: 'contract', limit: 1 });
    expect(sdk.data[0]).to.deep.include({ type: 'InternalContractCallEvent' });
    expect(sdk.data[0]!.payload).to.have.property('callTxHash', concerning(paid, false)[0]!.split(' ')[0]);
  }

  /**
   * contractNamesMatch checks each name the registrar acted on: its history lists each of its AENS calls as ae_mdw
   * does (the calling transaction, `internal_source`, the internal call's transaction without type and version), in
   * chain order; a name in auction is an auction with the contract's claim; a claimed name's owner, pointers and
   * expiry are the devnode's name's. A name a call no dry-run can tell acted on (a gap) is not compared.
   */
  async function contractNamesMatch(): Promise<void> {
    await stored();
    const { transactions } = await v3.truth();
    const { calls, gaps } = await fullTruth();
    const aens = calls.filter((c) => c.function.startsWith('AENS.'));
    const registrar = String((transactions.find((t) => t.hash === aens[0]!.callTxHash)!.signed.tx as Obj).contract_id);
    // the names the gaps' calls to the registrar name (each function's first argument)
    const untold = new Set(
      transactions
        .filter((t) => gaps.includes(`${t.height}-${t.microIndex}-${t.txIndex}`))
        .map((t) => {
          const tx = t.signed.tx as Obj;
          return ['GAMetaTx', 'PayingForTx'].includes(String(tx.type)) ? ((tx.tx as Obj).tx as Obj) : tx;
        })
        .filter((tx) => tx.contract_id === registrar)
        .map((tx) => nameId(Buffer.from(decodeCallData(String(tx.call_data)).args[0] as Uint8Array).toString('utf8'))),
    );
    const plain = new Map(
      aens
        .filter((c) => c.function === 'AENS.claim')
        .map((c) => [nameId(String(c.internalTx.name)), String(c.internalTx.name)]),
    );
    const byName = new Map<string, typeof aens>();
    for (const c of aens) {
      const id = c.function === 'AENS.claim' ? nameId(String(c.internalTx.name)) : String(c.internalTx.name_id);
      if (!untold.has(id)) byName.set(id, [...(byName.get(id) ?? []), c]);
    }
    expect(byName.size, 'names a contract acted on').to.be.above(1);
    const event = (c: (typeof aens)[number]): Record<string, unknown> => {
      const { type: _t, version: _v, ...tx } = c.internalTx;
      return {
        source_tx_hash: c.callTxHash,
        source_tx_type: 'ContractCallTx',
        internal_source: true,
        height: c.height,
        block_hash: c.blockHash,
        tx,
      };
    };
    const pick = (e: Obj): Record<string, unknown> => ({
      source_tx_hash: e.source_tx_hash,
      source_tx_type: e.source_tx_type,
      internal_source: e.internal_source,
      height: e.height,
      block_hash: e.block_hash,
      tx: e.tx,
    });
    const seen = { auction: 0, revoked: 0, claimed: 0, pointed: 0 };
    for (const [id, events] of byName) {
      const name = plain.get(id)!;
      const node = await fetch(`${v3.devnode.externalUrl}/v3/names/${name}`);
      const served = await v3.get(`/mdw/v3/names/${name}`);
      if (node.status === 404 && served.status === 404) {
        // in auction: the contract's claim opened it
        expect((await v3.get(`/mdw/v3/names/auctions/${name}`)).status, name).to.equal(200);
        const claims = await v3.walk(`/mdw/v3/names/auctions/${name}/claims?direction=forward`);
        expect(claims.map(pick), name).to.deep.equal(events.map(event));
        seen.auction++;
        continue;
      }
      const history = (await v3.walk(`/mdw/v3/names/${id}/history?direction=forward`)).filter((e) => 'tx' in e);
      expect(history.map(pick), name).to.deep.equal(events.map(event));
      const claims = await v3.walk(`/mdw/v3/names/${name}/claims?direction=forward`);
      expect(claims.map(pick), name).to.deep.equal(events.filter((c) => c.function === 'AENS.claim').map(event));
      // its `claims` activities: NameClaimEvent with the calling transaction and the claim, as ae_mdw
      const activities = await v3.walk(`/mdw/v3/accounts/${id}/activities?type=claims&direction=forward`);
      expect(
        activities.map((a) => ({ ...(a.payload as Obj), micro_time: undefined })),
        name,
      ).to.deep.equal(
        claims.map((c) => ({
          micro_time: undefined,
          source_tx_hash: c.source_tx_hash,
          source_tx_type: 'NameClaimTx',
          tx: c.tx,
        })),
      );
      const body = served.body as Obj;
      if (node.status === 404) {
        expect(events.at(-1)!.function, name).to.equal('AENS.revoke');
        expect(body.active, name).to.equal(false);
        seen.revoked++;
        continue;
      }
      const truth = (await node.json()) as Obj;
      expect((body.ownership as Obj).current, name).to.equal(truth.owner);
      expect(body.expire_height, name).to.equal(truth.ttl);
      expect(
        (body.pointers as Obj[]).map((p) => ({ key: p.key, id: p.id })),
        name,
      ).to.deep.equal((truth.pointers as Obj[]).map((p) => ({ key: p.key, id: p.id })));
      // a name the contract holds and pointed: listed among its target's pointees with the contract's last update
      const pointed = events.filter((c) => c.function === 'AENS.update').at(-1);
      if (truth.owner === reprefix(registrar, 'ak') && pointed !== undefined)
        for (const p of truth.pointers as Obj[]) {
          const pointees = await v3.walk(`/mdw/v3/accounts/${String(p.id)}/names/pointees`);
          expect(
            pointees.filter((e) => e.name === name).map((e) => [e.key, e.source_tx_hash, e.source_tx_type]),
            name,
          ).to.deep.equal([[p.key, pointed.callTxHash, 'ContractCallTx']]);
          seen.pointed++;
        }
      seen.claimed++;
    }
    // the claims the contract's account made, in pages, among /v3/accounts/{id}/names/claims
    const claimed = aens.filter((c) => c.function === 'AENS.claim');
    const account = String(claimed[0]!.internalTx.account_id);
    // the name fee each booked on the contract's account at its call: a 13+ name's locked, an auctioned one's spent
    // (an auction's lock at the key block after its end, of the winning bid, is not a claim's)
    const auctioned = (c: (typeof claimed)[number]): boolean =>
      String(c.internalTx.name).length - '.chain'.length <= 12;
    const locking = new Set(claimed.filter((c) => !auctioned(c)).map((c) => c.callTxHash));
    const fees = await v3.walk(`/mdw/v3/transfers?account=${account}&kind=fee_&direction=forward`);
    expect(
      fees
        .filter(
          (t) => t.kind === 'fee_spend_name' || (t.kind === 'fee_lock_name' && locking.has(String(t.ref_tx_hash))),
        )
        .map((t) => [t.ref_tx_hash, t.kind, String(t.amount)]),
    ).to.deep.equal(
      claimed.map((c) => [
        c.callTxHash,
        auctioned(c) ? 'fee_spend_name' : 'fee_lock_name',
        String(c.internalTx.name_fee),
      ]),
    );
    const listed = await v3.walk(`/mdw/v3/accounts/${account}/names/claims?direction=forward&limit=3`);
    expect(listed.map(pick)).to.deep.equal(claimed.map(event));
    expect((await v3.walk(`/mdw/v3/accounts/${account}/names/claims?limit=2`)).map(pick)).to.deep.equal(
      claimed.map(event).reverse(),
    );
    expect(seen.auction, 'auctions a contract opened').to.be.above(0);
    expect(seen.claimed, 'names a contract holds or gave away').to.be.above(0);
    expect(seen.pointed, 'names a contract holds and pointed').to.be.above(0);
  }

  it("follows the AE of the contracts' accounts as the devnode has it: the registrar's name fees, the DEX's AE", async () => {
    await stored();
    for (let i = 0; i < 300; i++) {
      const { rows } = await v3.pool.query("SELECT 1 FROM derive_backfill WHERE area = 'balances'");
      if (rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const chain = v3.devnode.chain;
    const heights = Array.from({ length: chain.height + 1 }, (_, h) => h);
    expect(await aeBalancesApart(v3.pool, chain, heights)).to.deep.equal([]);
    // the name fees a contract paid from its own account (AENS.claim's), derived where they were paid
    const contracts = [...devnodeContractAccounts(chain)];
    const { rows } = await v3.pool.query<{ kind: string }>(
      'SELECT DISTINCT kind FROM account_balance_changes WHERE account_id = ANY($1) ORDER BY kind',
      [contracts],
    );
    expect(rows.map((r) => r.kind)).to.include.members(['AENS.claim', 'Call.amount', 'Chain.spend', 'ContractCallTx']);
  });

  it('serves the names a contract acted on through AENS as ae_mdw does: claims, history, owner, auctions', async () => {
    await contractNamesMatch();
  });

  it('says in /v3/status which heights hold calls no dry-run told, per reason (mdw_incomplete_areas)', async () => {
    const { gaps } = await stored();
    const heights = gaps.map((g) => Number(g.split('-')[0]));
    const { body } = await v3.get('/mdw/v3/status');
    const areas = (body as { mdw_incomplete_areas: Obj[] }).mdw_incomplete_areas;
    expect(areas.reduce((n, a) => n + Number(a.calls), 0)).to.equal(gaps.length);
    expect(Math.min(...areas.map((a) => Number(a.first_height)))).to.equal(Math.min(...heights));
    expect(Math.max(...areas.map((a) => Number(a.last_height)))).to.equal(Math.max(...heights));
    const { rows } = await v3.pool.query<{ reason: string; calls: number }>(
      'SELECT reason, count(*)::int AS calls FROM contract_internal_call_gaps GROUP BY reason ORDER BY reason',
    );
    expect(areas.map((a) => ({ reason: a.reason, calls: a.calls }))).to.deep.equal(rows);
  });

  it("lists an id's internal calls as its `contract` activities, InternalContractCallEvent as ae_mdw", async () => {
    await contractActivitiesMatch();
  });

  it('replaces the internal calls of the heights a fork replaced', async () => {
    await v3.devnode.fork(6);
    expect(await stored()).to.deep.equal(await expected());
    await contractActivitiesMatch();
    const { body } = await v3.get('/mdw/v3/status');
    const areas = (body as { mdw_incomplete_areas: Obj[] }).mdw_incomplete_areas;
    expect(areas.reduce((n, a) => n + Number(a.calls), 0)).to.equal((await expected()).gaps.length);
    await contractNamesMatch();
  });

  it('reloads (-H) the internal calls of heights whose rows were spoiled, exactly', async () => {
    const [first] = (await expected()).calls;
    const h = first!.height;
    await v3.pool.query('DELETE FROM contract_internal_calls WHERE height = $1', [h]);
    await v3.pool.query(
      `INSERT INTO contract_internal_calls VALUES ($1, 99, 0, 0, 'Chain.spend', '{}', 'ct_spoiled'),
                                                 ($2, 99, 0, 0, 'Chain.spend', '{}', 'ct_spoiled')`,
      [h, h + 1],
    );
    await v3.withoutPopulator(() => reloadHeights({ cfg: loadConfig(v3.settings), log: silentLog }, [h, h + 1]));
    expect(await stored()).to.deep.equal(await expected());
    await contractActivitiesMatch();
    // the name events of a contract's AENS call spoiled too: a reload of its height writes them again
    const [claim] = (await expected()).calls.filter((c) => c.function === 'AENS.claim');
    await v3.pool.query('DELETE FROM name_events WHERE height = $1 AND local_idx IS NOT NULL', [claim!.height]);
    await v3.withoutPopulator(() => reloadHeights({ cfg: loadConfig(v3.settings), log: silentLog }, [claim!.height]));
    await contractNamesMatch();
  });
});
