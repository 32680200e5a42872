/**
 * @module What ae_mdw reads from a GAAttachTx's own code (Contract.get_ga_attach_call_details): the name of the
 * authentication function its `auth_fun` hash names, and its init call's decoded arguments. Pure.
 */
import { BytecodeContractCallEncoder, ContractEncoder } from '@aeternity/aepp-calldata';
import type { Json } from '../../chain/json.ts';
import type { JsonObject } from '../rows/rows.ts';
import { toJsonValue, type BytecodeEncoder } from './contract-decoder.ts';

/** A GAAttachTx's authentication function and init arguments; null where its code does not tell. */
export interface AttachDetails {
  readonly authFunName: string | null;
  readonly args: Json;
}

/**
 * attachDetails reads them from a FATE GAAttachTx: a function is named in the code's symbols by the first 4 bytes of
 * its name's hash, which `auth_fun` is; the init arguments are decoded from `call_data` as a ContractCreateTx's are.
 */
export function attachDetails(tx: JsonObject): AttachDetails {
  const code = String(tx.code) as `cb_${string}`;
  if (Number(tx.abi_version) !== 3) return { authFunName: null, args: null };
  let authFunName: string | null = null;
  try {
    const { symbols } = (new ContractEncoder().decode(code) as { bytecode: { symbols: Record<string, string> } })
      .bytecode;
    const id = /^0x([0-9a-f]{8})/i.exec(String(tx.auth_fun))?.[1]?.toLowerCase();
    authFunName = (id !== undefined && symbols[id]) || null;
  } catch {
    // code that does not decode names no function; its arguments do not decode either (below)
  }
  let args: Json = null;
  try {
    const encoder = new BytecodeContractCallEncoder(code) as unknown as Pick<BytecodeEncoder, 'decodeCall'>;
    args = toJsonValue(encoder.decodeCall(String(tx.call_data)).args);
  } catch {
    // arguments that do not decode stay null, as ae_mdw leaves them
  }
  return { authFunName, args };
}
