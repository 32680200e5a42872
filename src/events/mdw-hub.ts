/** @module The ae_mdw websocket hub: its clients on /v2/websocket and /v3/websocket, and their chain events in chain order. */
import type { MdwWebsocketLimits } from '../config/middleware.ts';
import type { Logger } from '../base/log.ts';
import type { ChainChunk, ChainEvent, ChunkWants } from './events-source.ts';
import type { ReorgNotice } from './reorg-notice.ts';
import { mdwEvent, parseMdwMessage, pong, type Channel } from './mdw-protocol.ts';
import { Replay, replayRefusal, type ReplayOptions } from './mdw-replay.ts';
import { MdwSubscriptions } from './mdw-subscriptions.ts';

/** A connected client: how to send it a text frame, and which payload shapes it speaks. */
export interface MdwPeer {
  send(text: string): void;
  /** writable resolves once the client has taken most of what was sent (or is gone): a replay's pace */
  writable(): Promise<void>;
  /** pause stops reading the client's messages, resume reads them again: the hub's pace for a client's flood */
  pause(): void;
  resume(): void;
  readonly version: 'v2' | 'v3';
  /**
   * The subscriptions the connection's API key (or address) may still take, with API keys on: one is taken for each new
   * channel or target and given back when it goes. Absent: only the connection's and the server's limits hold.
   */
  readonly allowance?: SubscriptionAllowance;
}

/** SubscriptionAllowance counts a key's subscriptions over its connections (API keys, src/api/quota/key-slots.ts). */
export interface SubscriptionAllowance {
  /** take one, or false when the key holds its tier's limit */
  take(): boolean;
  give(count: number): void;
}

/** The subscription limits of ae_mdw's sockets (its MAX_SUBS_PER_CONN, MAX_TOTAL_WS_SUBS and MAX_PING_LIMIT). */
export type MdwSubscriptionLimits = Pick<
  MdwWebsocketLimits,
  'maxSubscriptions' | 'maxTotalSubscriptions' | 'pingLimit'
>;

/** Where replays (`from_height`) read the chain, and their bounds. */
export interface MdwReplaySource extends Pick<ReplayOptions, 'feed' | 'memoryHeights'> {
  /** reads heights from..to as the live feed does, for what the subscription wants, and the last reorg logged */
  read(from: number, to: number, wants: ChunkWants): Promise<ChainChunk>;
  /** the stored top height (-1 when nothing is stored) */
  top(): Promise<number>;
  /** how far below the top + 1 a replay may start */
  readonly maxHeights: number;
}

/** Heights a replay reads at once: the chain feed's chunk. */
const REPLAY_BATCH_HEIGHTS = 10;

const CHANNEL_OF: Record<ChainEvent['type'], Channel> = {
  key_block: 'KeyBlocks',
  micro_block: 'MicroBlocks',
  transaction: 'Transactions',
};

/** EPOCHS: the channel of a hyperchain's new epochs (ours): sent with the key block that fixes each (first - 1). */
const EPOCHS = 'Epochs';
/** REORGS: the channel of forks (ours): each told once, before the new chain's blocks (events/reorg-notice.ts). */
const REORGS = 'Reorgs';
/** The channels whose mdw source is not a block's or transaction's /v3 payload. */
const CHANNELS_WITHOUT_MDW_PAYLOADS: readonly string[] = [EPOCHS, REORGS];

/** MAX_WAITING_MESSAGES: a client's messages waiting for an answer before its socket is read no more. */
export const MAX_WAITING_MESSAGES = 64;

/** nextTurn resolves at the event loop's next turn, after the I/O waiting now. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One connection's state. */
interface MdwClient {
  readonly subs: MdwSubscriptions;
  /** subscriptions (channel or target) being replayed: they get no live event until their replay hands over */
  readonly replays: Map<string, Replay>;
  /** messages are answered in order (a `from_height` one reads the top first) */
  inbox: Promise<void>;
  /** messages received and not answered yet: over MAX_WAITING_MESSAGES the client is read no more until they are */
  waiting: number;
  /** a connection's replays run one after the other */
  replaying: Promise<void>;
}

