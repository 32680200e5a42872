/**
 * @module What a batch of a hyperchain's heights adds about its consensus, read before the batch's transaction: each
 * key block's flags, and at each epoch boundary (genesis, an EOE key block) one set of dry-runs for the epoch that
 * starts: `epoch_info()` and `pin_reward_info()` at the boundary, `validator_schedule(...)` for its leaders, and each
 * validator's `get_validator_state` at the key block that locked the epoch's stakes (the end of the epoch four before:
 * its delegates sum to the locked stake). Nothing is read per height.
 */
import { AciContractCallEncoder } from '@aeternity/aepp-calldata';
import { ErrorCode } from '../../errors.ts';
import type { HyperchainContracts, HyperchainRecord } from '../../db/queries/hyperchain.ts';
import { PRUNED, REFUSED, type DryRunCall, type DryRunResult } from '../../node/dry-run.ts';
import { NodeError } from '../../node/errors.ts';
import type { NodeClient } from '../../node/client.ts';
import type { ContractDecoder } from '../contracts/contract-decoder.ts';
import type { FetchedGeneration } from '../rows/rows.ts';
import { detectHyperchain } from './detect.ts';
import { SCHEDULE_ACI } from './schedule-aci.ts';
import {
  encodeSeed,
  isEpochBoundary,
  pinOf,
  producedRow,
  readDelegates,
  readEpochInfo,
  readPinRewardInfo,
  readSchedule,
} from './epoch-rows.ts';
import type { EpochLoad, HyperchainBatch, PinLoad, ValidatorLoad } from '../../db/writes/hyperchain-rows.ts';

/** What the reader asks: the node (in the populator's node set), the contract decoder (code and FATE encoders). */
export interface HyperchainReaderDeps {
  readonly node: Pick<NodeClient, 'dryRun' | 'contractCode' | 'keyBlock'>;
  readonly decoder: Pick<ContractDecoder, 'encoder'>;
  /** whether the node runs a hyperchain (detect.ts), asked once per reader */
  readonly detect: () => Promise<HyperchainRecord>;
}

/** HyperchainReader reads a batch's consensus rows; a chain that is not a hyperchain gives none. */
export class HyperchainReader {
  readonly #deps: HyperchainReaderDeps;
  #record: Promise<HyperchainRecord> | undefined;
  readonly #schedule = new AciContractCallEncoder(SCHEDULE_ACI as never);

  constructor(deps: HyperchainReaderDeps) {
    this.#deps = deps;
  }

