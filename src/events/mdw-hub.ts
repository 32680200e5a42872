/** @module The ae_mdw websocket hub: its clients on /v2/websocket and /v3/websocket, and their chain events in chain order. */
import { parseJson, stringifyJson, isJsonObject } from '../chain/json.ts';
import type { MdwWebsocketLimits } from '../config.ts';
import type { Logger } from '../log.ts';
import type { ChainEvent } from './events-source.ts';
import { mdwEvent, parseMdwMessage, pong, type Channel, type Source } from './mdw-protocol.ts';
import { MdwSubscriptions } from './mdw-subscriptions.ts';

/** A connected client: how to send it a text frame, and which payload shapes it speaks. */
export interface MdwPeer {
  send(text: string): void;
  readonly version: 'v2' | 'v3';
}

/** A stored transaction as ae_mdw's sockets send it: the v3 Transaction and the v2 shape. */
export interface MdwTxPayloads {
  readonly v3: string;
  readonly v2: string;
}

/** MdwRenderer reads the mdw-source payloads of events from the database (undefined when a fork removed them). */
export interface MdwRenderer {
  keyBlock(hash: string): Promise<string | undefined>;
  microBlock(hash: string): Promise<string | undefined>;
  transaction(hash: string): Promise<MdwTxPayloads | undefined>;
}

/** The subscription limits of ae_mdw's sockets (its MAX_SUBS_PER_CONN, MAX_TOTAL_WS_SUBS and MAX_PING_LIMIT). */
export type MdwSubscriptionLimits = Pick<
  MdwWebsocketLimits,
  'maxSubscriptions' | 'maxTotalSubscriptions' | 'pingLimit'
>;

const CHANNEL_OF: Record<ChainEvent['type'], Channel> = {
  key_block: 'KeyBlocks',
  micro_block: 'MicroBlocks',
  transaction: 'Transactions',
};

/**
 * MdwHub answers ae_mdw's protocol: every (un)subscribe with the connection's whole list (what
 * the SDK's MiddlewareSubscriber checks), errors as strings, Ping with Pong; and sends each chain
 * event to its subscribers in chain order, per source: `node` the node's object, `mdw` ae_mdw's.
 */
export class MdwHub {
  readonly #clients = new Map<MdwPeer, MdwSubscriptions>();
  readonly #render: MdwRenderer;
  readonly #log: Logger;
  readonly #limits: MdwSubscriptionLimits;
  /** subscriptions of every connection together, held under limits.maxTotalSubscriptions */
  #total = 0;

  constructor(options: { render: MdwRenderer; log: Logger; limits: MdwSubscriptionLimits }) {
    this.#render = options.render;
    this.#log = options.log;
    this.#limits = options.limits;
  }

  add(peer: MdwPeer): void {
    this.#clients.set(peer, new MdwSubscriptions(this.#limits.maxSubscriptions));
  }

  remove(peer: MdwPeer): void {
    this.#total -= this.#clients.get(peer)?.size ?? 0;
    this.#clients.delete(peer);
  }

  get size(): number {
    return this.#clients.size;
  }

  hasAnySubscription(): boolean {
    for (const subs of this.#clients.values()) if (subs.size > 0) return true;
    return false;
  }

  receive(peer: MdwPeer, text: string): void {
    const subs = this.#clients.get(peer);
    if (!subs) return;
    const parsed = parseMdwMessage(text);
    if (!parsed.ok) return peer.send(JSON.stringify(parsed.error));
    if (parsed.request.op === 'Ping') return peer.send(pong(subs.list(this.#limits.pingLimit), subs.size));
    const before = subs.size;
    const error = subs.apply(parsed.request, this.#total >= this.#limits.maxTotalSubscriptions);
    this.#total += subs.size - before;
    peer.send(JSON.stringify(error ?? subs.list()));
  }

  /** publish sends the events (chain order) to every subscriber; payloads are read once per event. */
  async publish(events: readonly ChainEvent[]): Promise<void> {
    if (!this.hasAnySubscription()) return;
    for (const event of events) {
      const channel = CHANNEL_OF[event.type];
      const ids = event.type === 'transaction' ? event.ids : [];
      const wanted = [...this.#clients].filter(
        ([, subs]) => subs.sources(channel).size > 0 || ids.some((id) => subs.sources(id).size > 0),
      );
      if (wanted.length === 0) continue;
      const mdw = await this.#mdwPayload(event).catch((err: unknown) => {
        this.#log.warn({ err: (err as Error).message }, 'reading an mdw websocket payload failed');
        return undefined;
      });
      for (const [peer, subs] of wanted) {
        const payloadFor = (source: Source): string | undefined =>
          source === 'node' ? event.payload : mdw && (typeof mdw === 'string' ? mdw : mdw[peer.version]);
        for (const source of subs.sources(channel)) {
          const payload = payloadFor(source);
          if (payload !== undefined) peer.send(mdwEvent(payload, source, channel));
        }
        for (const id of new Set(ids)) {
          for (const source of subs.sources(id)) {
            const payload = payloadFor(source);
            if (payload !== undefined) peer.send(mdwEvent(payload, source, 'Object', id));
          }
        }
      }
    }
  }

  async #mdwPayload(event: ChainEvent): Promise<string | MdwTxPayloads | undefined> {
    if (event.type === 'key_block') return this.#render.keyBlock(event.block);
    if (event.type === 'micro_block') return this.#render.microBlock(event.block);
    const signed = parseJson(event.payload);
    return isJsonObject(signed) && typeof signed.hash === 'string' ? this.#render.transaction(signed.hash) : undefined;
  }
}

/** v2TransactionJson is ae_mdw's v2 socket shape: the node's signed tx plus its tx index, micro index and time. */
export function v2TransactionJson(
  signed: Record<string, unknown>,
  place: { txIndex: number; microIndex: number; microTime: number },
): string {
  return stringifyJson({
    ...signed,
    tx_index: place.txIndex,
    micro_index: place.microIndex,
    micro_time: place.microTime,
  });
}
