/**
 * @module AEX-9 balances through the populator over a generated devnode chain with token traffic (transfers,
 * mints, burns, allowances, wrapped AE, DEX liquidity and swaps), checked two ways after the sync and after
 * forks of depth 1 to 40: against the balances recomputed from the node's call logs (every Transfer, Mint,
 * Burn, Swap and WAE Deposit/Withdrawal from the first block), and against the devnode's own ledger. No
 * negative balance, holders and supplies as the ledger has them.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { kindOfCode } from '../../../src/devnode/contracts/standards.ts';
import { eventTopic } from '../../../src/devnode/contracts/frame.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';

type Balances = Map<string, bigint>;
const key = (contract: string, account: string): string => `${contract} ${account}`;
const account = (topic: bigint): string => encode('ak', Buffer.from(topic.toString(16).padStart(64, '0'), 'hex'));
const positive = (m: Balances): Balances => new Map([...m].filter(([, v]) => v !== 0n).sort());

describe('AEX-9 balances from events, exact across forks', function () {
  this.timeout(600_000);
  let h: Harness;
  let populator: Populator | undefined;
  let wae = '';

  const tokens = (): Map<string, string> => {
    const found = new Map<string, string>();
    for (const [id, c] of h.devnode.chain.state.contracts.entries()) {
      const kind = kindOfCode(c.code);
      if (kind === 'aex9' || kind === 'wae' || kind === 'pair') found.set(id, kind);
    }
    return found;
  };

  /** fromLogs replays every AEX-9 event of the node's chain, in chain and emission order. */
  const fromLogs = (): Balances => {
    const aex9 = tokens();
    const sums: Balances = new Map();
    const add = (contract: string, who: bigint, delta: bigint): void => {
      const k = key(contract, account(who));
      sums.set(k, (sums.get(k) ?? 0n) + delta);
    };
    const [transfer, mint, burn, swap, deposit, withdrawal] = [
      'Transfer',
      'Mint',
      'Burn',
      'Swap',
      'Deposit',
      'Withdrawal',
    ].map(eventTopic);
    for (const kb of h.devnode.chain.keyBlocks)
      for (const mb of kb.micro)
        for (const record of mb.txs) {
          const log = (record.callInfo?.log ?? []) as { address: string; topics: bigint[] }[];
          for (const { address, topics } of [...log].reverse()) {
            if (!aex9.has(address)) continue;
            const [topic, a, b, c] = topics;
            const isWae = address === wae;
            if (topic === transfer) {
              add(address, a!, -c!);
              add(address, b!, c!);
            } else if (topic === mint || (isWae && topic === deposit)) add(address, a!, b!);
            else if (topic === burn || topic === swap || (isWae && topic === withdrawal)) add(address, a!, -b!);
          }
        }
    return positive(sums);
  };

  /** ledger reads each token's balances from the devnode's contract store. */
  const ledger = (): Balances => {
    const store = h.devnode.chain.state.contractStore;
    const out: Balances = new Map();
    for (const id of tokens().keys())
      for (const holder of (store.get(`${id}/holders`) ?? []) as string[])
        out.set(key(id, holder), store.get(`${id}/b:${holder}`) as bigint);
    return positive(out);
  };

  const stored = async (): Promise<Balances> => {
    const rows = await h.query<{ contract_id: string; account: string; amount: string }>(
      'mdw',
      'SELECT contract_id, account, amount::text FROM aex9_balances',
    );
    expect(
      rows.filter((r) => BigInt(r.amount) < 0n),
      'negative balances',
    ).to.deep.equal([]);
    return positive(new Map(rows.map((r) => [key(r.contract_id, r.account), BigInt(r.amount)])));
  };

  const converged = async (): Promise<void> => {
    await waitFor('the populator to reach the devnode top', async () => {
      const top = await storedTopHash(h, 'mdw');
      return top?.hash === h.devnode.chain.keyBlocks.at(-1)!.hash;
    });
  };

  const check = async (): Promise<void> => {
    const ours = await stored();
    expect(ours.size, 'holders of all tokens').to.be.above(20);
    expect(ours).to.deep.equal(fromLogs());
    expect(ours).to.deep.equal(ledger());
    const store = h.devnode.chain.state.contractStore;
    const states = await h.query<{
      contract_id: string;
      holders: number;
      initial_supply: string;
      event_supply: string;
    }>('mdw', 'SELECT contract_id, holders, initial_supply::text, event_supply::text FROM aex9_contract_state');
    for (const s of states) {
      const holders = [...ours.keys()].filter((k) => k.startsWith(`${s.contract_id} `)).length;
      expect(s.holders, s.contract_id).to.equal(holders);
      expect(BigInt(s.initial_supply) + BigInt(s.event_supply), s.contract_id).to.equal(
        (store.get(`${s.contract_id}/supply`) as bigint | undefined) ?? 0n,
      );
    }
    const flagged = await h.query('mdw', 'SELECT 1 FROM aexn_contracts WHERE balances_unknown OR meta_invalid');
    expect(flagged).to.deep.equal([]);
  };

  before(async () => {
    h = await startHarness(200, 'aex9-balances');
    for (const [id, c] of h.devnode.chain.state.contracts.entries()) if (kindOfCode(c.code) === 'wae') wae = id;
    expect(wae, 'the devnode deploys wrapped AE').to.not.equal('');
    populator = await startPopulator({
      cfg: h.config({ DEX_WRAPPED_AE: wae }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    await converged();
  });
  after(async () => {
    await populator?.stop();
    await h?.close();
  });

  it('equals the balances of the call logs and of the ledger after a full sync', async () => {
    await check();
    const kinds = await h.query<{ kind: string }>('mdw', 'SELECT DISTINCT kind FROM aex9_events');
    expect(kinds.map((k) => k.kind)).to.include.members(['seed', 'transfer', 'mint', 'burn', 'deposit']);
  });

  for (const depth of [1, 6, 17, 40]) {
    it(`stays exact across a fork of depth ${depth}`, async () => {
      await h.devnode.fork(depth);
      await h.devnode.mineKeyBlock();
      await converged();
      await check();
    });
  }

  it('stays exact when forks follow each other faster than the populator catches up', async () => {
    await h.devnode.fork(12);
    await h.devnode.mineKeyBlock();
    await h.devnode.fork(30);
    await h.devnode.mineKeyBlock();
    await h.devnode.fork(3);
    await converged();
    await check();
  });
});
