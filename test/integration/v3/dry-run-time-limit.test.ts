/**
 * @module Dry-runs that always pass the node's dry-run time limit (issue 88): a real node gives such a request up, 400
 * `Bad request: dry-run exceeded time limit`, however often it is asked. The devnode is told, before the populator
 * starts, that one contract call of its generated chain is that heavy to run again (Devnode.overTimeLimit), and one
 * token's `balances()` (Devnode.overTimeLimitCall). The populator reaches the node's top and follows on; the call
 * (and any call after it in its micro block, whose replay runs it too) is a gap of its own reason, shown in
 * /v3/status, never silently without internal calls nor asked for ever, and the token's balances are incomplete, its
 * meta info read; everything else is the devnode's own, and `mdw -v --full` finds no difference (the token a note).
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { aex9Tokens, ledgerBalances, wrappedAe } from '../../support/aex9-truth.ts';
import { silentLog } from '../api/harness.ts';
import { GAP } from '../../../src/indexer/derived/internal-calls.ts';
import { internalCallsTruth, type InternalCallsTruth } from '../../support/internal-calls-truth.ts';
import { perChainState, readChainTruth, startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

describe('dry-runs that always pass the dry-run time limit, over one chain', function () {
  this.timeout(600_000);
  const aex9 = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`);
  let v3: V3UnderTest;
  /** `height-micro-tx` of the call made heavy */
  let heavy = '';
  /** the token whose balances() is made heavy */
  let heavyToken = '';
  let truth: () => Promise<InternalCallsTruth>;
  /**
   * verified is the one `mdw -v --full` of the chain, run once the cases that change it ran: both areas' cases read it
   * (it was one run per area, each over a chain of its own)
   */
  let verified: Promise<{ differences: number; lines: string[] }> | undefined;
  const verifiedFull = (): Promise<{ differences: number; lines: string[] }> =>
    (verified ??= (async () => {
      const lines: string[] = [];
      const report = await verifyChain(
        { cfg: loadConfig(v3.settings), log: silentLog, out: (l) => lines.push(l) },
        { full: true },
      );
      return { differences: report.differences, lines };
    })());

  before(async function () {
    // a populator that asks the heavy replay for ever never reaches the top (the follower waits for its batch's
    // internal calls), nor one that asks the token's creation dry-run for ever its batch: no reason to wait the
    // file's whole timeout for it
    this.timeout(240_000);
    // one chain for both (it was a chain each): a call whose replay is heavy, and a token whose balances() is; each
    // area's cases check the rest of it exact (the calls but the one a gap, the tokens but the one complete)
    v3 = await startV3(
      40,
      'aex9-time-limit',
      async (devnode) => {
        // a call that makes internal calls (the populator asks it), the last contract call of its micro block: the
        // devnode told before the populator starts that running it again takes past the time limit
        const { transactions } = await readChainTruth(devnode);
        const { calls } = await internalCallsTruth(devnode, transactions);
        const isCall = (tx: Obj): boolean => ['ContractCallTx', 'ContractCreateTx'].includes(String(tx.type));
        const last = calls.find((c) =>
          transactions.every(
            (t) => t.blockHash !== c.blockHash || t.txIndex <= c.txIndex || !isCall(t.signed.tx as Obj),
          ),
        )!;
        heavy = `${last.height}-${last.microIndex}-${last.txIndex}`;
        devnode.overTimeLimit(last.callTxHash);
        heavyToken = [...aex9Tokens(devnode.chain)].find(([, kind]) => kind === 'aex9')![0];
        devnode.overTimeLimitCall(heavyToken, aex9.encodeCall('balances', []));
        return { DEX_WRAPPED_AE: wrappedAe(devnode.chain) };
      },
      // the node's refusal at a time limit of 1 s, not its default 3 s: each of the populator's and -v's rounds of the
      // heavy call waits for it (the file took 94 s of wall, two thirds of it waiting)
      { tokenShare: 0.5, dryRunTimeoutMs: 1000, verifyScratch: true },
    );
    truth = perChainState(v3.devnode, async () => internalCallsTruth(v3.devnode, (await v3.truth()).transactions));
  });
  after(async () => {
    await v3?.close();
  });

  describe('internal contract calls: a call whose replay always passes the dry-run time limit', function () {
    /** An internal call as stored: its call's place (`height-micro-tx`), its index, the function and the transaction. */
    type Row = { at: string; localIdx: number; function: string; internalTx: Obj };
    type Gap = { at: string; reason: string };

    /** stored reads the area's rows and gaps once the populator has the node's top and no int_calls height pending. */
    async function stored(): Promise<{ calls: Row[]; gaps: Gap[]; pending: number }> {
      await v3.synced();
      let pending = 0;
      for (let i = 0; i < 300; i++) {
        pending = (await v3.pool.query("SELECT 1 FROM derive_backfill WHERE area = 'int_calls'")).rowCount ?? 0;
        if (pending === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const calls = await v3.pool.query<{ at: string; l: number; f: string; tx: string }>(
        `SELECT height || '-' || micro_index || '-' || tx_index AS at, local_idx AS l, function AS f,
              internal_tx::text AS tx
         FROM contract_internal_calls ORDER BY height, micro_index, tx_index, local_idx`,
      );
      const gaps = await v3.pool.query<Gap>(
        `SELECT height || '-' || micro_index || '-' || tx_index AS at, reason FROM contract_internal_call_gaps
        ORDER BY height, micro_index, tx_index`,
      );
      const rows = calls.rows.map((r) => ({
        at: r.at,
        localIdx: r.l,
        function: r.f,
        internalTx: parseJson(r.tx) as Obj,
      }));
      return { calls: rows, gaps: gaps.rows, pending };
    }

    /** expected is what the devnode's own dry-runs tell: its calls as rows, its gaps each with the reason stored. */
    async function expected(): Promise<{ calls: Row[]; gaps: Gap[] }> {
      const t = await truth();
      const calls = t.calls.map((c) => ({
        at: `${c.height}-${c.microIndex}-${c.txIndex}`,
        localIdx: c.localIdx,
        function: c.function,
        internalTx: c.internalTx,
      }));
      const reason = (at: string): string =>
        t.timeLimited.includes(at) ? GAP.timeLimit : t.crashed.includes(at) ? GAP.crashed : '(wrapped)';
      return { calls, gaps: t.gaps.map((at) => ({ at, reason: reason(at) })) };
    }

    /** the gaps as stored, a wrapper's reasons (GAP.wrapped, GAP.afterWrapped) told as one, as the oracle tells them */
    const asTold = (gaps: Gap[]): Gap[] =>
      gaps.map((g) => ({
        at: g.at,
        reason: g.reason === GAP.wrapped || g.reason === GAP.afterWrapped ? '(wrapped)' : g.reason,
      }));

    it('reaches the top with the call a gap of the time limit, every other call as the devnode tells it', async () => {
      const t = await truth();
      expect(t.timeLimited, 'the devnode gives the heavy call up, and no other').to.deep.equal([heavy]);
      expect(t.calls.length, 'calls told besides').to.be.above(0);
      const got = await stored();
      expect(got.pending, "int_calls' heights pending").to.equal(0);
      expect({ calls: got.calls, gaps: asTold(got.gaps) }).to.deep.equal(await expected());
      // a gap, not a call without internal calls: none stored for it
      expect(got.calls.filter((c) => c.at === heavy)).to.deep.equal([]);
      expect(got.gaps.filter((g) => g.reason === GAP.timeLimit).map((g) => g.at)).to.deep.equal([heavy]);
    });

    it('says so in /v3/status: the reason counted in mdw_incomplete_areas, no area failing', async () => {
      await stored();
      const { body } = await v3.get('/mdw/v3/status');
      const status = body as { mdw_incomplete_areas: Obj[]; mdw_failed_areas: Obj[]; mdw_synced: boolean };
      const height = Number(heavy.split('-')[0]);
      expect(status.mdw_incomplete_areas.find((a) => a.reason === GAP.timeLimit)).to.deep.equal({
        area: 'int_calls',
        reason: GAP.timeLimit,
        calls: 1,
        first_height: height,
        last_height: height,
      });
      expect(status.mdw_failed_areas).to.deep.equal([]);
      expect(status.mdw_synced).to.equal(true);
    });

    it('follows the chain on past it: new blocks stored, the area none of their heights pending', async () => {
      const before = v3.devnode.height();
      await v3.spend(v3.devnode.accounts[1]!.publicKey, 1);
      await v3.devnode.mineKeyBlock();
      await v3.devnode.mineKeyBlock();
      expect(v3.devnode.height()).to.equal(before + 2);
      const got = await stored();
      expect(got.pending).to.equal(0);
      expect({ calls: got.calls, gaps: asTold(got.gaps) }).to.deep.equal(await expected());
      const { rows } = await v3.pool.query<{ height: number }>('SELECT max(height)::int AS height FROM key_blocks');
      expect(rows[0]!.height).to.equal(before + 2);
    });

    it('is consistent with `mdw -v --full`: the gap derived again as a gap, no difference', async () => {
      await stored();
      const { differences, lines } = await verifiedFull();
      expect(differences, lines.join('\n')).to.equal(0);
      // the heavy token's note is the other area's (its cases)
      expect(lines.filter((l) => !l.startsWith(`aex9 ${heavyToken}: `))).to.deep.equal([]);
    });
  });

  describe('AEX-9 balances: a token whose balances() always passes the dry-run time limit', function () {
    before(async () => {
      await v3.synced();
    });

    it('stores the token with its meta info as the node answers it, its balances incomplete; the others exact', async () => {
      const tokens = ((await v3.get('/mdw/v3/aex9?limit=100')).body as { data: Obj[] }).data;
      const token = tokens.find((t) => t.contract_id === heavyToken)!;
      // the meta info, read at the creation block without balances(): the devnode's own answer at the top
      const res = await fetch(`${v3.devnode.externalUrl}/v3/dry-run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stringifyJson({
          txs: [{ call_req: { contract: heavyToken, calldata: aex9.encodeCall('meta_info', []), abi_version: 3 } }],
        }),
      });
      const answer = parseJson(await res.text()) as { results: { call_obj: { return_value: `cb_${string}` } }[] };
      // the record's fields in order (the devnode's bytecode names none): name, symbol, decimals
      const [name, symbol, decimals] = aex9.decodeResult('meta_info', answer.results[0]!.call_obj.return_value) as [
        string,
        string,
        bigint,
      ];
      expect(token).to.deep.include({
        name,
        symbol,
        decimals: Number(decimals),
        invalid: false,
        incomplete: true,
      });
      const ledger = ledgerBalances(v3.devnode.chain);
      const others = tokens.filter((t) => t.contract_id !== heavyToken);
      expect(others.length, 'tokens besides').to.be.above(0);
      for (const t of others) {
        const id = String(t.contract_id);
        expect(t, id).to.not.have.property('incomplete');
        const holders = ((await v3.get(`/mdw/v3/aex9/${id}/balances?limit=100`)).body as { data: Obj[] }).data;
        expect(new Map(holders.map((h) => [String(h.account_id), BigInt(h.amount as number | bigint)]))).to.deep.equal(
          new Map(
            [...ledger].filter(([k]) => k.startsWith(`${id} `)).map(([k, v]) => [k.slice(id.length + 1), v] as const),
          ),
        );
      }
      const { body } = await v3.get('/mdw/v3/status');
      expect((body as { mdw_failed_areas: Obj[] }).mdw_failed_areas).to.deep.equal([]);
    });

    it('is noted by `mdw -v --full` as unverifiable for the time limit, no difference', async () => {
      const { differences, lines } = await verifiedFull();
      expect(differences, lines.join('\n')).to.equal(0);
      expect(lines.filter((l) => l.includes('unverifiable'))).to.have.length(1);
      expect(lines.find((l) => l.includes('unverifiable'))).to.match(
        new RegExp(
          `^aex9 ${heavyToken}: unverifiable: TIME LIMIT: every node gave a dry-run at mh_\\w+ up at its time limit`,
        ),
      );
    });
  });
});
