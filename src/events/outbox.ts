/**
 * @module The frames of one height gathered per recipient, as shared sequences: recipients that get
 * the same frames share one Mail and one joined buffer, so a fan-out to thousands of clients with
 * the same subscriptions joins each sequence once and allocates nothing per client. Pure.
 */
import type { Kind } from './protocol.ts';

/** Mail is one sequence of encoded frames (and the kind of each, for metrics). */
export class Mail {
  readonly frames: readonly Buffer[];
  readonly kinds: readonly Kind[];
  // The sequence one frame longer, per added frame: a recipient's next Mail is found, not built.
  readonly #next = new Map<Buffer, Mail>();
  #bytes: Buffer | undefined;

  constructor(frames: readonly Buffer[], kinds: readonly Kind[]) {
    this.frames = frames;
    this.kinds = kinds;
  }

  /** then is this sequence followed by `frame` (of `kind`). */
  then(frame: Buffer, kind: Kind): Mail {
    let next = this.#next.get(frame);
    if (!next) this.#next.set(frame, (next = new Mail([...this.frames, frame], [...this.kinds, kind])));
    return next;
  }

  /** bytes is the whole sequence as one buffer, joined on first use. */
  get bytes(): Buffer {
    return (this.#bytes ??= this.frames.length === 1 ? this.frames[0]! : Buffer.concat(this.frames));
  }
}

/** Outbox maps each recipient to its Mail; posting keeps every recipient's frames in posting order. */
export class Outbox<R> {
  readonly #empty = new Mail([], []);
  readonly #mail = new Map<R, Mail>();

  /** post appends `frame` (of `kind`) to what `recipient` gets. */
  post(recipient: R, kind: Kind, frame: Buffer): void {
    this.#mail.set(recipient, (this.#mail.get(recipient) ?? this.#empty).then(frame, kind));
  }

  /** entries lists each recipient with its Mail, in order of first post. */
  entries(): IterableIterator<[R, Mail]> {
    return this.#mail.entries();
  }
}
