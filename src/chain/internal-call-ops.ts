/**
 * @module Which contract code can make internal calls. The node records an internal call (a dry-run's `tx_events`,
 * ae_mdw's /v3/contracts/calls) only where FATE runs an operation on the chain's state: a spend, a remote call (it may
 * carry AE, and the contract it calls may do any of these), a contract created or cloned, a name's or an oracle's
 * transaction. Code that holds none of these operations makes none, whatever its arguments: the populator runs such a
 * call again for nothing. Pure.
 */
import { ContractEncoder } from '@aeternity/aepp-calldata';
import { LRUCache } from 'lru-cache';

/** INTERNAL_CALL_OPS: the FATE operations that record an internal call (as aepp-calldata names them). */
export const INTERNAL_CALL_OPS: ReadonlySet<string> = new Set([
  'SPEND',
  'CALL_R',
  'CALL_GR',
  'CALL_PGR',
  'CREATE',
  'CLONE',
  'CLONE_G',
  'AENS_PRECLAIM',
  'AENS_CLAIM',
  'AENS_UPDATE',
  'AENS_TRANSFER',
  'AENS_REVOKE',
  'ORACLE_REGISTER',
  'ORACLE_QUERY',
  'ORACLE_RESPOND',
  'ORACLE_EXTEND',
]);

interface DecodedContract {
  readonly bytecode: {
    readonly functions: readonly { readonly instructions: readonly (readonly { readonly mnemonic: string }[])[] }[];
  };
}

// decoding a contract takes about a millisecond; a deployed contract's calls share its verdict
const verdicts = new LRUCache<string, boolean>({ max: 4096 });

/**
 * mayMakeInternalCalls says whether deployed code (`cb_…`) holds an operation that makes an internal call. Code that
 * does not decode as FATE (AEVM's, or a later serialisation) may: only what is known to make none is left out.
 */
export function mayMakeInternalCalls(code: string): boolean {
  let verdict = verdicts.get(code);
  if (verdict === undefined) {
    verdict = holdsInternalCallOps(code);
    verdicts.set(code, verdict);
  }
  return verdict;
}

function holdsInternalCallOps(code: string): boolean {
  let contract: DecodedContract;
  try {
    contract = new ContractEncoder().decode(code as `cb_${string}`) as unknown as DecodedContract;
  } catch {
    return true;
  }
  return contract.bytecode.functions.some((f) =>
    f.instructions.some((b) => b.some((i) => INTERNAL_CALL_OPS.has(i.mnemonic))),
  );
}
