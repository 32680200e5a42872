/**
 * @module What a batch of a hyperchain's heights adds about its consensus, read before the batch's transaction: each
 * key block's flags, and at each epoch boundary (genesis, an EOE key block) one set of dry-runs for the epoch that
 * starts, all at the boundary: `epoch_info()`, `pin_reward_info()` and `sorted_validators()`, then
 * `validator_schedule(...)` for its leaders and each validator's `get_validator_state` for the delegates of the epoch
 * whose stakes the boundary locks (three epochs on: they sum to its locked stake); at an end of epoch whose staking
 * contract answers the node's current `validator` record, a third round at the block before it for the rewards it paid
 * (rewards.ts). A staking contract that answers the node's current `get_state()` (staking-state.ts) is asked that with
 * the first round instead of a `get_validator_state` per validator: it keeps no delegates, and its balances are the
 * rewards' at the boundary, so the third round is one `get_state()` too. Nothing is read per height.
 * The same reads serve the hyperchain derived area's backfill, from stored key blocks (derived/hyperchain.ts).
 */
import { AciContractCallEncoder } from '@aeternity/aepp-calldata';
import { countedCache } from '../../base/counted-cache.ts';
import type { Logger } from 'pino';
import { ErrorCode } from '../../base/errors.ts';
import type { HyperchainContracts, HyperchainRecord } from '../../db/queries/hyperchain.ts';
import { fateCall, OVER_TIME_LIMIT, PRUNED, REFUSED, type DryRunCall, type DryRunResult } from '../../node/dry-run.ts';
import { NodeError } from '../../node/errors.ts';
import type { NodeClient } from '../../node/client.ts';
import type { BytecodeEncoder, ContractDecoder } from '../contracts/contract-decoder.ts';
import { detectHyperchain, type DetectOptions } from './detect.ts';
import { SCHEDULE_ACI } from './schedule-aci.ts';
import { readAnswer } from '../contracts/fate-answers.ts';
import {
  encodeSeed,
  isEpochBoundary,
  pinOf,
  producedRow,
  lockedEpochs,
  readEpochInfo,
  readFateStakes,
  readPinRewardInfo,
  readSchedule,
  readStakes,
  type EpochInfo,
  type GenerationHead,
} from './epoch-rows.ts';
import {
  previousBlock,
  readRewards,
  readStateRewards,
  rewardedEpoch,
  type PaidBoundary,
  type PaidStateBoundary,
  type RewardsAsk,
  type RewardsUnread,
} from './rewards.ts';
import { readBalances } from './staking-state.ts';
import { UnreadLog } from './unread-log.ts';
import { readState, recordOf, type StateRead } from './validator-state.ts';
import type {
  DelegatesLoad,
  EpochLoad,
  HyperchainBatch,
  PinLoad,
  RewardLoad,
} from '../../db/writes/hyperchain-rows.ts';

/** What the reader asks: the node (in the populator's node set), the contract decoder (code and FATE encoders). */
export interface HyperchainReaderDeps {
  readonly node: Pick<NodeClient, 'dryRun' | 'contractCode'>;
  readonly decoder: Pick<ContractDecoder, 'encoder'>;
  /** whether the node runs a hyperchain (detect.ts), asked once per reader */
  readonly detect: () => Promise<HyperchainRecord>;
  /** where an answer this version cannot read is told, once */
  readonly log?: Pick<Logger, 'warn'>;
}

/**
 * The calldata the reader keeps encoded: every boundary asks the same functions, of the same validators (a few
 * hundred on a hyperchain). Encoding them anew at each boundary (aepp-calldata) cost the populator's main thread
 * about 0.1 ms a call, in stretches that left the node's slots idle (bench/sync.ts on a hyperchain).
 */
const CALLDATA_KEPT = 10_000;

/** A batch's reads, asked as it is prepared and awaited in its transaction. */
export interface HyperchainReads {
  readonly record: Promise<HyperchainRecord>;
  readonly rows: Promise<HyperchainBatch>;
}

