/**
 * @module AEX-N rows of a generation: the contracts the detector found (FetchedGeneration.aexn, rows.ts) and the
 * standard AEX-9 events read from the call logs. Events are kept for any emitter here; the writer keeps
 * those of AEX-9 contracts only, emitted after the block their creation balances were read at, and Deposit and
 * Withdrawal of wrapped AE only. Pure.
 */
import type { Aex9EventKind, Aex9LogRow, AexnRows } from '../../db/writes/token-rows.ts';
import { callEvents, eventTopic, topicId } from './call-events.ts';
import type { FetchedGeneration, TxPosition } from './rows.ts';

/** EmittedLog is one event of a contract tx, numbered in emission order as ae_mdw numbers them. */
export interface EmittedLog extends TxPosition {
  readonly address: string;
  readonly logIdx: number;
  readonly topics: readonly bigint[];
}

/** emittedLogs lists the events of a generation's contract txs in chain order (call-events.ts reads each log). */
export function emittedLogs(gen: FetchedGeneration): EmittedLog[] {
  const logs: EmittedLog[] = [];
  gen.microBlocks.forEach((mb, i) => {
    const microIndex = (gen.continuesAt ?? 0) + i;
    mb.transactions.forEach((signed, txIndex) => {
      const txHash = String(signed.hash);
      for (const { logIdx, address, topics } of callEvents(gen.callInfos.get(txHash) ?? null))
        logs.push({ height: gen.height, microIndex, txIndex, txHash, logIdx, address, topics });
    });
  });
  return logs;
}

/** The AEX-9 events that move balances: their topic, kind, and which indexed arguments are from/to. */
const AEX9_EVENTS: ReadonlyMap<bigint, { kind: Aex9EventKind; from?: number; to?: number; arity: number }> = new Map([
  [eventTopic('Transfer'), { kind: 'transfer', from: 1, to: 2, arity: 4 }],
  [eventTopic('Mint'), { kind: 'mint', to: 1, arity: 3 }],
  [eventTopic('Burn'), { kind: 'burn', from: 1, arity: 3 }],
  [eventTopic('Swap'), { kind: 'swap', from: 1, arity: 3 }],
  [eventTopic('Deposit'), { kind: 'deposit', to: 1, arity: 3 }],
  [eventTopic('Withdrawal'), { kind: 'withdrawal', from: 1, arity: 3 }],
]);

/** aex9Event reads a log as a balance-moving AEX-9 event, or undefined when it is none. */
export function aex9Event(log: EmittedLog): Aex9LogRow | undefined {
  const event = AEX9_EVENTS.get(log.topics[0] ?? -1n);
  if (!event || log.topics.length !== event.arity) return undefined;
  const amount = log.topics[event.arity - 1]!;
  const from = event.from === undefined ? null : topicId(log.topics[event.from]!, 'ak');
  const to = event.to === undefined ? null : topicId(log.topics[event.to]!, 'ak');
  if (from === undefined || to === undefined || amount < 0n) return undefined;
  const { height, microIndex, txIndex, txHash, logIdx } = log;
  return {
    height,
    microIndex,
    txIndex,
    txHash,
    logIdx,
    contractId: log.address,
    kind: event.kind,
    from,
    to,
    amount: amount.toString(),
  };
}

/** aexnRows gives a generation's AEX-N rows. */
export function aexnRows(gen: FetchedGeneration): AexnRows {
  const found = gen.aexn;
  return {
    contracts: found?.contracts ?? [],
    callCreated: found?.callCreated ?? [],
    seeds: found?.seeds ?? [],
    aex9Logs: emittedLogs(gen).flatMap((log) => aex9Event(log) ?? []),
    dexFactories: found?.dexFactories ?? [],
  };
}
