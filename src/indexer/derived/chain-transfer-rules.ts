/**
 * @module The transfer rules of the chain a role loads or verifies: the configured ones, but a hyperchain's rewards
 * on a hyperchain (which pays no key block's beneficiary: block-rewards.ts), chosen without any setting.
 */
import type { Config } from '../../config/middleware.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { hyperchainRecord, type HyperchainRecord } from '../../db/queries/hyperchain.ts';
import type { Logger } from '../../base/log.ts';
import { detectHyperchain, type DetectOptions } from '../hyperchain/detect.ts';
import { transferRulesOf, type TransferRules } from './internal-transfers.ts';

type RulesConfig = Pick<Config, 'rewardRules' | 'rewardRulesSet' | 'genesisAccountsFile' | 'hardForkFiles'>;

/**
 * chainRecord reads whether the chain is a hyperchain from the schema's record (`hc_chain`, what the loader wrote
 * with its first batch: the populator, -H and -v then agree on the rules the stored rows were derived by, without
 * asking the node again), or, in a schema without one yet (a first start, -H into a new schema, -v --full's scratch
 * load), asks the nodes as the loader will (detect.ts: 4 rounds, then it fails): a chain is a hyperchain from
 * genesis or never, so both answers are the same.
 */
export async function chainRecord(
  cfg: Pick<Config, 'nodeUrls' | 'nodeTimeoutMs'>,
  db: Queryable,
  detect: Pick<DetectOptions, 'signal' | 'meters'> = {},
  /** the nodes' answer asked already (while the role checked its schema); one that failed is asked again */
  asked?: Promise<HyperchainRecord>,
): Promise<HyperchainRecord> {
  const ask = () => detectHyperchain({ urls: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs, ...detect });
  return (await hyperchainRecord(db)) ?? (await (asked?.catch(ask) ?? ask()));
}

/**
 * transferRulesFor is the configured rules with a hyperchain's rewards on a hyperchain. A REWARD_RULES set there is
 * ignored rather than refused (the operator docs promise a hyperchain needs nothing but its node's URL), and said.
 */
export function transferRulesFor(
  cfg: RulesConfig,
  chain: HyperchainRecord,
  log: Pick<Logger, 'warn'>,
): Promise<TransferRules> {
  if (chain.hyperchain && cfg.rewardRulesSet)
    log.warn(
      { rewardRules: cfg.rewardRules },
      'REWARD_RULES is ignored on a hyperchain: its key blocks pay their rewards into the staking contract, no beneficiary',
    );
  return transferRulesOf(cfg, chain);
}

/** chainTransferRules is the rules of the chain in `db` (chainRecord), for a role that runs once (-H, -v). */
export async function chainTransferRules(
  cfg: RulesConfig & Pick<Config, 'nodeUrls' | 'nodeTimeoutMs'>,
  db: Queryable,
  log: Pick<Logger, 'warn'>,
): Promise<TransferRules> {
  return transferRulesFor(cfg, await chainRecord(cfg, db), log);
}
