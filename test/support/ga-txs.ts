/** @module A generalized account's transactions on the devnode: the account attached, and a meta transaction of it. */
import {
  contractCallData,
  FATE_ABI_VERSION,
  FATE_VM_VERSION,
  GA_AUTH_FUN,
  GA_CONTRACT_BYTECODE,
  gaAuthData,
} from '../../src/devnode/contracts/fate-contract.ts';
import type { KeyPair } from '../../src/devnode/keys.ts';
import type { BuiltTx, TxFields } from '../../src/devnode/tx-codec.ts';

/** the gas price of both transactions' own gas */
export const GA_GAS_PRICE = 1_000_000_000;

/** gaAttachTx makes `key`'s account a generalized one (the devnode's GA contract, its first transaction). */
export function gaAttachTx(key: KeyPair): BuiltTx {
  return {
    tx: {
      type: 'GAAttachTx',
      version: 1,
      owner_id: key.address,
      nonce: 1,
      code: GA_CONTRACT_BYTECODE,
      auth_fun: GA_AUTH_FUN,
      vm_version: FATE_VM_VERSION,
      abi_version: FATE_ABI_VERSION,
      fee: 100_000_000_000_000,
      gas: 10_000,
      gas_price: GA_GAS_PRICE,
      call_data: contractCallData('init', []),
    },
    signers: [key],
  };
}

/** gaMetaTx is the generalized account `ga`'s meta transaction of `inner`, authorized by the nonce `auth`. */
export function gaMetaTx(ga: string, auth: bigint, inner: TxFields): BuiltTx {
  return {
    tx: {
      type: 'GAMetaTx',
      version: 2,
      ga_id: ga,
      auth_data: gaAuthData(auth),
      abi_version: FATE_ABI_VERSION,
      fee: 100_000_000_000_000,
      gas: 5000,
      gas_price: GA_GAS_PRICE,
      tx: { tx: inner, signatures: [] },
    },
    signers: [],
  };
}
