/**
 * @module AEX-N detection through the populator over a generated devnode chain with tokens, NFT collections
 * and a DEX: every contract the devnode runs as a token (AEX-9: fungible tokens, wrapped AE, DEX pairs,
 * including the pairs its factory clones inside calls) or collection (AEX-141) is stored with the meta info
 * the devnode's ledger holds, nothing else is, and forks roll the table back with their heights.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import type { FateTuple, FateVariant } from '../../../src/chain/fate.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { eventTopic } from '../../../src/devnode/contracts/frame.ts';
import { decode } from '@aeternity/aepp-sdk';
import { tokenStandards } from '../../support/devnode-contracts.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';

interface Row {
  contract_id: string;
  aexn_type: string;
  tx_hash: string;
  created_by_call: boolean;
  name: string;
  symbol: string;
  decimals: number | null;
  base_url: string | null;
  metadata_type: string | null;
  extensions: string[];
  meta_invalid: boolean;
  balances_unknown: boolean;
}

describe('AEX-N detection at contract creation', function () {
  this.timeout(300_000);
  let h: Harness;
  let populator: Populator | undefined;

  const converged = async (): Promise<void> => {
    await waitFor('the populator to reach the devnode top', async () => {
      const top = await storedTopHash(h, 'mdw');
      const node = h.devnode.chain.keyBlocks.at(-1)!;
      return top?.hash === node.hash;
    });
  };

  /** What the devnode runs: each contract's standard, from the code it deployed. */
  const expected = (): Map<string, string> => tokenStandards(h.devnode);

  const createTxIds = (): Map<string, string> => {
    const ids = new Map<string, string>();
    for (const [hash, record] of h.devnode.chain.txs) {
      const tx = record.tx;
      if (tx.type === 'ContractCreateTx' && record.blockHash !== undefined)
        ids.set(contractId(String(tx.owner_id), BigInt(String(tx.nonce))), hash);
    }
    return ids;
  };

  const check = async (): Promise<Row[]> => {
    const rows = await h.query<Row>('mdw', 'SELECT * FROM aexn_contracts ORDER BY contract_id');
    const want = expected();
    expect(new Map(rows.map((r) => [r.contract_id, r.aexn_type]))).to.deep.equal(want);
    const created = createTxIds();
    for (const row of rows) {
      const store = (slot: string): unknown => h.devnode.chain.state.contractStore.get(`${row.contract_id}/${slot}`);
      expect(row.meta_invalid, row.contract_id).to.equal(false);
      expect(row.balances_unknown, row.contract_id).to.equal(false);
      const meta = (store('meta') as FateTuple).items;
      expect([row.name, row.symbol]).to.deep.equal([meta[0], meta[1]]);
      if (row.aexn_type === 'aex9') expect(BigInt(row.decimals!)).to.equal(meta[2]);
      else {
        expect(row.decimals).to.equal(null);
        expect(row.base_url).to.equal((meta[2] as FateVariant).tag === 1 ? (meta[2] as FateVariant).values[0] : null);
        expect(row.metadata_type).to.equal(['url', 'object_id', 'map'][(meta[3] as FateVariant).tag]);
      }
      if (created.has(row.contract_id)) {
        expect(row.created_by_call, row.contract_id).to.equal(false);
        expect(row.tx_hash).to.equal(created.get(row.contract_id));
      } else {
        // a pair the factory cloned: found in the call that created it, where the factory announced it
        expect(row.created_by_call, row.contract_id).to.equal(true);
        const log = h.devnode.chain.txs.get(row.tx_hash)!.callInfo!.log as { topics: bigint[] }[];
        const pair = BigInt(`0x${Buffer.from(decode(row.contract_id as `ct_${string}`)).toString('hex')}`);
        expect(log.some((l) => l.topics[0] === eventTopic('PairCreated') && l.topics[3] === pair)).to.equal(true);
      }
    }
    return rows;
  };

  before(async () => {
    // half the transactions token traffic: the factory clones its pairs by height 40 (the first case asserts them),
    // where the default share (a tenth) clones them only after 100
    h = await startHarness(60, 'aexn-detection', { tokenShare: 0.5 });
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
    await converged();
  });
  after(async () => {
    await populator?.stop();
    await h?.close();
  });

  it('stores every AEX-9 and AEX-141 contract with its meta info and extensions, pairs cloned in calls included', async () => {
    const rows = await check();
    const types = rows.map((r) => r.aexn_type);
    expect(types.filter((t) => t === 'aex9').length, 'tokens, WAE and pairs').to.be.at.least(7);
    expect(types.filter((t) => t === 'aex141').length).to.equal(2);
    expect(rows.filter((r) => r.created_by_call).length, 'pairs cloned by the factory').to.be.at.least(1);
    const gold = rows.find((r) => r.symbol === 'GOLD')!;
    expect(gold.extensions).to.deep.equal(['allowances', 'mintable', 'burnable']);
    const checked = await h.query<{ contract_id: string; aexn_type: string | null }>(
      'mdw',
      'SELECT contract_id, aexn_type FROM aexn_call_created',
    );
    expect(checked.map((c) => c.contract_id).sort()).to.deep.equal(
      rows.filter((r) => r.created_by_call).map((r) => r.contract_id),
    );
  });

  for (const depth of [3, 12]) {
    it(`rolls back and detects again across a fork of depth ${depth}`, async () => {
      await h.devnode.fork(depth);
      await h.devnode.mineKeyBlock();
      await converged();
      await check();
    });
  }
});
