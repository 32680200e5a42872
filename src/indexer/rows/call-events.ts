/**
 * @module The events of a contract call as ae_mdw reads them: emission order (its `log_idx`),
 * topic 0 as the blake2b of the event's name, address topics as ids. Pure.
 */
import { decode, encode, hash, type Prefix } from '../../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';

/** eventTopic is an event's topic 0: blake2b-256 of its constructor name, read as an unsigned integer. */
export function eventTopic(name: string): bigint {
  return BigInt(`0x${Buffer.from(hash(Buffer.from(name, 'utf8'))).toString('hex')}`);
}

/** A log entry of a call: its index in emission order (ae_mdw's `log_idx`), emitter, topics and payload. */
export interface CallEvent {
  readonly logIdx: number;
  readonly address: string;
  readonly topics: readonly bigint[];
  readonly data: Buffer;
}

/**
 * callEvents reads a call info's `log` in emission order. The node lists a call's events newest
 * first (the FATE engine prepends each one); ae_mdw numbers them from the oldest. Entries that
 * are not well formed are skipped (they cannot be any standard's event).
 */
export function callEvents(callInfo: { [key: string]: Json } | null): readonly CallEvent[] {
  if (callInfo === null) return [];
  let events = READ.get(callInfo);
  if (events === undefined) {
    events = readLog(callInfo.log);
    READ.set(callInfo, events);
  }
  return events;
}

/** Each call info's events, read once for the several standards that look at them (AEX-9, AEX-141, DEX). */
const READ = new WeakMap<object, readonly CallEvent[]>();

function readLog(log: Json | undefined): readonly CallEvent[] {
  if (!Array.isArray(log)) return [];
  const events: CallEvent[] = [];
  log.forEach((entry, i) => {
    const event = readEvent(entry, log.length - 1 - i);
    if (event) events.push(event);
  });
  return Object.freeze(events.reverse());
}

/** payload reads a node-written `cb_` (base64 and a 4-byte checksum) without checking the checksum again. */
function payload(data: string): Buffer {
  if (!data.startsWith('cb_')) return decode(data, ['cb']).bytes;
  const bytes = Buffer.from(data.slice(3), 'base64');
  return bytes.length < 4 ? decode(data, ['cb']).bytes : bytes.subarray(0, bytes.length - 4);
}

function readEvent(entry: Json, logIdx: number): CallEvent | undefined {
  if (!isJsonObject(entry) || typeof entry.address !== 'string' || !Array.isArray(entry.topics)) return undefined;
  try {
    const topics = entry.topics.map(toBigInt);
    const data = typeof entry.data === 'string' ? payload(entry.data) : Buffer.alloc(0);
    return { logIdx, address: entry.address, topics, data };
  } catch {
    return undefined;
  }
}

/** topicId reads an address topic (a 32-byte public key as an unsigned integer) as an id of the prefix. */
export function topicId(topic: bigint, prefix: Prefix): string | undefined {
  if (topic < 0n || topic >= 1n << 256n) return undefined;
  const key = `${prefix}${topic}`;
  let id = IDS.get(key);
  if (id === undefined) {
    if (IDS.size >= MAX_IDS) IDS.clear();
    id = encode(prefix, Buffer.from(topic.toString(16).padStart(64, '0'), 'hex'));
    IDS.set(key, id);
  }
  return id;
}

/** The same accounts and contracts recur in event after event: their ids are encoded (two hashes each) once. */
const IDS = new Map<string, string>();
const MAX_IDS = 100_000;
