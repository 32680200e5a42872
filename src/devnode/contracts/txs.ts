/** @module ContractCreateTx and ContractCallTx of the native contracts, built for the generator and tests. Pure. */
import { FATE_ABI_VERSION, FATE_VM_VERSION } from './fate-contract.ts';
import type { KeyPair } from '../keys.ts';
import { jsonInt, type BuiltTx } from '../tx-codec.ts';
import { functionId } from './bytecode.ts';
import { encodeCallData, type FateValue } from '../../chain/fate.ts';
import { BYTECODE, type ContractKind } from './standards.ts';

/** CONTRACT_GAS is the gas given to each generated call (a router swap over two pairs uses about 12k). */
export const CONTRACT_GAS = 50_000;
const GAS_PRICE = 1_000_000_000;
const FEE = 200_000;

/** callData encodes a call of `fn` with these arguments. */
export const callData = (fn: string, args: readonly FateValue[]): string => encodeCallData(functionId(fn), args);

/** What a ContractCreateTx pays and sends: the amount, gas, gas price and fee, and its init call's data. */
export interface CreateTerms {
  readonly amount: number;
  readonly gas: number;
  readonly gasPrice: number;
  readonly fee: number;
  readonly callData: string;
}

/** contractCreateTx deploys FATE `code` from `owner` (no deposit), calling init with `terms.callData`. */
export function contractCreateTx(owner: KeyPair, nonce: number, code: string, terms: CreateTerms): BuiltTx {
  return {
    tx: {
      type: 'ContractCreateTx',
      version: 1,
      owner_id: owner.address,
      nonce,
      code,
      vm_version: FATE_VM_VERSION,
      abi_version: FATE_ABI_VERSION,
      deposit: 0,
      amount: terms.amount,
      gas: terms.gas,
      gas_price: terms.gasPrice,
      fee: terms.fee,
      call_data: terms.callData,
    },
    signers: [owner],
  };
}

/** createTx deploys a native contract of `kind`, calling `init(args)`. */
export function createTx(owner: KeyPair, nonce: number, kind: ContractKind, args: readonly FateValue[]): BuiltTx {
  return contractCreateTx(owner, nonce, BYTECODE[kind], {
    amount: 0,
    gas: CONTRACT_GAS,
    gasPrice: GAS_PRICE,
    fee: FEE + 100_000,
    callData: callData('init', args),
  });
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
