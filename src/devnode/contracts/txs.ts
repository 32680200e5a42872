/** @module ContractCreateTx and ContractCallTx of the native contracts, built for the generator and tests. Pure. */
import { FATE_ABI_VERSION, FATE_VM_VERSION } from '../fate-contract.ts';
import type { KeyPair } from '../keys.ts';
import type { BuiltTx } from '../traffic-kit.ts';
import { jsonInt } from '../tx-codec.ts';
import { functionId } from './bytecode.ts';
import { encodeCallData, type FateValue } from './fate.ts';
import { BYTECODE, type ContractKind } from './standards.ts';

/** CONTRACT_GAS is the gas given to each generated call (a router swap over two pairs uses about 12k). */
export const CONTRACT_GAS = 50_000;
const GAS_PRICE = 1_000_000_000;
const FEE = 200_000;

/** callData encodes a call of `fn` with these arguments. */
export const callData = (fn: string, args: readonly FateValue[]): string => encodeCallData(functionId(fn), args);

/** createTx deploys a native contract of `kind`, calling `init(args)`. */
export function createTx(owner: KeyPair, nonce: number, kind: ContractKind, args: readonly FateValue[]): BuiltTx {
  return {
    tx: {
      type: 'ContractCreateTx',
      version: 1,
      owner_id: owner.address,
      nonce,
      code: BYTECODE[kind],
      vm_version: FATE_VM_VERSION,
      abi_version: FATE_ABI_VERSION,
      deposit: 0,
      amount: 0,
      gas: CONTRACT_GAS,
      gas_price: GAS_PRICE,
      fee: FEE + 100_000,
      call_data: callData('init', args),
    },
    signers: [owner],
  };
}

/** callTx calls `fn(args)` of a contract, sending `amount` AE. */
export function callTx(
  caller: KeyPair,
  nonce: number,
  contract: string,
  fn: string,
  args: readonly FateValue[],
  amount = 0n,
): BuiltTx {
  return {
    tx: {
      type: 'ContractCallTx',
      version: 1,
      caller_id: caller.address,
      nonce,
      contract_id: contract,
      abi_version: FATE_ABI_VERSION,
      amount: jsonInt(amount),
      gas: CONTRACT_GAS,
      gas_price: GAS_PRICE,
      fee: FEE,
      call_data: callData(fn, args),
    },
    signers: [caller],
  };
}
