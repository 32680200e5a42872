/**
 * @module rewards_earned on a hyperchain (issue 45). Where the staking contract answers `get_validator_state` with the
 * node's current `validator` record and `get_state()` (the devnode's `stakingRecord: 'validator'`, where some
 * validators sign with a key other than their owner's), the populator stores what each end of epoch paid each
 * validator (by signing key) for the epoch before it, exact past 2^53, as the devnode's consensus credited it (the
 * oracle: test/support/hyperchain.ts, devnodeRewards), serves it as `rewards_earned`, and after a fork across an end of
 * epoch holds what the new chain paid. With ae_mdw 1.107's `get_validator_response` (the devnode's default) it stores
 * the delegates and no reward, and says why once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import pino, { type Logger } from 'pino';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { EOE_FLAG, HC_STAKING_VALIDATOR_ACI } from '../../../src/devnode/index.ts';
import { devnodeRewards, expectVerifyClean, startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';
import { populateToTop } from '../../support/populate.ts';
import { silentLog } from '../../integration/api/harness.ts';
import { expectDevnodeState } from './oracle.ts';

const L = 5;

/** warningsOf is a logger that keeps the populator's hyperchain warnings (the reader's, each told once). */
function warningsOf(lines: string[]): Logger {
  const write = (line: string): void => {
    const { msg } = JSON.parse(line) as { msg: string };
    if (msg.startsWith('hyperchain:')) lines.push(msg);
  };
  return pino({ level: 'warn' }, { write });
}

