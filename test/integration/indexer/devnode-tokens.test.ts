/**
 * @module A generated devnode chain with tokens, NFTs and DEX swaps indexed by the populator: every
 * token call is stored with its function and arguments decoded (no decode_error), call infos keep
 * their logs digit for digit, and `mdw -v --full` finds no difference.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { decode } from '@aeternity/aepp-sdk';
import { parseJson } from '../../../src/chain/json.ts';
import { startHarness, silent, verifyClean, type Harness } from './support/harness.ts';

describe('devnode token chain through the populator', function () {
  this.timeout(180_000);
  let h: Harness;
  let populator: Populator | undefined;

  before(async () => {
    h = await startHarness(220, 'devnode-tokens');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
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
      const [storedTo, storedAmount] = parseJson(row.arguments) as [string, number | bigint];
      expect(BigInt(storedAmount), row.tx_hash).to.equal(amount);
      expect(BigInt(`0x${Buffer.from(decode(storedTo as `ak_${string}`)).toString('hex')}`)).to.equal(to);
    }
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
    await verifyClean(h);
  });
});