  /** read gives the rows of generations `gens` (ascending; an append of micro blocks gives none of its own). */
  async read(gens: readonly FetchedGeneration[]): Promise<HyperchainBatch> {
    this.#record ??= this.#deps.detect().catch((err: unknown) => {
      this.#record = undefined;
      throw err;
    });
    const record = await this.#record;
    if (!record.contracts) return { record, produced: [], epochs: [], pins: [] };
    const whole = gens.filter((g) => g.continuesAt === undefined);
    const produced = whole.flatMap((g) => producedRow(g) ?? []);
    // the batch's boundaries at once: each waits on the node only (its dry-runs), in the node set's slots
    const contracts = record.contracts;
    const read = await Promise.all(whole.filter(isEpochBoundary).map((gen) => this.#epochAt(contracts, gen, gens)));
    const epochs: EpochLoad[] = read.map((r) => r.epoch);
    const pins: PinLoad[] = read.flatMap((r) => r.pin ?? []);
    return { record, produced, epochs, pins };
  }

  async #epochAt(
    contracts: HyperchainContracts,
    gen: FetchedGeneration,
    batch: readonly FetchedGeneration[],
  ): Promise<{ epoch: EpochLoad; pin: PinLoad | undefined }> {
    const election = contracts.election ?? contracts.staking;
    const electionCode = this.#deps.decoder.encoder(await this.#deps.node.contractCode(election));
    const at = String(gen.keyBlock.hash);
    const [infoResult, pinResult] = await this.#dryRun(at, [
      { contract: election, calldata: electionCode.encodeCall('epoch_info', []) },
      { contract: election, calldata: electionCode.encodeCall('pin_reward_info', []) },
    ]);
    const info = readEpochInfo(electionCode.decodeResult('epoch_info', ok(infoResult, 'epoch_info'), 'ok'));
    const pinReward = readPinRewardInfo(
      electionCode.decodeResult('pin_reward_info', ok(pinResult, 'pin_reward_info'), 'ok'),
    );
    const [schedule, validators] = await Promise.all([
      info.seed ? this.#leaders(election, at, info, electionCode) : [],
      this.#validators(contracts.staking, info, gen, batch),
    ]);
    return {
      epoch: {
        loadedAt: gen.height,
        epoch: info.epoch,
        first: info.start,
        length: info.length,
        seed: encodeSeed(info.seed),
        startTimeMs: Number(gen.keyBlock.time),
        pinReward: pinReward.current,
        validators,
        schedule,
      },
      pin: pinOf(gen, pinReward, info.epoch - 1),
    };
  }

  async #leaders(
    election: string,
    at: string,
    info: ReturnType<typeof readEpochInfo>,
    code: ReturnType<ContractDecoder['encoder']>,
  ): Promise<string[]> {
    const calldata = this.#schedule.encodeCall('HCElection', 'validator_schedule', [
      info.seed,
      info.stakes.map(([v, s]) => [v, s]),
      info.length,
    ]);
    const [result] = await this.#dryRun(at, [{ contract: election, calldata }]);
    return readSchedule(code.decodeResult('validator_schedule', ok(result, 'validator_schedule'), 'ok'), info.length);
  }

  /** #validators reads each validator's delegates where its stake was locked: the end of the epoch four before. */
  async #validators(
    staking: string,
    info: ReturnType<typeof readEpochInfo>,
    gen: FetchedGeneration,
    batch: readonly FetchedGeneration[],
  ): Promise<ValidatorLoad[]> {
    if (info.stakes.length === 0) return [];
    const lockedAt = Math.max(0, gen.height - 3 * info.length);
    const lockBlock = batch.find((g) => g.height === lockedAt && g.continuesAt === undefined)?.keyBlock.hash;
    const top = String(lockBlock ?? (await this.#deps.node.keyBlock(lockedAt)).hash);
    const code = this.#deps.decoder.encoder(await this.#deps.node.contractCode(staking));
    const results = await this.#dryRun(
      top,
      info.stakes.map(([v]) => ({ contract: staking, calldata: code.encodeCall('get_validator_state', [v]) })),
    );
    return info.stakes.map(([validator, stake], i) => {
      const r = results[i];
      const delegates = r?.ok ? readDelegates(code.decodeResult('get_validator_state', r.value, 'ok')) : undefined;
      return { validator, stake, delegates };
    });
  }

  /**
   * #dryRun asks the node set (retried as the batch's other requests). A node that kept no state at the block (410)
   * or does not know it (a fork the next step finds) fails the batch with a transient error: it is asked again after
   * a backoff, as every read the batch needs; a pruning node below its GC height never answers (docs/operations.md).
   */
  async #dryRun(top: string, calls: readonly DryRunCall[]): Promise<DryRunResult[]> {
    const outcome = await this.#deps.node.dryRun(top, calls);
    if (outcome === PRUNED || outcome === REFUSED)
      throw new NodeError(
        ErrorCode.NODE_BAD_RESPONSE,
        `the node ${outcome === PRUNED ? 'keeps no state at' : 'refused a dry-run at'} block ${top} (hyperchain epoch)`,
        { path: '/dry-run', transient: true },
      );
    return outcome;
  }
}

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
  opts: { readonly timeoutMs: number; readonly signal?: AbortSignal },
): HyperchainReader {
  const detect = (): Promise<HyperchainRecord> => detectHyperchain({ urls: node.nodes.urls, ...opts });
  return new HyperchainReader({ node, decoder, detect });
}
