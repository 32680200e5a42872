/**
 * @module What ae_mdw reads from a GAAttachTx's own code (Contract.get_ga_attach_call_details): the name of the
 * authentication function its `auth_fun` hash names, and its init call's decoded arguments (typed, as a call's). Pure.
 */
import { ContractEncoder } from '@aeternity/aepp-calldata';
import { LRUCache } from 'lru-cache';
import type { Json } from '../../chain/json.ts';
import type { JsonObject } from '../rows/rows.ts';
import { typedCallData } from './typed-values.ts';

/** A GAAttachTx's authentication function and init arguments; null where its code does not tell. */
export interface AttachDetails {
  readonly authFunName: string | null;
  readonly args: Json;
}

/**
 * The symbols of the codes attached last: a chain's generalized accounts attach few codes, each in many GAAttachTx
 * (the whole bytecode decoded for each was 40 ms of the ga area's on a 1 000-generation load of the perf chain).
 */
const SYMBOLS = new LRUCache<string, Readonly<Record<string, string>>>({ max: 64 });

/** codeSymbols are a FATE code's function names by their hash's first 4 bytes (none: code that does not decode). */
function codeSymbols(code: `cb_${string}`): Readonly<Record<string, string>> {
  let symbols = SYMBOLS.get(code);
  if (symbols === undefined) {
    try {
      symbols = (new ContractEncoder().decode(code) as { bytecode: { symbols: Record<string, string> } }).bytecode
        .symbols;
    } catch {
      // code that does not decode names no function; its arguments do not decode either (attachDetails)
      symbols = {};
    }
    SYMBOLS.set(code, symbols);
  }
  return symbols;
}

/**
 * attachDetails reads them from a FATE GAAttachTx: a function is named in the code's symbols by the first 4 bytes of
 * its name's hash, which `auth_fun` is; the init arguments are decoded from `call_data` as a ContractCreateTx's are.
 */
export function attachDetails(tx: JsonObject): AttachDetails {
  const code = String(tx.code) as `cb_${string}`;
  if (Number(tx.abi_version) !== 3) return { authFunName: null, args: null };
  const symbols = codeSymbols(code);
  const id = /^0x([0-9a-f]{8})/i.exec(String(tx.auth_fun))?.[1]?.toLowerCase();
  const authFunName = (id !== undefined && symbols[id]) || null;
  let args: Json = null;
  try {
    const call = typedCallData(String(tx.call_data));
    // ae_mdw takes the arguments of a call of the code's `init` only
    if (symbols[call.functionId] === 'init') args = call.args;
  } catch {
    // arguments that do not decode stay null, as ae_mdw leaves them
  }
  return { authFunName, args };
}