describe('rewards_earned on a hyperchain', function () {
  this.timeout(300_000);

  describe("with the node's current validator record", () => {
    let hc: TestHyperchain;
    const warnings: string[] = [];

    before(async () => {
      hc = await startHyperchain({
        epochs: 7,
        epochLength: L,
        extra: 2,
        seed: 'hyperchain-rewards',
        stakingRecord: 'validator',
      });
      await populateToTop(hc.config(), new prom.Registry(), warningsOf(warnings));
    });
    after(async () => {
      await hc?.close();
    });

    it('stores what each end of epoch paid for the epoch before, as the consensus credited it, with no warning', async () => {
      expect(hc.devnode.height()).to.equal(7 * L + 2);
      await expectDevnodeState(hc, 'mdw');
      // epochs 1-6, paid by the ends of epochs 2-7; 100 AE a block: each reward past 2^53
      const paid = devnodeRewards(hc);
      expect([...new Set(paid.map((r) => r.epoch))]).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(paid.every((r) => BigInt(r.reward) > 2n ** 53n)).to.equal(true);
      expect(warnings).to.deep.equal([]);
    });

    it("answers get_state and get_validator_state(owner) with the node's records, which the SDK decodes by HC_STAKING_VALIDATOR_ACI", async () => {
      const node = new Node(hc.devnode.externalUrl, { retryCount: 0 });
      const contracts = await node.getHyperchainContractPubkeys();
      type Validator = { owner: string; sign_key: string; total_balance: bigint };
      const staking = await Contract.initialize<{
        get_state: () => {
          validators: Map<string, Validator>;
          owners: Map<string, string>;
          sign_keys: Map<string, string>;
        };
        get_validator_state: (owner: string) => Record<string, unknown>;
      }>({ onNode: node, aci: HC_STAKING_VALIDATOR_ACI as never, address: contracts.staking as `ct_${string}` });
      // across the end of epoch 7 (height 35), which paid epoch 6: total_balance grows by each leader's reward there
      const eoe = hc.devnode.chain.keyBlocks[7 * L]!;
      expect(eoe.header.hcFlags! & EOE_FLAG).to.equal(EOE_FLAG);
      const bySignKey = async (top: string): Promise<Map<string, Validator>> => {
        const state = (await staking.get_state({ top: top as `kh_${string}` })).decodedResult;
        for (const [key, v] of state.validators) {
          expect(state.owners.get(v.owner)).to.equal(key);
          expect(state.sign_keys.get(v.sign_key)).to.equal(key);
        }
        return new Map([...state.validators.values()].map((v) => [v.sign_key, v]));
      };
      const [before, after] = await Promise.all([bySignKey(eoe.header.prevHash), bySignKey(eoe.hash)]);
      const paid = devnodeRewards(hc);
      for (const r of paid.filter((r) => r.epoch === 6))
        expect(after.get(r.validator)!.total_balance - before.get(r.validator)!.total_balance).to.equal(
          BigInt(r.reward),
        );
      // the rewards name validators by signing key: some of those paid are owned by another key
      const owned = paid.filter((r) => after.get(r.validator)!.owner !== r.validator);
      expect(owned).to.not.deep.equal([]);
      const { owner } = after.get(owned[0]!.validator)!;
      const record = (await staking.get_validator_state(owner, { top: eoe.hash as `kh_${string}` })).decodedResult;
      expect(Object.keys(record)).to.deep.equal([
        'owner',
        'sign_key',
        'total_balance',
        'current_stake',
        'staked',
        'restake',
      ]);
      expect(record).to.include({ owner, sign_key: owned[0]!.validator });
    });

    it('serves each rewards_earned in /mdw/v3/hyperchain/validators as a JSON integer, exact, 0 where none was paid', async () => {
      const cfg = hc.config();
      const pool: Pool = createPool({ databaseUrl: cfg.databaseUrl, schema: 'mdw', max: 2 }, silentLog);
      const app = createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 'test' });
      const server: Server = createServer(app.callback());
      try {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const res = await fetch(`${url}/mdw/v3/hyperchain/validators?scope=epoch:1-8&limit=100`);
        expect(res.status).to.equal(200);
        const page = parseJson(await res.text()) as { data: { [key: string]: Json }[]; next: Json };
        expect(page.next, 'every row in one page').to.equal(null);
        const paid = new Map(devnodeRewards(hc).map((r) => [`${r.epoch} ${r.validator}`, BigInt(r.reward)]));
        const served = new Map(
          page.data.map((v) => [`${String(v.epoch)} ${String(v.validator)}`, BigInt(v.rewards_earned as bigint)]),
        );
        expect(served).to.deep.equal(new Map([...served.keys()].map((k) => [k, paid.get(k) ?? 0n])));
        expect([...paid.keys()].filter((k) => !served.has(k))).to.deep.equal([]);
        // the current record states no delegates
        expect(page.data.every((v) => v.delegates === 0)).to.equal(true);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await pool.end();
      }
    });

    it('holds what the new chain paid after a fork across an end of epoch', async () => {
      // heights 34-37 replaced, the end of epoch 7 at 35 among them (it paid epoch 6); the end of epoch 8 at 40 pays
      // epoch 7, two of whose heights the fork replaced
      await hc.devnode.fork(4);
      while (hc.devnode.height() < 8 * L) await hc.devnode.mineKeyBlock();
      await hc.populate();
      await expectVerifyClean(hc, 'mdw');
      await expectDevnodeState(hc, 'mdw');
      const [paid] = await hc.query<{ n: number }>('mdw', 'SELECT count(*)::int AS n FROM hc_rewards WHERE epoch = 7');
      expect(paid!.n).to.be.above(0);
    });
  });

  it("loads ae_mdw 1.107's get_validator_response with its delegates and no rewards, and says why once", async () => {
    const hc = await startHyperchain({ epochs: 4, epochLength: L, extra: 1, seed: 'hyperchain-rewards-response' });
    try {
      const warnings: string[] = [];
      await populateToTop(hc.config(), new prom.Registry(), warningsOf(warnings));
      await expectDevnodeState(hc, 'mdw');
      const [rows] = await hc.query<{ delegates: number; rewards: number }>(
        'mdw',
        'SELECT (SELECT count(*)::int FROM hc_delegates) AS delegates, (SELECT count(*)::int FROM hc_rewards) AS rewards',
      );
      expect(rows!.delegates).to.be.above(0);
      expect(rows!.rewards).to.equal(0);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/get_validator_response record, which states no balance.*rewards_earned 0/);
    } finally {
      await hc.close();
    }
  });
});
