/** @module The websocket hub: client subscriptions, and fan-out of chain events in chain order. */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../base/log.ts';
import type { ChainEvent } from './events-source.ts';
import type { ReorgNotice } from './reorg-notice.ts';
import { encodeTextFrame } from './frame.ts';
import type { WebsocketMetrics } from './metrics.ts';
import { Outbox, type Mail } from './outbox.ts';
import {
  formatError,
  formatEvent,
  formatSubscriptions,
  parseClientMessage,
  subscriptionName,
  type Kind,
  type Spelling,
  type StreamKind,
} from './protocol.ts';
import { Subscriptions, type Change } from './subscriptions.ts';

/** Peer is one connected client as the hub sees it (ws-server adapts a ws WebSocket). */
export interface Peer {
  /** send writes one text frame (answers to the client's messages). */
  send(data: string): void;
  /** sendEncoded writes bytes holding whole encoded text frames (encodeTextFrame), in one write. */
  sendEncoded(bytes: Buffer): void;
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
}

export interface HubOptions {
  /** A client whose unsent bytes exceed this is closed instead of buffering more. */
  readonly maxBufferedBytes: number;
  /**
   * Unsent bytes of all clients together; beyond it the clients holding the most are closed until the rest fits.
   * Without it a storm of clients that never read holds clients × maxBufferedBytes.
   */
  readonly maxTotalBufferedBytes?: number;
  readonly metrics: WebsocketMetrics;
  readonly log: Logger;
}

/** Close code for a client that cannot keep up: "try again later" (RFC 6455 registry). */
export const CLOSE_TOO_SLOW = 1013;

interface Client {
  readonly peer: Peer;
  readonly subscriptions: Subscriptions;
  closing: boolean;
}

/**
 * Hub keeps every client's subscriptions with an index per kind and per object target, and sends
 * each event to its subscribers. Heights are sent one after the other and a height's messages in
 * chain order, so each client receives events in chain order. Each payload is framed once per
 * spelling, however many clients get it, and clients with the same subscriptions share one buffer.
 */
export class Hub {
  readonly #options: HubOptions;
  readonly #clients = new Map<Peer, Client>();
  readonly #byKind = new Map<StreamKind, Set<Client>>();
  readonly #byTarget = new Map<string, Set<Client>>();

  constructor(options: HubOptions) {
    this.#options = options;
  }

  /** size is the number of connected clients. */
  get size(): number {
    return this.#clients.size;
  }

  /** add registers a newly connected client with no subscriptions. */
  add(peer: Peer): void {
    this.#clients.set(peer, { peer, subscriptions: new Subscriptions(), closing: false });
  }

  /** remove forgets a closed client and every subscription it held. */
  remove(peer: Peer): void {
    const client = this.#clients.get(peer);
    if (!client) return;
    this.#clients.delete(peer);
    for (const kind of client.subscriptions.kinds()) this.#byKind.get(kind)?.delete(client);
    for (const target of client.subscriptions.targets()) this.#unindexTarget(target, client);
  }

  /** receive handles one client message and answers it: the subscription list, or an error. */
  receive(peer: Peer, data: string | Uint8Array): void {
    const client = this.#clients.get(peer);
    if (!client) return;
    const parsed = parseClientMessage(data);
    const result = parsed.ok ? client.subscriptions.apply(parsed.request) : parsed;
    this.#options.metrics.messagesReceived.inc({ result: result.ok ? 'ok' : 'error' });
    if (!result.ok) {
      this.#send(client, formatError(result.error));
      return;
    }
    this.#index(client, result.change);
    this.#send(client, formatSubscriptions(client.subscriptions.names()));
  }

