/**
 * @module Coalescer: the calls made in one turn of the event loop run as one batch (one statement for many callers),
 * each caller still getting its own answer, so concurrent workers share a round trip without waiting on each other.
 */

/** A batch's run answers its inputs in their order (the same length). */
export type BatchRun<I, O> = (inputs: readonly I[]) => Promise<readonly O[]>;

interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (err: unknown) => void;
}

/** Coalescer gathers `call`s until the current turn ends, then runs them as one batch; a failed batch fails each call. */
export class Coalescer<I, O> {
  readonly #run: BatchRun<I, O>;
  #waiting: Waiting<I, O>[] = [];

  constructor(run: BatchRun<I, O>) {
    this.#run = run;
  }

  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ input, resolve, reject });
      if (this.#waiting.length === 1) setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      const outputs = await this.#run(batch.map((w) => w.input));
      batch.forEach((w, i) => w.resolve(outputs[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
