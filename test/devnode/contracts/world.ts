/** @module A devnode chain for contract tests: funded keys, deploys and calls signed and admitted, dry-runs, event decoding. */
import { AciContractCallEncoder } from '@aeternity/aepp-calldata';
import { Chain, type TxRecord } from '../../../src/devnode/chain.ts';
import { GENESIS_TIME, signBuilt } from '../../../src/devnode/generator.ts';
import { deriveKey } from '../../../src/devnode/keys.ts';
import { contractId } from '../../../src/devnode/ids.ts';
import type { KeyPair } from '../../../src/devnode/keys.ts';
import { callTx, createTx } from '../../../src/devnode/contracts/txs.ts';
import type { FateValue } from '../../../src/chain/fate.ts';
import type { ContractKind } from '../../../src/devnode/contracts/standards.ts';
import type { Json } from '../../../src/chain/json.ts';

/** CallInfo is the call record as the devnode stores it. */
export interface CallInfo {
  return_type: string;
  return_value: string;
  gas_used: number;
  log: { address: string; topics: bigint[]; data: string }[];
  [k: string]: Json;
}

/** World is a chain with four funded accounts. */
export class World {
  readonly chain: Chain;
  readonly keys: KeyPair[];

  constructor(seed = 'contracts-test') {
    this.keys = Array.from({ length: 4 }, (_, i) => deriveKey(seed, `k${i}`));
    const miner = deriveKey(seed, 'miner');
    this.chain = new Chain({
      networkId: 'ae_devnet',
      miner,
      beneficiary: miner.address,
      genesisTime: GENESIS_TIME,
      genesisAccounts: this.keys.map((k) => ({ address: k.address, balance: 10n ** 30n })),
    });
    this.chain.mineKeyBlock({ time: GENESIS_TIME + 180_000 });
  }

  #nonce(k: KeyPair): number {
    return (this.chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  }

  #admit(built: ReturnType<typeof callTx>): TxRecord {
    return this.chain.admit(signBuilt('ae_devnet', built), built.tx);
  }

  /** deploy creates a contract of `kind` and returns its id and call record. */
  deploy(owner: KeyPair, kind: ContractKind, args: FateValue[]): { id: string; info: CallInfo } {
    const nonce = this.#nonce(owner);
    const record = this.#admit(createTx(owner, nonce, kind, args));
    return { id: contractId(owner.address, nonce), info: record.callInfo as CallInfo };
  }

  /** call calls `fn` and returns the call record. */
  call(caller: KeyPair, contract: string, fn: string, args: FateValue[], amount = 0n): CallInfo {
    return this.#admit(callTx(caller, this.#nonce(caller), contract, fn, args, amount)).callInfo as CallInfo;
  }
}

/** eventDecoder decodes logs with an event datatype written as an ACI (constructor → argument types). */
export function eventDecoder(variant: Record<string, string[]>[]): (log: CallInfo['log'][number]) => unknown {
  const aci = [
    {
      contract: {
        name: 'Events',
        kind: 'contract_main',
        payable: false,
        typedefs: [],
        functions: [],
        event: { variant },
      },
    },
  ];
  const encoder = new AciContractCallEncoder(aci as never);
  return (log) => encoder.decodeEvent('Events', log.data as `cb_${string}`, log.topics);
}

/** AEX9_EVENTS is the AEX-9 standard's event datatype. */
export const AEX9_EVENTS: Record<string, string[]>[] = [
  { Transfer: ['address', 'address', 'int'] },
  { Allowance: ['address', 'address', 'int'] },
  { Burn: ['address', 'int'] },
  { Mint: ['address', 'int'] },
  { Swap: ['address', 'int'] },
];
