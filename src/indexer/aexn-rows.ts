/**
 * @module AEX-N rows of a generation: the contracts the detector found (FetchedGeneration.aexn) and the
 * standard AEX-9 events read from the call logs. Events are kept for any emitter here; the writer keeps
 * those of AEX-9 contracts only, emitted after the block their creation balances were read at. Pure.
 */
import { encode, hash } from '../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../chain/json.ts';
import { bytesToInt } from '../chain/rlp.ts';
import type { AexnType } from './aexn-detect.ts';
import type { FetchedGeneration, TxPosition } from './rows.ts';

/** AexnContractRow is one AEX-9 or AEX-141 contract at its creation (table aexn_contracts). */
export interface AexnContractRow extends TxPosition {
  readonly contractId: string;
  readonly aexnType: AexnType;
  readonly createdByCall: boolean;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: number | null;
  readonly baseUrl: string | null;
  readonly metadataType: string | null;
  readonly extensions: readonly string[];
  readonly metaInvalid: boolean;
  readonly balancesUnknown: boolean;
}

/** AexnCallCreatedRow is a contract created inside a call, checked once (table aexn_call_created). */
export interface AexnCallCreatedRow extends TxPosition {
  readonly contractId: string;
  readonly aexnType: AexnType | null;
}

/** Aex9SeedRow is one holder's balance at an AEX-9 contract's creation block (from a `balances()` dry-run). */
export interface Aex9SeedRow extends TxPosition {
  readonly contractId: string;
  readonly account: string;
  readonly amount: string;
}

/** AexnFindings is what the detector found in one generation (I/O done before the transform). */
export interface AexnFindings {
  readonly contracts: readonly AexnContractRow[];
  readonly callCreated: readonly AexnCallCreatedRow[];
  readonly seeds: readonly Aex9SeedRow[];
  /** the wrapped-AE contracts whose Deposit and Withdrawal events mint and burn */
  readonly wrappedAe: ReadonlySet<string>;
}

/** The AEX-9 events that move balances (Allowance moves none). */
export type Aex9EventKind = 'transfer' | 'mint' | 'burn' | 'swap' | 'deposit' | 'withdrawal';

/** Aex9LogRow is one standard AEX-9 event: `from` loses `amount`, `to` gains it (null for mints and burns). */
export interface Aex9LogRow extends TxPosition {
  readonly contractId: string;
  readonly logIdx: number;
  readonly kind: Aex9EventKind;
  readonly from: string | null;
  readonly to: string | null;
  readonly amount: string;
}

/** AexnRows are a generation's AEX-N rows. */
export interface AexnRows {
  readonly contracts: readonly AexnContractRow[];
  readonly callCreated: readonly AexnCallCreatedRow[];
  readonly seeds: readonly Aex9SeedRow[];
  readonly aex9Logs: readonly Aex9LogRow[];
}

/** eventTopic is an event's first topic: blake2b-256 of its constructor name, as an unsigned integer. */
export const eventTopic = (name: string): bigint => bytesToInt(hash(Buffer.from(name, 'utf8')));

const MAX_TOPIC = 2n ** 256n;

/** topicAccount reads an address topic (a 32-byte public key, big-endian) as an `ak_` id; undefined if it is none. */
export function topicAccount(topic: bigint): string | undefined {
  if (topic < 0n || topic >= MAX_TOPIC) return undefined;
  return encode('ak', Buffer.from(topic.toString(16).padStart(64, '0'), 'hex'));
}

/** EmittedLog is one event of a contract tx, numbered in emission order as ae_mdw numbers them. */
export interface EmittedLog extends TxPosition {
  readonly address: string;
  readonly logIdx: number;
  readonly topics: readonly bigint[];
  readonly data: string;
}

function readLog(entry: Json): { address: string; topics: bigint[]; data: string } | undefined {
  if (!isJsonObject(entry) || typeof entry.address !== 'string' || !Array.isArray(entry.topics)) return undefined;
  try {
    return {
      address: entry.address,
      topics: entry.topics.map((t) => toBigInt(t)),
      data: typeof entry.data === 'string' ? entry.data : '',
    };
  } catch {
    return undefined;
  }
}

/**
 * emittedLogs lists the events of a generation's contract txs in chain order. The node prints a call's log
 * newest first (the FATE engine prepends each event); log_idx counts in emission order.
 */
export function emittedLogs(gen: FetchedGeneration): EmittedLog[] {
  const logs: EmittedLog[] = [];
  gen.microBlocks.forEach((mb, i) => {
    const microIndex = (gen.continuesAt ?? 0) + i;
    mb.transactions.forEach((signed, txIndex) => {
      const txHash = String(signed.hash);
      const log = gen.callInfos.get(txHash)?.log;
      if (!Array.isArray(log)) return;
      for (let at = log.length - 1; at >= 0; at--) {
        const entry = readLog(log[at]!);
        if (entry)
          logs.push({ height: gen.height, microIndex, txIndex, txHash, logIdx: log.length - 1 - at, ...entry });
      }
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
export function aex9Event(log: EmittedLog, wrappedAe: ReadonlySet<string>): Aex9LogRow | undefined {
  const event = AEX9_EVENTS.get(log.topics[0] ?? -1n);
  if (!event || log.topics.length !== event.arity) return undefined;
  if ((event.kind === 'deposit' || event.kind === 'withdrawal') && !wrappedAe.has(log.address)) return undefined;
  const amount = log.topics[event.arity - 1]!;
  const from = event.from === undefined ? null : topicAccount(log.topics[event.from]!);
  const to = event.to === undefined ? null : topicAccount(log.topics[event.to]!);
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
  const wrappedAe = found?.wrappedAe ?? new Set<string>();
  return {
    contracts: found?.contracts ?? [],
    callCreated: found?.callCreated ?? [],
    seeds: found?.seeds ?? [],
    aex9Logs: emittedLogs(gen).flatMap((log) => aex9Event(log, wrappedAe) ?? []),
  };
}
