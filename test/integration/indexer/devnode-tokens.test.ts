/**
 * @module A generated devnode chain with tokens, NFTs and DEX swaps indexed by the populator: every
 * token call is stored with its function and arguments decoded (no decode_error), call infos keep
 * their logs digit for digit, and `mdw -v --full` finds no difference.
 */
import { expect } from 'chai';
import { decode } from '@aeternity/aepp-sdk';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { canonicalOf, kindsOf } from '../../support/typed-oracle.ts';
import { populateToTop } from '../../support/populate.ts';
import { startHarness, verifyClean, type Harness } from './support/harness.ts';

describe('devnode token chain through the populator', function () {
  this.timeout(180_000);
  let h: Harness;

  before(async () => {
    // the devnode's rewards (100 AE to each key block's beneficiary at once): under the default mainnet rules, paying
    // 180 blocks late, the derived AE balance of the beneficiary lacks every reward the devnode paid before
    // 100 generations, three transactions in ten of the token traffic: every function and argument kind the cases
    // ask for (they guard it), where 220 generations at the mix's one in ten loaded twice the blocks for them
    h = await startHarness(100, 'devnode-tokens', { tokenShare: 0.3 }, { REWARD_RULES: 'devnode' });
    // loaded and stopped: no case mines, and a populator left following would poll the node all the file long
    await populateToTop(h.config());
  });
  after(async () => {
    await h?.close();
  });

  it('decodes the function and arguments of every token, NFT and DEX call', async () => {
    const calls = await h.query<{ function: string | null; arguments: unknown; decode_error: string | null }>(
      'mdw',
      'SELECT function, arguments, decode_error FROM contract_calls',
    );
    expect(calls.filter((c) => c.decode_error !== null)).to.deep.equal([]);
    expect(new Set(calls.map((c) => c.function))).to.include.members([
      'init',
      'transfer',
      'mint',
      'create_allowance',
      'create_template',
      'template_mint',
      'deposit',
      'add_liquidity',
      'swap_exact_tokens_for_tokens',
    ]);
  });

  it('stores the arguments a transfer was called with', async () => {
    const rows = await h.query<{ tx_hash: string; arguments: string }>(
      'mdw',
      "SELECT tx_hash, arguments::text AS arguments FROM contract_calls WHERE function = 'transfer' AND jsonb_array_length(arguments) = 2",
    );
    expect(rows.length).to.be.greaterThan(10);
    for (const row of rows) {
      const info = h.devnode.chain.txs.get(row.tx_hash)!.callInfo as { log: { topics: bigint[] }[] };
      if (info.log.length === 0) continue; // a reverted transfer
      const [, , to, amount] = info.log[0]!.topics;
      // ae_mdw's typed form: each argument with its FATE kind
      const [storedTo, storedAmount] = parseJson(row.arguments) as [
        { type: string; value: string },
        { type: string; value: number | bigint },
      ];
      expect([storedTo.type, storedAmount.type], row.tx_hash).to.deep.equal(['address', 'int']);
      expect(BigInt(storedAmount.value), row.tx_hash).to.equal(amount);
      expect(BigInt(`0x${Buffer.from(decode(storedTo.value as `ak_${string}`)).toString('hex')}`)).to.equal(to);
    }
  });

  it("stores every call's arguments and return value in ae_mdw's typed form, as aepp-calldata decodes the bytes", async () => {
    const rows = await h.query<{ tx_hash: string; contract_id: string; arguments: string; result: string | null }>(
      'mdw',
      `SELECT tx_hash, contract_id, arguments::text AS arguments, result::text AS result FROM contract_calls
        ORDER BY height, micro_index, tx_index`,
    );
    const node = async (path: string): Promise<{ [k: string]: Json }> =>
      parseJson(await (await fetch(`${h.devnode.externalUrl}${path}`)).text()) as { [k: string]: Json };
    const codes = new Map<string, string>();
    const kinds = new Set<string>();
    const outcomes = new Set<string>();
    for (const row of rows) {
      let tx = (await node(`/v3/transactions/${row.tx_hash}`)).tx as { [k: string]: Json };
      while (tx.type !== 'ContractCallTx' && tx.type !== 'ContractCreateTx') tx = (tx.tx as typeof tx).tx as typeof tx;
      if (!codes.has(row.contract_id))
        codes.set(row.contract_id, String((await node(`/v3/contracts/${row.contract_id}/code`)).bytecode));
      const library = new BytecodeContractCallEncoder(codes.get(row.contract_id)! as `cb_${string}`);
      const { args } = library.decodeCall(String(tx.call_data) as `cb_${string}`) as { args: unknown[] };
      const stored = parseJson(row.arguments) as Json[];
      expect(stored.map(canonicalOf), row.tx_hash).to.deep.equal(args);
      for (const arg of stored) for (const kind of kindsOf(arg)) kinds.add(kind);
      const info = h.devnode.chain.txs.get(row.tx_hash)!.callInfo;
      if (info === undefined) continue;
      outcomes.add(String(info.return_type));
      const result = row.result === null ? null : parseJson(row.result);
      if (info.return_type === 'error') expect(result, row.tx_hash).to.equal(null);
      else {
        // a return value, or a revert's reason (a string), read by its own tags
        const bytes = new ContractByteArrayEncoder().decode(String(info.return_value) as `cb_${string}`);
        expect(canonicalOf(result), row.tx_hash).to.deep.equal(bytes);
        for (const kind of kindsOf(result)) kinds.add(kind);
        if (info.return_type === 'revert') expect((result as { type: string }).type).to.equal('string');
      }
    }
    expect([...outcomes], 'calls that returned').to.include('ok');
    expect([...kinds], "the kinds the chain's calls carry").to.include.members([
      'int',
      'bool',
      'string',
      'address',
      'contract',
      'list',
      'tuple',
      'map',
      'variant',
      'unit',
    ]);
  });

  it('keeps every call info with its logs as the node serves them, topics digit for digit', async () => {
    const rows = await h.query<{ tx_hash: string; log: string }>(
      'mdw',
      "SELECT tx_hash, (call_info->'log')::text AS log FROM contract_calls WHERE jsonb_array_length(call_info->'log') > 2",
    );
    expect(rows.length, 'calls logging from several contracts').to.be.greaterThan(3);
    type Log = { address: string; topics: (number | bigint)[]; data: string };
    const exact = (logs: Log[]): Log[] => logs.map((l) => ({ ...l, topics: l.topics.map((t) => BigInt(t)) }));
    for (const row of rows) {
      const info = h.devnode.chain.txs.get(row.tx_hash)!.callInfo as { log: Log[] };
      expect(exact(parseJson(row.log) as Log[])).to.deep.equal(exact(info.log));
    }
  });

  it('verifies clean against the devnode (mdw -v --full)', async () => {
    // its scratch load in batches of 100 heights (verifyClean's), not the load's 10: the derived rows compared come
    // from two batchings
    await verifyClean(h);
  });
});