/**
 * MdwHub answers ae_mdw's protocol: every (un)subscribe with the connection's whole list (what
 * the SDK's MiddlewareSubscriber checks), errors as strings, Ping with Pong; and sends each chain
 * event to its subscribers in chain order, per source: `node` the node's object, `mdw` ae_mdw's.
 * A Subscribe with `from_height` first replays the stored events from that height (see Replay).
 */
export class MdwHub {
  readonly #clients = new Map<MdwPeer, MdwClient>();
  readonly #replays = new Set<Replay>();
  readonly #log: Logger;
  readonly #limits: MdwSubscriptionLimits;
  readonly #replay: MdwReplaySource;
  /** subscriptions of every connection together, held under limits.maxTotalSubscriptions */
  #total = 0;

  constructor(options: { log: Logger; limits: MdwSubscriptionLimits; replay: MdwReplaySource }) {
    this.#log = options.log;
    this.#limits = options.limits;
    this.#replay = options.replay;
  }

  add(peer: MdwPeer): void {
    this.#clients.set(peer, {
      subs: new MdwSubscriptions(this.#limits.maxSubscriptions),
      replays: new Map(),
      inbox: Promise.resolve(),
      waiting: 0,
      replaying: Promise.resolve(),
    });
  }

  remove(peer: MdwPeer): void {
    const client = this.#clients.get(peer);
    if (!client) return;
    for (const key of client.replays.keys()) this.#stopReplay(client, key);
    this.#total -= client.subs.size;
    peer.allowance?.give(client.subs.size);
    this.#clients.delete(peer);
  }

  get size(): number {
    return this.#clients.size;
  }

  hasAnySubscription(): boolean {
    for (const { subs } of this.#clients.values()) if (subs.size > 0) return true;
    return false;
  }

  /** wants is what the live feed reads a chunk for: ae_mdw's payloads while a block or transaction has an mdw source. */
  wants(): ChunkWants {
    let mdw = false;
    let epochs = false;
    for (const { subs } of this.#clients.values()) {
      mdw ||= subs.hasSource('mdw', CHANNELS_WITHOUT_MDW_PAYLOADS);
      epochs ||= subs.sources(EPOCHS).size > 0;
      if (mdw && epochs) break;
    }
    return { mdw, epochs };
  }

  /**
   * receive queues a message to be answered in order. Each waits for a turn of the event loop first: answered in one
   * chain of microtasks, a client's flood (100 000 messages of 80 bytes, 100 µs each to refuse) held the loop for
   * seconds at a time and every other request waited. Its socket is paused while too many wait, so what a flooding
   * client has sent stays in the kernel's buffers, and then its own, not in the server's memory.
   */
  receive(peer: MdwPeer, text: string): void {
    const client = this.#clients.get(peer);
    if (!client) return;
    if (++client.waiting === MAX_WAITING_MESSAGES) peer.pause();
    client.inbox = client.inbox
      .then(nextTurn)
      .then(() => this.#answer(peer, client, text))
      .catch((err: unknown) =>
        this.#log.warn({ err: (err as Error).message }, 'answering an mdw websocket message failed'),
      )
      .finally(() => {
        if (client.waiting-- === MAX_WAITING_MESSAGES) peer.resume();
      });
  }

  /**
   * tell sends the reorg notices to every `Reorgs` subscriber, at once (before the feed's delivery of the new chain's
   * blocks, and before a replay can send one), and brings each replay back to where the new chain is sent from.
   */
  tell(notices: readonly ReorgNotice[]): void {
    for (const [peer, { subs }] of this.#clients)
      if (subs.sources(REORGS).size > 0) for (const n of notices) peer.send(mdwEvent(n.payload, 'mdw', REORGS));
    for (const replay of this.#replays)
      for (const n of notices) {
        replay.noteReorg(n.dropped);
        replay.noteDelivered(n.resentFrom);
      }
  }

  /**
   * publish sends the events (chain order) to every subscriber, each source its payload as the chunk's read rendered
   * it (ChainEvent: the feed reads ae_mdw's payloads while someone wants them, wants()).
   */
  publish(events: readonly ChainEvent[]): void {
    if (!this.hasAnySubscription() || events.length === 0) return;
    const lowest = events.reduce((min, e) => Math.min(min, e.height), Infinity);
    for (const replay of this.#replays) replay.noteDelivered(lowest);
    for (const event of events)
      for (const [peer, subs, keys] of this.#subscribersOf(event))
        for (const key of keys) sendEvent(peer, subs, key, event);
  }

  /** #subscribersOf lists the clients taking the event live, each with its subscriptions (channel, targets) it goes to. */
  #subscribersOf(event: ChainEvent): [MdwPeer, MdwSubscriptions, string[]][] {
    const to: [MdwPeer, MdwSubscriptions, string[]][] = [];
    for (const [peer, { subs, replays }] of this.#clients) {
      const keys = keysFor(subs, event).filter((key) => !replays.has(key));
      if (keys.length > 0) to.push([peer, subs, keys]);
    }
    return to;
  }

  async #answer(peer: MdwPeer, client: MdwClient, text: string): Promise<void> {
    const { subs } = client;
    // a message queued behind a from_height one may find its client gone: its subscriptions are no longer counted
    const gone = (): boolean => this.#clients.get(peer) !== client;
    if (gone()) return;
    const parsed = parseMdwMessage(text);
    if (!parsed.ok) return peer.send(JSON.stringify(parsed.error));
    const request = parsed.request;
    if (request.op === 'Ping') return peer.send(pong(subs.list(this.#limits.pingLimit), subs.size));
    const key = request.channel === 'Object' ? request.target! : request.channel;
    const fromHeight = request.op === 'Subscribe' ? request.fromHeight : undefined;
    if (fromHeight !== undefined) {
      const refusal = await this.#replayRefusal(subs, key, fromHeight);
      if (refusal !== undefined) return peer.send(JSON.stringify(refusal));
      if (gone()) return;
    }
    const before = subs.size;
    // a new channel or target takes one of the key's subscriptions first; given back if it is not taken after all
    const taking = request.op === 'Subscribe' && subs.sources(key).size === 0 && peer.allowance !== undefined;
    if (taking && !peer.allowance!.take())
      return peer.send(JSON.stringify(`too many subscriptions for your API key's tier! discarding: ${key}`));
    const error = subs.apply(request, this.#total >= this.#limits.maxTotalSubscriptions);
    this.#total += subs.size - before;
    const given = (taking ? 1 : 0) - (subs.size - before);
    if (given > 0) peer.allowance?.give(given);
    if (error === undefined && subs.sources(key).size === 0) this.#stopReplay(client, key);
    if (error === undefined && fromHeight !== undefined) this.#startReplay(peer, client, key, fromHeight);
    peer.send(JSON.stringify(error ?? subs.list()));
  }

  /**
   * #replayRefusal is the error answering a `from_height` that cannot be replayed: out of bounds, or on a subscription
   * already held (another source of it would get its events twice); undefined when it can.
   */
  async #replayRefusal(subs: MdwSubscriptions, key: string, fromHeight: number): Promise<string | undefined> {
    if (subs.sources(key).size > 0) return `from_height on a subscription already held: ${key}`;
    const top = await this.#replay.top().catch((err: unknown) => {
      this.#log.warn({ err: (err as Error).message }, 'reading the top for an mdw websocket replay failed');
      return undefined;
    });
    if (top === undefined) return `replay unavailable, try again: ${key}`;
    return replayRefusal(fromHeight, top, this.#replay.maxHeights);
  }

  /** #startReplay holds the subscription's live events back and queues its replay (it starts after the reply). */
  #startReplay(peer: MdwPeer, client: MdwClient, key: string, fromHeight: number): void {
    const { feed, read, memoryHeights } = this.#replay;
    const { subs } = client;
    const replay: Replay = new Replay({
      fromHeight,
      feed,
      // what the subscription wants when each batch is read (a source may be added to it meanwhile)
      read: (from, to) =>
        read(from, to, { mdw: subs.sources(key).has('mdw') && key !== EPOCHS, epochs: key === EPOCHS }),
      memoryHeights,
      batchHeights: REPLAY_BATCH_HEIGHTS,
      send: (events, wait, current) => this.#sendReplayed(peer, client.subs, key, events, wait, current),
      goLive: () => this.#endReplay(client, key, replay),
    });
    client.replays.set(key, replay);
    this.#replays.add(replay);
    client.replaying = client.replaying.then(async () => {
      if (replay.cancelled) return;
      try {
        await replay.run();
      } catch (err) {
        this.#endReplay(client, key, replay);
        if (replay.cancelled) return;
        // A subscription with a gap would be worse than none: the client is told and may subscribe again.
        this.#log.warn({ err: (err as Error).message, key, fromHeight }, 'an mdw websocket replay failed');
        const dropped = client.subs.drop(key) ? 1 : 0;
        this.#total -= dropped;
        peer.allowance?.give(dropped);
        peer.send(JSON.stringify(`replay failed, unsubscribed: ${key}`));
      }
    });
  }

  #stopReplay(client: MdwClient, key: string): void {
    const replay = client.replays.get(key);
    if (!replay) return;
    replay.cancel();
    this.#endReplay(client, key, replay);
  }

  #endReplay(client: MdwClient, key: string, replay: Replay): void {
    if (client.replays.get(key) === replay) client.replays.delete(key);
    this.#replays.delete(replay);
  }

  /**
   * #sendReplayed sends the replayed events the subscription `key` wants, as publish would have sent them, while
   * `current` holds; it returns the number of events gone through (all, unless `current` stopped it).
   */
  async #sendReplayed(
    peer: MdwPeer,
    subs: MdwSubscriptions,
    key: string,
    events: readonly ChainEvent[],
    wait: boolean,
    current: () => boolean,
  ): Promise<number> {
    const wanted = new Set(events.filter((event) => keysFor(subs, event).includes(key)));
    for (const [i, event] of events.entries()) {
      if (subs.sources(key).size === 0) return events.length;
      if (!current()) return i;
      if (!wanted.has(event)) continue;
      sendEvent(peer, subs, key, event);
      if (wait) await peer.writable();
    }
    return events.length;
  }
}

/** keysFor lists the client's channel and targets an event goes to (a key block's: the epoch it fixed, if any). */
function keysFor(subs: MdwSubscriptions, event: ChainEvent): string[] {
  const channel = CHANNEL_OF[event.type];
  const keys: string[] = subs.sources(channel).size > 0 ? [channel] : [];
  if (event.type === 'key_block' && subs.sources(EPOCHS).size > 0) keys.push(EPOCHS);
  if (event.type === 'transaction') for (const id of new Set(event.ids)) if (subs.sources(id).size > 0) keys.push(id);
  return keys;
}

/** sendEvent sends one event to one subscription (channel or target) of a client, once per source it holds. */
function sendEvent(peer: MdwPeer, subs: MdwSubscriptions, key: string, event: ChainEvent): void {
  // an epoch has no node payload; a key block that fixed none sends nothing
  if (key === EPOCHS)
    return void (event.type === 'key_block' && event.epoch && peer.send(mdwEvent(event.epoch, 'mdw', EPOCHS)));
  const channel = CHANNEL_OF[event.type];
  for (const source of subs.sources(key)) {
    const mdw = event.type === 'transaction' ? event.mdw?.[peer.version] : event.mdw;
    const payload = source === 'node' ? event.payload : mdw;
    // none when the source was taken after the read: the feed then reads the chunk again (ChainFeed #read); a replay's
    // batch, history older than the Subscribe, goes to it from the next batch on
    if (payload === undefined) continue;
    peer.send(key === channel ? mdwEvent(payload, source, channel) : mdwEvent(payload, source, 'Object', key));
  }
}
