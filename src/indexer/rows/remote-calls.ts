/**
 * @module The contracts a batch's calls reached through another (contract_remote_calls, migrations 1003 and 1154): for
 * each call, every contract but the called one whose address is on an entry of its log, as remote_log_emitters reads
 * the stored call info. Pure.
 */
import { isJsonObject } from '../../chain/json.ts';
import type { ContractCallRow, RemoteCallRow } from './rows.ts';

/** remoteCalls lists, per call, the other contracts that emitted an event of its log, each once. */
export function remoteCalls(calls: readonly ContractCallRow[]): RemoteCallRow[] {
  const out: RemoteCallRow[] = [];
  for (const call of calls) {
    const log = call.callInfo?.log;
    if (!Array.isArray(log)) continue;
    const emitters = new Set<string>();
    for (const entry of log) {
      const address = isJsonObject(entry) ? entry.address : undefined;
      if (typeof address === 'string' && address.startsWith('ct_') && address !== call.contractId)
        emitters.add(address);
    }
    for (const contractId of emitters)
      out.push({ contractId, height: call.height, microIndex: call.microIndex, txIndex: call.txIndex });
  }
  return out;
}
