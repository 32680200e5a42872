/**
 * @module ae_mdw's hyperchain routes through the SDK's Middleware as the caller (issue 45 items 2 and 3): its 8
 * hyperchain operations over a generated hyperchain of 12 epochs (holes, validator churn, delegates moving) loaded by
 * the populator, every list checked against the devnode's own state as the SDK reads it (the election and staking
 * contracts' dry-runs at the block each epoch was fixed, the chain's key blocks), stakes exact above 2^53, and each
 * answer against the SDK's models of ae_mdw's hyperchain swagger.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, Middleware, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { HC_ELECTION_ACI, HC_STAKING_ACI, HOLE_FLAG } from '../../../src/devnode/index.ts';
import { startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';
import { silentLog } from '../api/harness.ts';
import { walkPages } from './harness.ts';
import { mapperViolations, sdkResponseMapper } from './sdk-mappers.ts';

const EPOCHS = 12;
const L = 10;

type EpochInfo = { start: bigint; length: bigint; seed?: Uint8Array; staking_distribution: [string, bigint][] };
type Election = {
  epoch: () => bigint;
  epoch_info_epoch: (e: bigint) => EpochInfo;
  validator_schedule: (seed: Uint8Array, validators: [string, bigint][], length: bigint) => string[];
};
type Staking = {
  get_validator_state: (owner: string) => { stake: bigint; state: { delegates: Map<string, bigint> } };
};
type Top = { top: `kh_${string}` };
type Item = Record<string, unknown>;

/**
 * sdkNumber is an integer as the SDK's Middleware hands it over: its models type stakes as numbers, so it rounds
 * those above 2^53 itself (the exact values are checked in our JSON, below).
 */
const sdkNumber = (value: bigint): number => Number(value);

