/**
 * @module The devnode: an æternity-compatible development node (not a real node; /v2/status says
 * `node_version: devnode-…`, /v3/status a 7.x version the SDK accepts, `+devnode.…`). Every path below is
 * served under /v3 as well, with the node's /v3-only reads and CORS headers (docs/devnode.md). External port: the node's /v2 chain, transaction, account, oracle,
 * name, contract and channel reads, POST /v2/transactions, GET /v2/key-blocks/pending. Internal
 * port: POST /v2/key-blocks (shape checked, proof of work NOT verified), the /v2/debug builders,
 * GET /v2/debug/transactions/pending, and the devnode's own controls POST /v2/debug/dev/fork
 * `{"depth": d}` and POST /v2/debug/dev/mine `{"key_blocks": n}` (0 = seal the mempool only).
 */
export {
  startDevnode,
  genesisAccountsJson,
  DEFAULT_ACCOUNT_BALANCE,
  type Devnode,
  type DevnodeOptions,
} from './devnode.ts';
export { deriveKey } from './keys.ts';
export {
  generateChain,
  signBuilt,
  GENESIS_TIME,
  GENERATED_BALANCE,
  type GenerateOptions,
  type GeneratedChain,
} from './generator.ts';
export {
  hardForkFilesJson,
  parseHardForkSchedule,
  forkContractId,
  type DevnodeHardFork,
  type ForkAccount,
  type ForkContract,
} from './rules/hard-forks.ts';
export { Chain, type ChainOptions, type KeyBlock, type MicroBlock, type TxRecord } from './chain.ts';
export { DEVNODE_CONTRACT_BYTECODE, GA_CONTRACT_BYTECODE, contractCallData } from './contracts/fate-contract.ts';
export { BYTECODE } from './contracts/standards.ts';
export { deployDex, type DevnodeDex } from './dex-setup.ts';
export {
  GA_ACI,
  HC_ELECTION_ACI,
  HC_STAKING_ACI,
  HC_STAKING_VALIDATOR_ACI,
  TOKEN_ACI,
  type Aci,
} from './contracts/aci.ts';
export { Hyperchain, HC_CONTRACT_OWNER, type EpochView, type HyperchainConfig } from './hyperchain/consensus.ts';
export { devnodeHyperchain, HYPERCHAIN_NETWORK_ID, type HyperchainOptions } from './hyperchain/setup.ts';
export { EOE_FLAG, HOLE_FLAG, validatorSchedule } from './contracts/hc-schedule.ts';
export type { StakingRecord } from './contracts/hc-types.ts';
export { keyPairFromSeed, parseSecretKey, randomKeyPair, type KeyPair } from './keys.ts';
export { hotSpotSizes, scaleChain, type HotSpotSizes } from './traffic/hot-spots.ts';
