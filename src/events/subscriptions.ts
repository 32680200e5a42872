/** @module One websocket client's subscriptions: what it asked for and in which spelling. Pure. */
import { STREAM_KINDS, subscriptionName, type ClientRequest, type Spelling, type StreamKind } from './protocol.ts';

/** Object subscriptions one client may hold; bounds the memory a single client can claim. */
export const MAX_OBJECT_SUBSCRIPTIONS = 1000;

/** Change says what a request did, so the hub can keep its subscriber indexes in step. */
export type Change =
  | { readonly type: 'none' }
  | { readonly type: 'added' | 'removed'; readonly kind: StreamKind }
  | { readonly type: 'added' | 'removed'; readonly kind: 'object'; readonly target: string };

export type ApplyResult =
  { readonly ok: true; readonly change: Change } | { readonly ok: false; readonly error: string };

const NONE: Change = { type: 'none' };

/**
 * Subscriptions holds the stream kinds and object targets of one client. Each remembers the
 * spelling it was subscribed with; the client's list and its events are written in that spelling.
 */
export class Subscriptions {
  readonly #kinds = new Map<StreamKind, Spelling>();
  // Insertion order is subscription order, which is the order the list shows targets in. Created
  // on the first object subscription: most clients hold none, and an empty Map costs ~200 bytes each.
  #targets: Map<string, Spelling> | undefined;

  /** apply performs a subscribe or unsubscribe; subscribing twice or dropping the unknown is a no-op. */
  apply(request: ClientRequest): ApplyResult {
    if (request.kind === 'object') return this.#applyObject(request, request.target ?? '');
    const had = this.#kinds.has(request.kind);
    if (request.op === 'subscribe') {
      this.#kinds.set(request.kind, request.spelling);
      return { ok: true, change: had ? NONE : { type: 'added', kind: request.kind } };
    }
    this.#kinds.delete(request.kind);
    return { ok: true, change: had ? { type: 'removed', kind: request.kind } : NONE };
  }

  /** names lists the subscriptions as the seed's rule 1 answers them: kinds, then object targets. */
  names(): string[] {
    const kinds = STREAM_KINDS.flatMap((kind) => {
      const spelling = this.#kinds.get(kind);
      return spelling === undefined ? [] : [subscriptionName(kind, spelling)];
    });
    return [...kinds, ...this.targets()];
  }

  /** spellingOf is the spelling of a stream subscription, or undefined when not subscribed. */
  spellingOf(kind: StreamKind): Spelling | undefined {
    return this.#kinds.get(kind);
  }

  /** targetSpelling is the spelling an object subscription was made in, or undefined. */
  targetSpelling(target: string): Spelling | undefined {
    return this.#targets?.get(target);
  }

  /** kinds lists the subscribed stream kinds. */
  kinds(): StreamKind[] {
    return [...this.#kinds.keys()];
  }

  /** targets lists the object targets. */
  targets(): string[] {
    return this.#targets ? [...this.#targets.keys()] : [];
  }

  #applyObject(request: ClientRequest, target: string): ApplyResult {
    const had = this.#targets?.has(target) === true;
    if (request.op === 'unsubscribe') {
      this.#targets?.delete(target);
      return { ok: true, change: had ? { type: 'removed', kind: 'object', target } : NONE };
    }
    this.#targets ??= new Map();
    if (!had && this.#targets.size >= MAX_OBJECT_SUBSCRIPTIONS) {
      return { ok: false, error: `too many object subscriptions: at most ${MAX_OBJECT_SUBSCRIPTIONS} per connection` };
    }
    this.#targets.set(target, request.spelling);
    return { ok: true, change: had ? NONE : { type: 'added', kind: 'object', target } };
  }
}
