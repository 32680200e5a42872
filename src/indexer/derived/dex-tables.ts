/**
 * @module The DEX's tables: pairs and swaps read from the logs of a batch's contract calls (derived here, so the
 * transform stays as it is), written with the token area (derive-tokens.ts). Pure.
 */
import { callEvents } from '../rows/call-events.ts';
import { readPairCreated, readSwapTokens, type PairCreated, type SwapTokens } from './dex-events.ts';
import type { ContractCallRow, TxPosition } from '../rows/rows.ts';
import type { Column, TableColumns } from '../rows/tables.ts';

/** Where an event is: its call's position and its index in the call's log. */
type EventAt = TxPosition & { readonly logIdx: number };
/** factoryByCode: the emitter's code is a DEX factory's (a pair of it is listed whatever DEX_FACTORY names) */
export type DexPairRow = EventAt & PairCreated & { readonly factoryByCode: boolean };
export type DexSwapRow = EventAt & SwapTokens & { readonly contractId: string };

export interface DexRows {
  readonly pairs: DexPairRow[];
  readonly swaps: DexSwapRow[];
}

/**
 * dexRows finds the DEX events of calls, of any emitter: a pair is marked when its announcer is one of `factories`
 * (DEX factories by their code); DEX_FACTORY, an override, is applied when reading.
 */
export function dexRows(calls: readonly ContractCallRow[], factories: ReadonlySet<string>): DexRows {
  const rows: DexRows = { pairs: [], swaps: [] };
  for (const call of calls) {
    if (call.callInfo === null) continue;
    const { height, microIndex, txIndex, txHash } = call;
    for (const event of callEvents(call.callInfo)) {
      const at = { height, microIndex, txIndex, txHash, logIdx: event.logIdx };
      const pair = readPairCreated(event);
      if (pair) rows.pairs.push({ ...at, ...pair, factoryByCode: factories.has(pair.factory) });
      const swap = readSwapTokens(event);
      if (swap) rows.swaps.push({ ...at, ...swap, contractId: call.contractId });
    }
  }
  return rows;
}

function eventColumns<R extends EventAt>(): Column<R>[] {
  return [
    ['height', 'int', (r) => r.height],
    ['micro_index', 'int', (r) => r.microIndex],
    ['tx_index', 'int', (r) => r.txIndex],
    ['tx_hash', 'text', (r) => r.txHash],
    ['log_idx', 'int', (r) => r.logIdx],
  ];
}

/** DEX_TABLES: the tables' columns, for the token area's writes (derive-tokens.ts). */
export const DEX_TABLES = [
  {
    table: 'dex_pairs',
    columns: [
      ...eventColumns<DexPairRow>(),
      ['factory_id', 'text', (r) => r.factory],
      ['pair_id', 'text', (r) => r.pair],
      ['token0_id', 'text', (r) => r.token0],
      ['token1_id', 'text', (r) => r.token1],
      ['factory_by_code', 'boolean', (r) => r.factoryByCode],
    ],
  } satisfies TableColumns<DexPairRow>,
  {
    table: 'dex_swaps',
    columns: [
      ...eventColumns<DexSwapRow>(),
      ['pair_id', 'text', (r) => r.pair],
      ['contract_id', 'text', (r) => r.contractId],
      ['caller_id', 'text', (r) => r.caller],
      ['to_id', 'text', (r) => r.to],
      ['amount0_in', 'numeric', (r) => r.amount0In],
      ['amount1_in', 'numeric', (r) => r.amount1In],
      ['amount0_out', 'numeric', (r) => r.amount0Out],
      ['amount1_out', 'numeric', (r) => r.amount1Out],
    ],
  } satisfies TableColumns<DexSwapRow>,
] as const;