/** HyperchainReader reads a batch's consensus rows; a chain that is not a hyperchain gives none. */
export class HyperchainReader {
  readonly #deps: HyperchainReaderDeps;
  #record: Promise<HyperchainRecord> | undefined;
  readonly #schedule = new AciContractCallEncoder(SCHEDULE_ACI as never);
  /** what the contracts answer that this version does not read, told once each */
  readonly #unread: UnreadLog;
  /** the consensus contracts' code: created at genesis, never changed, asked once per reader (again after a failure) */
  readonly #code = new Map<string, Promise<string>>();
  /**
   * calldata by contract, function and argument, or why the contract's code cannot encode that call (no such function
   * in ae_mdw 1.107's staking contract, `get_state()`): a contract's code never changes, so neither does the answer
   */
  readonly #calldata = countedCache<string, string | Error>(CALLDATA_KEPT);
  /** what rewards.ts asks through the reader */
  readonly #ask: RewardsAsk = {
    dryRun: (block, calls) => this.#dryRun(block, calls),
    call: (contract, code, fn, arg) => this.#call(contract, code, fn, arg),
  };

  constructor(deps: HyperchainReaderDeps) {
    this.#deps = deps;
    this.#unread = new UnreadLog(deps.log);
  }

  /** record says whether the chain is a hyperchain, detected once (a failed detection is asked again next time). */
  record(): Promise<HyperchainRecord> {
    this.#record ??= this.#deps.detect().catch((err: unknown) => {
      this.#record = undefined;
      throw err;
    });
    return this.#record;
  }

  /**
   * ask starts a batch's reads: whether the chain is a hyperchain and the rows of its generations (each surfaced
   * where the loader awaits it: the record fails the batch, the rows only the hyperchain area).
   */
  ask(gens: readonly GenerationHead[]): HyperchainReads {
    const record = this.record();
    const rows = this.read(gens);
    record.catch(() => {});
    rows.catch(() => {});
    return { record, rows };
  }

  /** read gives the rows of generations `gens` (ascending; an append of micro blocks gives none of its own). */
  async read(gens: readonly GenerationHead[]): Promise<HyperchainBatch> {
    const record = await this.record();
    if (!record.contracts) return { record, produced: [], epochs: [], pins: [] };
    const whole = gens.filter((g) => g.continuesAt === undefined);
    const produced = whole.flatMap((g) => producedRow(g) ?? []);
    // the batch's boundaries at once: each waits on the node only (its dry-runs), in the node set's slots
    const contracts = record.contracts;
    const read = await Promise.all(whole.filter(isEpochBoundary).map((gen) => this.#epochAt(contracts, gen)));
    const epochs: EpochLoad[] = read.map((r) => r.epoch);
    const pins: PinLoad[] = read.flatMap((r) => r.pin ?? []);
    return { record, produced, epochs, pins };
  }

  async #epochAt(
    contracts: HyperchainContracts,
    gen: GenerationHead,
  ): Promise<{ epoch: EpochLoad; pin: PinLoad | undefined }> {
    const election = contracts.election ?? contracts.staking;
    const [electionCode, stakingCode] = await Promise.all(
      [election, contracts.staking].map(async (ct) => this.#deps.decoder.encoder(await this.#codeOf(ct))),
    );
    const at = String(gen.keyBlock.hash);
    const stateCall = this.#stateCall(contracts.staking, stakingCode!);
    const [infoResult, pinResult, sortedResult, stateResult] = await this.#dryRun(at, [
      this.#call(election, electionCode!, 'epoch_info'),
      this.#call(election, electionCode!, 'pin_reward_info'),
      this.#call(contracts.staking, stakingCode!, 'sorted_validators'),
      ...(stateCall ? [stateCall] : []),
    ]);
    const decode = (code: BytecodeEncoder, fn: string, r: DryRunResult | undefined): unknown =>
      code.decodeResult(fn, ok(r, fn), 'ok');
    const info = readEpochInfo(decode(electionCode!, 'epoch_info', infoResult));
    const pinReward = readPinRewardInfo(decode(electionCode!, 'pin_reward_info', pinResult));
    const sorted = readAnswer(
      stakingCode!,
      'sorted_validators',
      ok(sortedResult, 'sorted_validators'),
      readFateStakes,
      readStakes,
    );
    const validators = sorted.map(([v]) => v);
    // a state this version does not read (or a failed call) leaves the per-validator calls to read what they can
    const balances = stateCall ? readBalances(stakingCode!, stateResult) : undefined;
    const [schedule, states] = await Promise.all([
      info.seed ? this.#leaders(election, at, info, electionCode!) : [],
      balances ? [] : this.#validatorStates(contracts.staking, at, validators, stakingCode!),
    ]);
    const locked = this.#delegates(validators, states, lockedEpochs(gen.height, info.epoch));
    // rewards are read from the node's current record only; the older one states no balance (validator-state.ts)
    const record = states && recordOf(states);
    if (record === null) this.#unread.tell('state', contracts.staking, at);
    if (record === 'get_validator_response') this.#unread.tell('balance', contracts.staking, at);
    const paid = rewardedEpoch(gen.height, info.epoch);
    const before = previousBlock(gen);
    let rewards: RewardLoad[] = [];
    if (paid !== undefined && before !== undefined) {
      const boundary = { staking: contracts.staking, stakingCode: stakingCode!, at, before, epoch: paid };
      if (balances) rewards = await this.#stateRewards({ ...boundary, after: balances });
      else if (record === 'validator')
        rewards = await this.#rewards({
          ...boundary,
          election,
          electionCode: electionCode!,
          validators,
          after: states ?? [],
        });
    }
    const seed = encodeSeed(info.seed);
    return {
      epoch: {
        loadedAt: gen.height,
        epoch: info.epoch,
        first: info.start,
        length: info.length,
        seed,
        // the node's seed of an epoch is the hash of the parent chain's block at its entropy height: one value, two keys
        parentBlockHash: seed,
        startTimeMs: Number(gen.keyBlock.time),
        pinReward: pinReward.current,
        validators: info.stakes.map(([validator, stake]) => ({ validator, stake })),
        schedule,
        locked,
        rewards,
      },
      pin: pinOf(gen, pinReward, info.epoch - 1),
    };
  }

  async #leaders(election: string, at: string, info: EpochInfo, code: BytecodeEncoder): Promise<string[]> {
    const calldata = this.#schedule.encodeCall('HCElection', 'validator_schedule', [
      info.seed,
      info.stakes.map(([v, s]) => [v, s]),
      info.length,
    ]);
    const [result] = await this.#dryRun(at, [fateCall(election, calldata)]);
    return readSchedule(code.decodeResult('validator_schedule', ok(result, 'validator_schedule'), 'ok'), info.length);
  }

  /**
   * #validatorStates asks, at a boundary, `get_validator_state` of the validators whose stakes it locks
   * (`sorted_validators()` there), in their order; undefined when the staking contract has no such function. Read at
   * the boundary, not at the locked epoch's own start three epochs later: one state per epoch, the one its other
   * dry-runs read.
   */
  async #validatorStates(
    staking: string,
    at: string,
    validators: readonly string[],
    code: BytecodeEncoder,
  ): Promise<StateRead[] | undefined> {
    if (validators.length === 0) return [];
    let calls: DryRunCall[];
    try {
      calls = validators.map((v) => this.#call(staking, code, 'get_validator_state', v));
    } catch {
      this.#unread.tell('state', staking, at); // a staking contract without get_validator_state(address)
      return undefined;
    }
    const results = await this.#dryRun(at, calls);
    return results.map((r) => readState(code, r));
  }

  /**
   * #delegates are the delegates of the epochs a boundary locks, which sum to their validators' stakes, as
   * `get_validator_response` states them; the node's current `validator` record has none (no rows, as the contract
   * keeps none).
   */
  #delegates(validators: readonly string[], states: StateRead[] | undefined, epochs: number[]): DelegatesLoad[] {
    return validators.flatMap((validator, i) => {
      const state = states?.[i];
      if (state?.record !== 'get_validator_response') return [];
      return epochs.map((epoch) => ({ epoch, validator, delegates: state.delegates }));
    });
  }

  /** #rewards are the rewards a boundary paid (rewards.ts), or none when they cannot be read (told once). */
  async #rewards(boundary: PaidBoundary): Promise<RewardLoad[]> {
    return this.#told(await readRewards(this.#ask, boundary), boundary);
  }

  /** #stateRewards are the same read from `get_state()` (rewards.ts). */
  async #stateRewards(boundary: PaidStateBoundary): Promise<RewardLoad[]> {
    return this.#told(await readStateRewards(this.#ask, boundary), boundary);
  }

  #told(rows: RewardLoad[] | RewardsUnread, boundary: { staking: string; at: string }): RewardLoad[] {
    if (typeof rows !== 'string') return rows;
    this.#unread.tell(rows, boundary.staking, boundary.at);
    return [];
  }

  /** #stateCall is `get_state()` of the staking contract, undefined when its code has no such function. */
  #stateCall(staking: string, code: BytecodeEncoder): DryRunCall | undefined {
    try {
      return this.#call(staking, code, 'get_state');
    } catch {
      return undefined;
    }
  }

  #codeOf(contract: string): Promise<string> {
    let code = this.#code.get(contract);
    if (!code) {
      code = this.#deps.node.contractCode(contract);
      this.#code.set(contract, code);
      code.catch(() => this.#code.delete(contract));
    }
    return code;
  }

  /** #call is a dry-run's call of `fn(arg?)` on `contract`. */
  #call(contract: string, code: BytecodeEncoder, fn: string, arg?: string | number): DryRunCall {
    return fateCall(contract, this.#encode(contract, code, fn, arg));
  }

  /** #encode is the calldata of `fn(arg?)` on `contract`, encoded once (a call the code lacks throws, each time). */
  #encode(contract: string, code: BytecodeEncoder, fn: string, arg?: string | number): string {
    const key = `${contract} ${fn} ${arg ?? ''}`;
    let calldata = this.#calldata.get(key);
    if (calldata === undefined) {
      try {
        calldata = code.encodeCall(fn, arg === undefined ? [] : [arg]);
      } catch (err) {
        calldata = err instanceof Error ? err : new Error(String(err));
      }
      this.#calldata.set(key, calldata);
    }
    if (calldata instanceof Error) throw calldata;
    return calldata;
  }

  /**
   * #dryRun asks the node set (retried as the batch's other requests). A node that kept no state at the block (410),
   * does not know it (a fork the next step finds) or gives the read up at its time limit round after round fails it
   * with a transient error: the batch is written without its hyperchain rows, which the backfill derives once a node
   * answers; a pruning node below its GC height never does, nor a node whose limit the read passes
   * (docs/operations.md).
   */
  async #dryRun(top: string, calls: readonly DryRunCall[]): Promise<DryRunResult[]> {
    const outcome = await this.#deps.node.dryRun(top, calls);
    if (outcome === PRUNED || outcome === REFUSED || outcome === OVER_TIME_LIMIT)
      throw new NodeError(ErrorCode.NODE_BAD_RESPONSE, `the node ${WHY[outcome]} block ${top} (hyperchain epoch)`, {
        path: '/dry-run',
        transient: true,
      });
    return outcome;
  }
}