  /** hasAnySubscription is true when some client subscribed to something. */
  hasAnySubscription(): boolean {
    if (this.#byTarget.size > 0) return true;
    for (const set of this.#byKind.values()) if (set.size > 0) return true;
    return false;
  }

  /** hasSubscribers is true when some client subscribed to `kind`. */
  hasSubscribers(kind: StreamKind): boolean {
    return (this.#byKind.get(kind)?.size ?? 0) > 0;
  }

  /**
   * publish sends chain events, in the given (chain) order, to their subscribers. `noticedAt`
   * (performance.now()) is when the populator's notification arrived, for the latency metric.
   * Each client gets one write per height holding all its messages of that height; between
   * heights the loop yields so sockets flush before the next buffer check (a reading client never
   * looks slow because of one burst).
   */
  async publish(events: readonly ChainEvent[], noticedAt: number): Promise<void> {
    for (const [i, group] of groupByHeight(events).entries()) {
      if (i > 0) await nextTurn();
      const outbox = new Outbox<Client>();
      for (const event of group) {
        if (event.type !== 'transaction') {
          this.#collect(event.type === 'key_block' ? 'key_blocks' : 'micro_blocks', event.payload, outbox);
        } else {
          this.#collect('transactions', event.payload, outbox);
          // An included transaction is a tx_update too: the node's shape with its block fields set.
          this.#collect('tx_update', event.payload, outbox);
          this.#collectObjects(event.ids, event.payload, outbox);
        }
      }
      if (this.#flush(outbox) > 0)
        this.#options.metrics.deliveryLatency.observe((performance.now() - noticedAt) / 1000);
    }
  }

  /** tell sends the reorg notices to the `reorgs` subscribers at once: before the new chain's blocks are published. */
  tell(notices: readonly ReorgNotice[]): void {
    const outbox = new Outbox<Client>();
    for (const notice of notices) this.#collect('reorgs', notice.payload, outbox);
    this.#flush(outbox);
  }

  /** publishPending sends mempool transactions (GenericSignedTx, block_height -1) to tx_update subscribers. */
  publishPending(payloads: readonly string[]): void {
    const outbox = new Outbox<Client>();
    for (const payload of payloads) this.#collect('tx_update', payload, outbox);
    this.#flush(outbox);
  }

  #collect(kind: StreamKind, payload: string, outbox: Outbox<Client>): void {
    const subscribers = this.#byKind.get(kind);
    if (!subscribers || subscribers.size === 0) return;
    const frames = frameCache(kind, payload);
    for (const client of subscribers)
      outbox.post(client, kind, frames(client.subscriptions.spellingOf(kind) ?? 'snake'));
  }

  #collectObjects(ids: readonly string[], payload: string, outbox: Outbox<Client>): void {
    // One message per client however many of its targets the transaction references.
    const recipients = new Map<Client, Spelling>();
    for (const id of ids) {
      for (const client of this.#byTarget.get(id) ?? []) {
        if (!recipients.has(client)) recipients.set(client, client.subscriptions.targetSpelling(id) ?? 'snake');
      }
    }
    if (recipients.size === 0) return;
    const frames = frameCache('object', payload);
    for (const [client, spelling] of recipients) outbox.post(client, 'object', frames(spelling));
  }

  /** #flush writes each client's mail and returns how many clients got theirs. */
  #flush(outbox: Outbox<Client>): number {
    const recipients = new Map<Mail, number>();
    let clients = 0;
    for (const [client, mail] of outbox.entries()) {
      if (!this.#admit(client)) continue;
      client.peer.sendEncoded(mail.bytes);
      clients += 1;
      recipients.set(mail, (recipients.get(mail) ?? 0) + 1);
    }
    this.#boundTotal();
    const counts: Partial<Record<Kind, number>> = {};
    for (const [mail, n] of recipients) for (const kind of mail.kinds) counts[kind] = (counts[kind] ?? 0) + n;
    for (const [kind, n] of Object.entries(counts)) this.#options.metrics.messagesSent.inc({ subscription: kind }, n);
    return clients;
  }

  /**
   * #boundTotal closes the clients holding the most unsent bytes while all clients together hold more than
   * maxTotalBufferedBytes. Healthy readers hold nothing (their writes go straight to the kernel), so the clients
   * closed are the ones that stopped reading; a closing client's bytes still count until its socket is gone.
   */
  #boundTotal(): void {
    const max = this.#options.maxTotalBufferedBytes;
    if (max === undefined) return;
    let total = 0;
    const holding: Client[] = [];
    for (const client of this.#clients.values()) {
      const buffered = client.peer.bufferedAmount;
      total += buffered;
      if (!client.closing && buffered > 0) holding.push(client);
    }
    if (total <= max) return;
    holding.sort((a, b) => b.peer.bufferedAmount - a.peer.bufferedAmount);
    for (const client of holding) {
      if (total <= max) break;
      total -= client.peer.bufferedAmount;
      this.#closeSlow(client, `too slow: the server's ${max} bytes for unsent messages are used up; reconnect`);
    }
  }

  #send(client: Client, text: string): void {
    if (this.#admit(client)) client.peer.send(text);
  }

  /** #admit is false when the client is (now) being closed for not keeping up: it gets nothing more. */
  #admit(client: Client): boolean {
    if (client.closing) return false;
    const { maxBufferedBytes } = this.#options;
    if (client.peer.bufferedAmount > maxBufferedBytes) {
      // Stop here: buffering more for a reader that does not keep up would grow without bound.
      this.#closeSlow(client, `too slow: more than ${maxBufferedBytes} bytes unsent; reconnect`);
      return false;
    }
    return true;
  }

  #closeSlow(client: Client, reason: string): void {
    const { metrics, log } = this.#options;
    client.closing = true;
    metrics.slowClientsClosed.inc();
    log.info({ bufferedBytes: client.peer.bufferedAmount }, 'closing slow websocket client');
    client.peer.close(CLOSE_TOO_SLOW, reason);
  }

  #index(client: Client, change: Change): void {
    if (change.type === 'none') return;
    if (change.kind === 'object') {
      if (change.type === 'added') getOrCreate(this.#byTarget, change.target).add(client);
      else this.#unindexTarget(change.target, client);
      return;
    }
    if (change.type === 'added') getOrCreate(this.#byKind, change.kind).add(client);
    else this.#byKind.get(change.kind)?.delete(client);
  }

  #unindexTarget(target: string, client: Client): void {
    const set = this.#byTarget.get(target);
    set?.delete(client);
    if (set?.size === 0) this.#byTarget.delete(target);
  }
}

/** frameCache encodes an event's frame once per spelling; every client's socket writes the same bytes. */
function frameCache(kind: Kind, payload: string): (spelling: Spelling) => Buffer {
  const frames: Partial<Record<Spelling, Buffer>> = {};
  return (spelling) => (frames[spelling] ??= encodeTextFrame(formatEvent(payload, subscriptionName(kind, spelling))));
}

function groupByHeight(events: readonly ChainEvent[]): ChainEvent[][] {
  const groups: ChainEvent[][] = [];
  for (const event of events) {
    const last = groups.at(-1);
    if (last && last[0]!.height === event.height) last.push(event);
    else groups.push([event]);
  }
  return groups;
}

function getOrCreate<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}
