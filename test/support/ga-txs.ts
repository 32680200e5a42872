/**
 * @module A generalized account's transactions on the devnode: the account attached, a meta transaction of it, and the
 * inner transactions the tests wrap (a GA's own transactions have nonce 0: its authentication stands for the nonce).
 */
import {
  contractCallData,
  FATE_ABI_VERSION,
  FATE_VM_VERSION,
  GA_AUTH_FUN,
  GA_CONTRACT_BYTECODE,
  gaAuthData,
} from '../../src/devnode/contracts/fate-contract.ts';
import type { KeyPair } from '../../src/devnode/keys.ts';
import { encode } from '../../src/chain/encoding.ts';
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

/** fundGa is `owner`'s spend of `amount` to the account `ga` before it is attached, at `owner`'s `nonce`. */
export function fundGa(owner: KeyPair, ga: string, amount: bigint, nonce: number): BuiltTx {
  return {
    tx: {
      type: 'SpendTx',
      version: 1,
      sender_id: owner.address,
      recipient_id: ga,
      amount,
      fee: 20_000_000_000_000,
      nonce,
      payload: encode('ba', Buffer.from('')),
    },
    signers: [owner],
  };
}

/** the fee of a GA's inner spend */
export const INNER_SPEND_FEE = 20_000_000_000_000n;

/** innerSpend is the GA `ga`'s spend of `amount` to `to`, to wrap in its meta transaction (one above its balance fails). */
export function innerSpend(ga: string, to: string, amount: bigint): TxFields {
  return {
    type: 'SpendTx',
    version: 1,
    sender_id: ga,
    recipient_id: to,
    amount,
    fee: INNER_SPEND_FEE,
    nonce: 0,
    payload: encode('ba', Buffer.from('inner')),
  };
}

/** innerClaim is the GA `ga`'s claim of `name` without a preclaim: it fails inside its meta transaction. */
export function innerClaim(ga: string, name: string): TxFields {
  return {
    type: 'NameClaimTx',
    version: 2,
    account_id: ga,
    nonce: 0,
    name,
    name_salt: 12345,
    name_fee: 10n ** 18n,
    fee: 100_000_000_000_000,
  };
}