/** WHY: what the node did of a hyperchain read that gave no results, as its error says. */
const WHY = {
  [PRUNED]: 'keeps no state at',
  [REFUSED]: 'refused a dry-run at',
  [OVER_TIME_LIMIT]: 'gave a dry-run up at its time limit, round after round, at',
} as const;

function ok(result: DryRunResult | undefined, fn: string): string {
  if (!result?.ok)
    throw new NodeError(ErrorCode.NODE_BAD_RESPONSE, `hyperchain ${fn} failed: ${result?.reason ?? 'no result'}`, {
      path: '/dry-run',
      transient: true,
    });
  return result.value;
}

/** hyperchainReader is the reader of a role that loads heights (the populator, -H): it detects over `node`'s nodes. */
export function hyperchainReader(
  node: HyperchainReaderDeps['node'] & Pick<NodeClient, 'nodes'>,
  decoder: HyperchainReaderDeps['decoder'],
  opts: Pick<DetectOptions, 'timeoutMs' | 'signal' | 'meters'> & {
    log?: Pick<Logger, 'warn'>;
    /** whether the chain is a hyperchain, when the role knows it already (chain-transfer-rules.ts): not asked again */
    known?: HyperchainRecord;
  },
): HyperchainReader {
  const { log, known, ...detectOptions } = opts;
  const detect = (): Promise<HyperchainRecord> =>
    known ? Promise.resolve(known) : detectHyperchain({ urls: node.nodes.urls, ...detectOptions });
  return new HyperchainReader({ node, decoder, detect, ...(log ? { log } : {}) });
}