describe('/mdw/v3/hyperchain through the SDK, the hyperchain devnode as the oracle', function () {
  this.timeout(600_000);
  let hc: TestHyperchain;
  let pool: Pool;
  let server: Server;
  let url: string;
  let mdw: Middleware;
  let node: Node;
  let election: Contract<Election>;
  let staking: Contract<Staking>;
  let top: number;
  /** the epochs as the election contract held them at key block first - 1 (where each was fixed) */
  const truth = new Map<number, { info: EpochInfo; schedule: string[]; at: Top }>();

  const keyBlock = (h: number) => hc.devnode.chain.keyBlocks[h]!;
  const at = (h: number): Top => ({ top: keyBlock(h).hash as `kh_${string}` });
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${url}/mdw/v3${path}`);
    return { status: res.status, body: parseJson(await res.text()) };
  };

  before(async () => {
    hc = await startHyperchain({ epochs: EPOCHS, extra: 4, seed: 'hyperchain-sdk' });
    await hc.populate();
    const cfg = hc.config();
    pool = createPool({ databaseUrl: cfg.databaseUrl, schema: 'mdw', max: 4 }, silentLog);
    const app = createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 'test' });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mdw = new Middleware(`${url}/mdw`, { retryCount: 0 });
    node = new Node(hc.devnode.externalUrl, { retryCount: 0 });
    const contracts = await node.getHyperchainContractPubkeys();
    election = await Contract.initialize<Election>({
      onNode: node,
      aci: HC_ELECTION_ACI as never,
      address: contracts.election as `ct_${string}`,
    });
    staking = await Contract.initialize<Staking>({
      onNode: node,
      aci: HC_STAKING_ACI as never,
      address: contracts.staking as `ct_${string}`,
    });
    top = hc.devnode.height();
    for (let e = 1; (e - 1) * L + 1 <= top; e++) {
      const fixed = at((e - 1) * L);
      const info = (await election.epoch_info_epoch(BigInt(e), fixed)).decodedResult;
      // an epoch without a seed in the contract (1 and 2) has the leaders its key blocks show
      const schedule = info.seed
        ? (await election.validator_schedule(info.seed, info.staking_distribution, info.length, fixed)).decodedResult
        : Array.from({ length: L }, (_, i) => (e - 1) * L + 1 + i)
            .filter((h) => h <= top)
            .map((h) => keyBlock(h).header.miner);
      truth.set(e, { info, schedule, at: fixed });
    }
  });
  after(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await pool?.end();
    await hc?.close();
  });

  it('getEpochs: every epoch as the election contract fixed it, both directions, page by page', async () => {
    const forward = await walkPages<Item>(await mdw.getEpochs({ limit: 5, direction: 'forward' }));
    const backward = await walkPages<Item>(await mdw.getEpochs({ limit: 3 }));
    expect(backward.map((e) => e.epoch)).to.deep.equal(forward.map((e) => e.epoch).reverse());
    expect(forward.map((e) => e.epoch)).to.deep.equal([...truth.keys()]);
    for (const epoch of forward) {
      const { info, schedule } = truth.get(epoch.epoch as number)!;
      const first = Number(info.start);
      const last = first + Number(info.length) - 1;
      expect(epoch, `epoch ${epoch.epoch}`).to.deep.include({
        first,
        last,
        length: Number(info.length),
        seed: info.seed ? encode('kh', info.seed) : null,
        lastPinHeight: first - 1,
        epochStartTime: keyBlock(first - 1).header.time,
        // the leader of the last height, or of the top while the epoch runs
        lastLeader: schedule[Math.min(last, top) - first],
      });
      const validators = (epoch.validators as Item[]).map((v) => [v.validator, v.stake]);
      expect(validators, `validators of epoch ${epoch.epoch}`).to.deep.equal(
        info.staking_distribution.map(([v, s]) => [v, sdkNumber(s)]),
      );
    }
    // our JSON has every digit (1.2·10^24 aettos: a JSON number loses them)
    const raw = await get('/hyperchain/epochs?limit=100&direction=forward');
    const stakes = (raw.body as { data: { epoch: number; validators: { stake: bigint }[] }[] }).data.map((e) =>
      e.validators.map((v) => v.stake),
    );
    expect(stakes).to.deep.equal([...truth.values()].map(({ info }) => info.staking_distribution.map(([, s]) => s)));
    expect(stakes.flat().some((s) => s > 2n ** 53n && s % 1000n !== 0n)).to.equal(true);
  });

  it('getEpochTop: the epoch of the top height', async () => {
    const current = Number((await election.epoch()).decodedResult);
    const epoch = await mdw.getEpochTop();
    expect(epoch.epoch).to.equal(current);
    expect(epoch.first).to.equal(Number(truth.get(current)!.info.start));
    expect((await mdw.getStatus()) as unknown as Item).to.have.property('mdwHeight', top);
    const status = await get('/status');
    expect((status.body as { mdw_epoch: unknown }).mdw_epoch).to.deep.equal({
      epoch: current,
      first: epoch.first,
      last: epoch.last,
      length: L,
    });
    const legacy = await fetch(`${url}/middleware/status`);
    expect(((await legacy.json()) as { epoch: unknown }).epoch).to.deep.equal((status.body as Item).mdw_epoch);
    // /v3/stats counts the current epoch's validators, not miners
    const stats = (await get('/stats')).body as Item;
    expect(stats.validators_count).to.equal(truth.get(current)!.info.staking_distribution.length);
    expect(stats).not.to.have.property('miners_count');
  });

  it('answers /hyperchain/config with the epoch length of the stored epochs and the contracts the node names', async () => {
    const contracts = await node.getHyperchainContractPubkeys();
    const config = (await get('/hyperchain/config')).body as { consensus: Item[] };
    expect(config.consensus[0]).to.include({
      child_epoch_length: L,
      staking_contract: contracts.staking,
      election_contract: contracts.election,
    });
  });

  it("getSchedules and getSchedule: each epoch's leaders as the contract schedules them, holes by the next leader", async () => {
    let holes = 0;
    for (const [e, { schedule, info }] of truth) {
      const page = await walkPages<Item>(await mdw.getSchedules({ scope: `epoch:${e}-${e}`, limit: 4 }));
      const first = Number(info.start);
      expect(
        page.map((s) => s.leader),
        `schedule of epoch ${e}`,
      ).to.deep.equal(schedule.slice().reverse());
      expect(page.map((s) => s.height)).to.deep.equal(schedule.map((_, i) => first + i).reverse());
      for (let i = 0; i < schedule.length && first + i <= top; i++) {
        const block = keyBlock(first + i).header;
        if (((block.hcFlags ?? 0) & HOLE_FLAG) === 0) expect(block.miner).to.equal(schedule[i]);
        else {
          holes++;
          // a hole's key block is the next slot's leader's; the schedule names the one that missed it
          expect(await mdw.getSchedule(first + i)).to.deep.equal({ height: first + i, leader: schedule[i] });
        }
      }
    }
    expect(holes).to.be.at.least(1);
    const byGen = await mdw.getSchedules({ scope: 'gen:15-12' });
    expect(byGen.data.map((s) => s.height)).to.deep.equal([15, 14, 13, 12]);
  });

  it("getValidators, getValidator and their delegates: each epoch's stakes and the delegates locked for it", async () => {
    const current = Math.max(...truth.keys());
    let checkedDelegates = 0;
    for (const [e, { info }] of truth) {
      const validators = await walkPages<Item>(await mdw.getValidators({ scope: `epoch:${e}-${e}`, limit: 2 }));
      // ae_mdw's order: by validator within the epoch (backward by default)
      const expected = [...info.staking_distribution].sort(([a], [b]) => (a < b ? 1 : -1));
      expect(
        validators.map((v) => [v.validator, v.totalStakes]),
        `epoch ${e}`,
      ).to.deep.equal(expected.map(([v, s]) => [v, sdkNumber(s)]));
      if (e < 5) continue; // the stakes of epochs 1-4 were locked at genesis
      // the delegates as MainStaking held them where it locked the epoch's stakes: the end of epoch e - 4
      const lockedAt = at((e - 4) * L);
      for (const v of validators) {
        const state = (await staking.get_validator_state(v.validator as string, lockedAt)).decodedResult;
        const delegates = await walkPages<Item>(
          await mdw.getValidatorDelegates(v.validator as `ak_${string}`, { scope: `epoch:${e}-${e}`, limit: 3 }),
        );
        const got = new Map(delegates.map((d) => [d.delegate, d.stake]));
        expect(got, `delegates of ${String(v.validator)} in ${e}`).to.deep.equal(
          new Map([...state.state.delegates].map(([d, s]) => [d, sdkNumber(s)])),
        );
        expect(v.delegates).to.equal(got.size);
        expect(delegates.every((d) => d.epoch === e && d.validator === v.validator)).to.equal(true);
        // exact in our JSON: the delegates' stakes sum to the validator's
        const one = await get(`/hyperchain/validators/${String(v.validator)}?epoch=${e}`);
        const raw = await get(
          `/hyperchain/validators/${String(v.validator)}/delegates?scope=epoch:${e}-${e}&limit=100`,
        );
        const rawStakes = (raw.body as { data: { delegate: string; stake: bigint }[] }).data;
        expect(new Map(rawStakes.map((d) => [d.delegate, d.stake]))).to.deep.equal(state.state.delegates);
        expect((one.body as Item).total_stakes).to.equal(rawStakes.reduce((sum, d) => sum + d.stake, 0n));
        checkedDelegates++;
      }
    }
    expect(checkedDelegates).to.be.at.least(5);

    // the current epoch's: getValidator without an epoch, and the top delegates
    const [validator] = truth.get(current)!.info.staking_distribution[0]!;
    const mine = await mdw.getValidator(validator as `ak_${string}`);
    expect(mine.epoch).to.equal(current);
    const top = await walkPages<Item>(await mdw.getTopValidatorDelegates(validator as `ak_${string}`));
    const all = await walkPages<Item>(
      await mdw.getValidatorDelegates(validator as `ak_${string}`, { scope: `epoch:${current}-${current}` }),
    );
    expect(top).to.deep.equal(all);
    expect(top.map((d) => d.delegate)).to.include(validator);
  });

  it('answers a validator that left with the last epoch it was one of (ae_mdw: nothing), 404 for one that never was', async () => {
    const current = Math.max(...truth.keys());
    const now = new Set(truth.get(current)!.info.staking_distribution.map(([v]) => v));
    const left = [...truth.entries()]
      .flatMap(([e, { info }]) => info.staking_distribution.map(([v]) => [v, e] as const))
      .filter(([v]) => !now.has(v));
    expect(left.length, 'validators left during the chain').to.be.above(0);
    for (const [v] of left) {
      const lastEpoch = Math.max(...left.filter(([w]) => w === v).map(([, e]) => e));
      expect((await mdw.getValidator(v as `ak_${string}`)).epoch, v).to.equal(lastEpoch);
    }
    const stranger = 'ak_2bMCPWriTf7HcJ2Py7SWuqG9CM3Z3Mux5AnuM4PQqaZ457FfWW';
    expect((await get(`/hyperchain/validators/${stranger}`)).status).to.equal(404);
    expect((await get(`/hyperchain/validators/${stranger}?epoch=x`)).status).to.equal(400);
  });

  it("answers in the shapes of the SDK's models of ae_mdw's hyperchain swagger (ae_mdw's defects fixed)", async () => {
    const [validator] = truth.get(3)!.info.staking_distribution[0]!;
    const requests: [string, string][] = [
      ['/v3/hyperchain/epochs', '/hyperchain/epochs?scope=epoch:3-12'],
      ['/v3/hyperchain/epochs/top', '/hyperchain/epochs/top'],
      ['/v3/hyperchain/schedule', '/hyperchain/schedule?limit=100'],
      ['/v3/hyperchain/schedule/height/{height}', '/hyperchain/schedule/height/33'],
      ['/v3/hyperchain/validators', '/hyperchain/validators?limit=100'],
      ['/v3/hyperchain/validators/{validator}', `/hyperchain/validators/${validator}`],
      ['/v3/hyperchain/validators/{validator}/delegates', `/hyperchain/validators/${validator}/delegates`],
      ['/v3/hyperchain/validators/{validator}/delegates/top', `/hyperchain/validators/${validator}/delegates/top`],
    ];
    for (const [operation, request] of requests) {
      const model = sdkResponseMapper(operation);
      expect(model, operation).not.to.equal(undefined);
      for (const intAsString of [false, true]) {
        const res = await get(`${request}${request.includes('?') ? '&' : '?'}int-as-string=${intAsString}`);
        expect(res.status, request).to.equal(200);
        expect(mapperViolations(model!, res.body, { intAsString }), request).to.deep.equal([]);
      }
    }
    // epochs 1 and 2 have no seed in the contract, so no parent block the node says: null, which ae_mdw's model does
    // not allow
    const unseeded = await get('/hyperchain/epochs?scope=epoch:1-2');
    expect(mapperViolations(sdkResponseMapper('/v3/hyperchain/epochs')!, unseeded.body)).to.deep.equal(
      [0, 1].flatMap((i) => [
        `$.data[${i}].seed: null, not String`,
        `$.data[${i}].parent_block_hash: null, not String`,
      ]),
    );
  });
  it('answers the GraphQL fields with the REST answers of the same resources', async () => {
    const graphql = async (query: string): Promise<Item> => {
      const res = await fetch(`${url}/mdw/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const body = parseJson(await res.text()) as { data?: Item; errors?: unknown };
      expect(body.errors, query).to.equal(undefined);
      return body.data!;
    };
    const [validator] = truth.get(6)!.info.staking_distribution[0]!;
    const epochs = await graphql(
      '{ epochs(scope: "epoch:5-7", limit: 2) { nextCursor data { epoch first last seed lastLeader validators } } }',
    );
    const restEpochs = (await get('/hyperchain/epochs?scope=epoch:5-7&limit=2')).body as { data: Item[] };
    const page = epochs.epochs as { nextCursor: string | null; data: Item[] };
    expect(page.data).to.deep.equal(
      restEpochs.data.map((e) => ({
        epoch: e.epoch,
        first: e.first,
        last: e.last,
        seed: e.seed,
        lastLeader: e.last_leader,
        // JSON: the stakes as the REST answer has them, exact
        validators: e.validators,
      })),
    );
    expect(page.nextCursor).to.be.a('string');
    const one = await graphql(
      `{ validator(id: "${validator}", epoch: 6) { epoch totalStakes delegates rewardsEarned pinningHistory }
         schedule(height: 33) { height leader } epochTop { epoch } }`,
    );
    const restValidator = (await get(`/hyperchain/validators/${validator}?epoch=6`)).body as Item;
    expect(one.validator).to.deep.equal({
      epoch: 6,
      // BigInt: the digits of the REST integer
      totalStakes: String(restValidator.total_stakes),
      delegates: restValidator.delegates,
      rewardsEarned: String(restValidator.rewards_earned),
      pinningHistory: restValidator.pinning_history,
    });
    expect(one.schedule).to.deep.equal((await get('/hyperchain/schedule/height/33')).body);
    expect(one.epochTop).to.deep.equal({ epoch: Number((await election.epoch()).decodedResult) });
    const delegates = await graphql(
      `{ validatorDelegates(id: "${validator}", scope: "epoch:6-6", limit: 100) { data { delegate stake } } }`,
    );
    const restDelegates = (await get(`/hyperchain/validators/${validator}/delegates?scope=epoch:6-6&limit=100`))
      .body as { data: Item[] };
    expect((delegates.validatorDelegates as { data: Item[] }).data).to.deep.equal(
      restDelegates.data.map((d) => ({ delegate: d.delegate, stake: String(d.stake) })),
    );
  });
});
