import { expect } from 'chai';
import { Ajv } from 'ajv';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { channelId, contractId, oracleId } from '../../../src/chain/derived-ids.ts';
import { readFile } from 'node:fs/promises';
import { buildTx, Tag } from '@aeternity/aepp-sdk';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { contractsOf } from '../../support/devnode-contracts.ts';
import { stringifyJson, toBigInt, type Json } from '../../../src/chain/json.ts';
import { bareForm } from '../../support/bare-form.ts';
import { V3_SCHEMAS, responseSchema } from '../../../src/api/mdw/rest/api-document.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { startV3, type ChainTruth, type ChainTx, type V3UnderTest } from './harness.ts';
import { canonicalOf, kindsOf } from '../../support/typed-oracle.ts';

type Obj = { [key: string]: Json };

describe('/v3 oracles, channels and contracts, checked against the devnode chain', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  const walk = (path: string): Promise<Obj[]> => v3.walk(path);
  const txOf = (t: ChainTx): Obj => t.signed.tx as Obj;
  const ofType = (type: string): ChainTx[] => chain.transactions.filter((t) => txOf(t).type === type);
  const newestFirst = (txs: ChainTx[]): string[] => txs.map((t) => t.hash).reverse();

  before(async () => {
    v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  it('serves every registered oracle with its queries, responses and extensions as on chain', async () => {
    const registers = ofType('OracleRegisterTx');
    expect(registers.length, 'the generated chain registers oracles').to.be.above(0);
    const ids = [...new Set(registers.map((t) => oracleId(String(txOf(t).account_id))))];
    for (const id of ids) {
      const oracle = (await v3.get(`/mdw/v3/oracles/${id}`)).body as Obj;
      expect(oracle.oracle).to.equal(id);
      const own = (type: string): ChainTx[] => ofType(type).filter((t) => txOf(t).oracle_id === id);
      expect(oracle.register_tx_hash).to.equal(
        registers.filter((t) => oracleId(String(txOf(t).account_id)) === id).at(-1)!.hash,
      );
      expect((await walk(`/mdw/v3/oracles/${id}/queries?limit=3`)).map((q) => q.source_tx_hash)).to.deep.equal(
        newestFirst(own('OracleQueryTx')),
      );
      expect((await walk(`/mdw/v3/oracles/${id}/responses?limit=3`)).map((q) => q.source_tx_hash)).to.deep.equal(
        newestFirst(own('OracleRespondTx')),
      );
      expect((await walk(`/mdw/v3/oracles/${id}/extends?limit=3`)).map((q) => q.source_tx_hash)).to.deep.equal(
        newestFirst(own('OracleExtendTx')),
      );
    }
    const active = await walk('/mdw/v3/oracles?state=active&limit=2');
    const inactive = await walk('/mdw/v3/oracles?state=inactive&limit=2');
    expect([...active, ...inactive].map((o) => o.oracle).sort()).to.deep.equal([...ids].sort());
    const sdk = await v3.mdw.getOracle(ids[0]! as `ok_${string}`);
    expect(sdk.oracle).to.equal(ids[0]);
  });

  it('serves every channel with its updates count and delegates, and lists open ones', async () => {
    const creates = ofType('ChannelCreateTx');
    expect(creates.length, 'the generated chain opens channels').to.be.above(0);
    expect(ofType('ChannelSetDelegatesTx').length, 'the generated chain sets delegates').to.be.above(0);
    const open: string[] = [];
    for (const t of creates) {
      const tx = txOf(t);
      const id = channelId(String(tx.initiator_id), toBigInt(tx.nonce), String(tx.responder_id));
      const channel = (await v3.get(`/mdw/v3/channels/${id}`)).body as Obj;
      const own = chain.transactions.filter((x) => x === t || txOf(x).channel_id === id);
      expect(channel.updates_count, id).to.equal(own.length);
      expect(channel.last_updated_tx_hash).to.equal(own.at(-1)!.hash);
      // the delegates its latest ChannelSetDelegatesTx names (issue 39), else its creation's
      const set = own.filter((x) => txOf(x).type === 'ChannelSetDelegatesTx').at(-1);
      expect(channel.delegate_ids, id).to.deep.equal(
        set
          ? { initiator: txOf(set).initiator_delegate_ids, responder: txOf(set).responder_delegate_ids }
          : tx.delegate_ids,
      );
      if (channel.active) open.push(id);
    }
    expect((await walk('/mdw/v3/channels?state=active&limit=2')).map((c) => c.channel).sort()).to.deep.equal(
      open.sort(),
    );
  });

  it('lists every contract the chain creates (ContractCreateTx and GAAttachTx merged), both ways, page by page', async () => {
    const creations = chain.transactions.filter((t) =>
      ['ContractCreateTx', 'GAAttachTx'].includes(String(txOf(t).type)),
    );
    expect(new Set(creations.map((t) => txOf(t).type)).size, 'both types on the chain').to.equal(2);
    const newest = newestFirst(creations);
    expect((await walk('/mdw/v3/contracts?limit=3')).map((c) => c.source_tx_hash)).to.deep.equal(newest);
    const forward = await walk('/mdw/v3/contracts?direction=forward&limit=4');
    expect(forward.map((c) => c.source_tx_hash)).to.deep.equal([...newest].reverse());
    // a scope: the creations of its heights only, forward from its lower end (as ae_mdw reads `gen:low-high`)
    const [from, to] = [creations[1]!.height, creations.at(-2)!.height];
    const scoped = await walk(`/mdw/v3/contracts?scope=gen:${from}-${to}&limit=2`);
    expect(scoped.map((c) => c.source_tx_hash)).to.deep.equal(
      creations.filter((t) => t.height >= from && t.height <= to).map((t) => t.hash),
    );
    const backwards = await walk(`/mdw/v3/contracts?scope=gen:${to}-${from}&limit=2`);
    expect(backwards.map((c) => c.source_tx_hash)).to.deep.equal(scoped.map((c) => c.source_tx_hash).reverse());
  });

  it('serves every contract by id and lists every call log as the node reports it', async () => {
    const creates = ofType('ContractCreateTx');
    expect(creates.length, 'the generated chain creates contracts').to.be.above(0);
    for (const t of creates) {
      const id = contractId(String(txOf(t).owner_id), toBigInt(txOf(t).nonce));
      const contract = await v3.mdw.getContract(id as `ct_${string}`);
      expect(contract.sourceTxHash).to.equal(t.hash);
    }
    // every stored call's log: creates and calls, also those a GAMetaTx or a PayingForTx wraps
    const isContractTx = (tx: Obj): boolean => tx.type === 'ContractCallTx' || tx.type === 'ContractCreateTx';
    const wrapped = (tx: Obj): Obj | undefined => ((tx.tx as Obj | undefined)?.tx as Obj | undefined) ?? undefined;
    const expected: string[] = [];
    const nodeLogs = new Map<string, Obj[]>();
    for (const t of chain.transactions) {
      const tx = txOf(t);
      const inner = wrapped(tx);
      if (!isContractTx(tx) && !(inner && isContractTx(inner))) continue;
      const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as Obj;
      const ga = info.ga_info as Obj | undefined;
      const callInfo = (info.call_info ?? (ga?.inner_object as Obj | undefined)?.call_info) as Obj | undefined;
      const log = (callInfo?.log as Obj[] | undefined) ?? [];
      for (const _ of log) expected.push(t.hash);
      nodeLogs.set(t.hash, log);
    }
    const logs = await walk('/mdw/v3/contracts/logs?direction=forward&limit=7');
    expect(logs.map((l) => l.call_tx_hash)).to.deep.equal(expected);
    // a call's events are numbered from its oldest (the node lists them newest first), as ae_mdw numbers them
    for (const hash of new Set(expected)) {
      const own = logs.filter((l) => l.call_tx_hash === hash);
      expect(
        own.map((l) => l.log_idx),
        hash,
      ).to.deep.equal(own.map((_, i) => i));
      const oldestFirst = [...nodeLogs.get(hash)!].reverse();
      expect(
        own.map((l) => l.args),
        hash,
      ).to.deep.equal(oldestFirst.map((e) => (e.topics as Json[]).slice(1).map((x) => String(x))));
    }
  });

  it('lists every contract call the chain holds, decoded, by contract, caller and function, through the SDK', async () => {
    // the truth: every ContractCallTx and ContractCreateTx, also inside a GAMetaTx or a PayingForTx
    const calls: { hash: string; tx: Obj; blockHash: string; height: number }[] = [];
    for (const t of chain.transactions) {
      for (let tx: Obj | undefined = txOf(t); tx; tx = (tx.tx as Obj | undefined)?.tx as Obj | undefined) {
        if (tx.type === 'ContractCallTx' || tx.type === 'ContractCreateTx') {
          calls.push({ hash: t.hash, tx, blockHash: t.blockHash, height: t.height });
          break;
        }
      }
    }
    expect(calls.length, 'the generated chain calls contracts').to.be.above(10);
    const contractOf = (tx: Obj): string =>
      tx.type === 'ContractCallTx' ? String(tx.contract_id) : contractId(String(tx.owner_id), toBigInt(tx.nonce));
    const codes = new Map(
      calls.filter((c) => c.tx.type === 'ContractCreateTx').map((c) => [contractOf(c.tx), String(c.tx.code)]),
    );
    const listed = await walk('/mdw/v3/contracts/call-transactions?direction=forward&limit=9');
    expect(listed.map((c) => c.call_tx_hash)).to.deep.equal(calls.map((c) => c.hash));
    const kinds = new Set<string>();
    const outcomes = new Set<string>();
    for (const [i, c] of listed.entries()) {
      const truth = calls[i]!;
      expect(c).to.deep.include({
        contract_id: contractOf(truth.tx),
        block_hash: truth.blockHash,
        height: truth.height,
        local_idx: 0,
      });
      const internal = c.internal_tx as Obj;
      expect(internal.type).to.equal(truth.tx.type);
      expect(internal.call_data).to.equal(truth.tx.call_data);
      // the entrypoint and its arguments, as aepp-calldata decodes the call data from the contract's bytecode
      const code = codes.get(contractOf(truth.tx));
      if (code === undefined) continue;
      const decoded = new BytecodeContractCallEncoder(code as `cb_${string}`).decodeCall(
        String(truth.tx.call_data) as `cb_${string}`,
      ) as {
        functionName: string;
        args: unknown[];
      };
      expect(c.function, c.call_tx_hash as string).to.equal(decoded.functionName);
      // ae_mdw's typed form: each argument `{type, value}`, the value the library's decoding of the same bytes
      const args = internal.arguments as Json[];
      expect(args.map(canonicalOf), c.call_tx_hash as string).to.deep.equal(decoded.args);
      for (const arg of args) for (const kind of kindsOf(arg)) kinds.add(kind);
      // the outcome as ae_mdw's ContractCall record holds it: a revert is an ok call returning `invalid`
      const info = (await v3.nodeGet(`/v2/transactions/${truth.hash}/info`)) as Obj;
      const callInfo = (info.call_info ?? ((info.ga_info as Obj | undefined)?.inner_object as Obj)?.call_info) as Obj;
      const returnType = String(callInfo.return_type);
      outcomes.add(returnType);
      expect(internal.return_type).to.equal(returnType);
      if (returnType === 'ok') {
        expect(internal.result).to.equal('ok');
        const returned = new ContractByteArrayEncoder().decode(String(callInfo.return_value) as `cb_${string}`);
        expect(canonicalOf(internal.return as Json), c.call_tx_hash as string).to.deep.equal(returned);
        for (const kind of kindsOf(internal.return as Json)) kinds.add(kind);
      } else if (returnType === 'revert') expect([internal.result, internal.return]).to.deep.equal(['ok', 'invalid']);
      else expect([internal.result, internal.return]).to.deep.equal(['invalid', null]);
      // a ContractCallTx is the same in /mdw/v3/transactions; a ContractCreateTx has its args typed at the top
      const one = (await v3.get(`/mdw/v3/transactions/${truth.hash}`)).body as Obj;
      let tx = one.tx as Obj;
      while (tx.type !== truth.tx.type) tx = (tx.tx as Obj).tx as Obj;
      if (tx.type === 'ContractCallTx')
        expect({ arguments: tx.arguments, result: tx.result, return: tx.return }).to.deep.equal({
          arguments: internal.arguments,
          result: internal.result,
          return: internal.return,
        });
      // (ae_mdw leaves a create inside a GAMetaTx or PayingForTx as the node shows it)
      else if (tx === one.tx)
        expect((tx.args as Obj[]).map((a) => a.type)).to.deep.equal(args.map((a) => (a as Obj).type));
      // the outcome ae_mdw adds to either, the node's: what a page reads of the stored call info
      if (tx.type === 'ContractCallTx' || tx === one.tx)
        expect(
          { gas_used: tx.gas_used, return_type: tx.return_type, log: tx.log, created: tx.return_value },
          truth.hash,
        ).to.deep.equal({
          gas_used: callInfo.gas_used,
          return_type: callInfo.return_type,
          log: callInfo.log,
          created: tx.type === 'ContractCreateTx' ? callInfo.return_value : undefined,
        });
    }
    expect([...outcomes], 'calls that returned').to.include('ok');
    expect([...kinds], "the kinds the chain's calls carry").to.include.members([
      'int',
      'string',
      'address',
      'contract',
      'map',
      'variant',
      'unit',
    ]);
    // filters, ANDed: a contract, a caller, a function; newest first through the SDK
    const sample = listed.find((c) => (c.internal_tx as Obj).type === 'ContractCallTx')!;
    const caller = String((sample.internal_tx as Obj).caller_id);
    const byContract = listed.filter((c) => c.contract_id === sample.contract_id);
    expect(
      await walk(`/mdw/v3/contracts/call-transactions?contract_id=${String(sample.contract_id)}&limit=3`),
    ).to.deep.equal([...byContract].reverse());
    const byCaller = listed.filter(
      (c) => (c.internal_tx as Obj).caller_id === caller || (c.internal_tx as Obj).owner_id === caller,
    );
    expect(await walk(`/mdw/v3/contracts/call-transactions?caller_id=${caller}&direction=forward`)).to.deep.equal(
      byCaller,
    );
    const fname = String(sample.function);
    expect(
      await walk(
        `/mdw/v3/contracts/call-transactions?function=${fname}&contract=${String(sample.contract_id)}&direction=forward`,
      ),
    ).to.deep.equal(byContract.filter((c) => c.function === fname));
    // the newest first, as the SDK's getContractCalls walks ae_mdw's internal calls (migration 1097)
    expect((await walk('/mdw/v3/contracts/call-transactions?limit=2')).map((c) => c.call_tx_hash)).to.deep.equal(
      [...listed].reverse().map((c) => c.call_tx_hash),
    );
    expect((await v3.get('/mdw/v3/contracts/call-transactions?contract_id=ak_x')).status).to.equal(400);
    expect((await v3.get('/mdw/v3/contracts/call-transactions?foo=bar')).body).to.deep.equal({
      error: 'invalid query: foo=bar',
    });
  });

  it('decodes again, on upgrade, the calls a database stored in the bare form (migration 1009, the calls area)', async () => {
    const stored = async (): Promise<unknown[]> =>
      (
        await v3.pool.query(
          `SELECT tx_hash, function, arguments::text, result::text, decode_error FROM contract_calls ORDER BY tx_hash`,
        )
      ).rows;
    const typed = await stored();
    const served = await walk('/mdw/v3/contracts/call-transactions?direction=forward&limit=100');
    // the form the in-process decoder stored before: the library's values, bare (`[415424]`, `true`)
    const rows = (
      await v3.pool.query<{ tx_hash: string; contract_id: string }>(
        'SELECT tx_hash, contract_id FROM contract_calls WHERE decode_error IS NULL',
      )
    ).rows;
    expect(rows.length, 'decoded calls').to.be.above(10);
    for (const { tx_hash, contract_id } of rows) {
      let tx = ((await v3.nodeGet(`/v2/transactions/${tx_hash}`)) as Obj).tx as Obj;
      while (tx.type !== 'ContractCallTx' && tx.type !== 'ContractCreateTx') tx = (tx.tx as Obj).tx as Obj;
      const { bytecode } = (await v3.nodeGet(`/v2/contracts/${contract_id}/code`)) as { bytecode: string };
      const { args } = new BytecodeContractCallEncoder(bytecode as `cb_${string}`).decodeCall(
        String(tx.call_data) as `cb_${string}`,
      ) as { args: unknown[] };
      await v3.pool.query('UPDATE contract_calls SET arguments = $2::jsonb, result = NULL WHERE tx_hash = $1', [
        tx_hash,
        stringifyJson(bareForm(args)),
      ]);
    }
    expect(await stored()).to.not.deep.equal(typed);
    // the upgrade: the migration records every height with calls for the populator's calls area
    await v3.pool.query(await readFile(new URL('../../../migrations/1009_calls_typed.sql', import.meta.url), 'utf8'));
    for (let i = 0; i < 400; i++) {
      if ((await v3.pool.query('SELECT 1 FROM derive_backfill')).rows.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await v3.pool.query('SELECT area, last_error FROM derive_backfill')).rows).to.deep.equal([]);
    expect(await stored()).to.deep.equal(typed);
    expect(await walk('/mdw/v3/contracts/call-transactions?direction=forward&limit=100')).to.deep.equal(served);
  });

  it('sends a reverted call as ae_mdw does: an ok result returning `invalid`; /middleware keeps the reason', async () => {
    const token = contractsOf(v3.devnode, 'aex9')[0]!;
    const caller = v3.devnode.accounts[0]!.publicKey as `ak_${string}`;
    const { next_nonce: nonce } = (await v3.nodeGet(`/v2/accounts/${caller}/next-nonce`)) as { next_nonce: number };
    // more than any account holds: the token reverts with its reason
    const amount = 2n ** 200n;
    const callData = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`).encodeCall('transfer', [
      caller,
      amount,
    ]) as `cb_${string}`;
    const hash = await v3.submit(
      buildTx({
        tag: Tag.ContractCallTx,
        callerId: caller,
        nonce,
        contractId: token as `ct_${string}`,
        abiVersion: 3,
        amount: 0,
        gasLimit: 50_000,
        gasPrice: 1_000_000_000,
        callData,
        fee: 200_000_000_000_000,
      }),
    );
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const info = ((await v3.nodeGet(`/v2/transactions/${hash}/info`)) as Obj).call_info as Obj;
    expect(info.return_type).to.equal('revert');
    const reason = new ContractByteArrayEncoder().decode(String(info.return_value) as `cb_${string}`);
    const tx = ((await v3.get(`/mdw/v3/transactions/${hash}`)).body as Obj).tx as Obj;
    expect({
      arguments: tx.arguments,
      result: tx.result,
      return: tx.return,
      return_type: tx.return_type,
    }).to.deep.equal({
      arguments: [
        { type: 'address', value: caller },
        { type: 'int', value: amount },
      ],
      result: 'ok',
      return: 'invalid',
      return_type: 'revert',
    });
    const calls = (await v3.get(`/middleware/contracts/calls/address/${token}?limit=100`)).body as Obj[];
    const mine = calls.find((c) => c.transaction_id === hash)!;
    expect(mine.result).to.deep.equal({ type: 'string', value: reason });
  });

  it('answers these operations with their documented schemas', async () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
    const oracle = oracleId(String(txOf(ofType('OracleRegisterTx')[0]!).account_id));
    const create = ofType('ContractCreateTx')[0]!;
    const contract = contractId(String(txOf(create).owner_id), toBigInt(txOf(create).nonce));
    for (const op of V3_OPERATIONS.filter((o) => /^\/(oracles|contracts)/.test(o.path) || o.path === '/channels')) {
      const path = `/mdw/v3${op.path}`.replace('/oracles/{id}', `/oracles/${oracle}`).replace('{id}', contract);
      const res = await v3.get(path);
      expect(res.status, path).to.equal(200);
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components')),
      );
      expect(validate(JSON.parse(res.text)), `${path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });
});
