/** @module The devnode: an æternity-compatible development node (not a real node; it says so in /v2/status). */
export { startDevnode, DEFAULT_ACCOUNT_BALANCE, type Devnode, type DevnodeOptions } from './devnode.ts';
export { generateChain, deriveKey, GENESIS_TIME, GENERATED_BALANCE, type GenerateOptions, type GeneratedChain } from './generator.ts';
export { Chain, type ChainOptions, type KeyBlock, type MicroBlock, type TxRecord } from './chain.ts';
export { DEVNODE_CONTRACT_BYTECODE, contractCallData } from './fate-contract.ts';
export { keyPairFromSeed, parseSecretKey, type KeyPair } from './keys.ts';
