import { TurnQueue } from '../../src/base/turns.ts';

/**
 * HeldTurns hands out no turn of the event loop until released (then it is a TurnQueue): a starved loop's, whose next turn comes seconds
 * late. `asked` counts the turns asked for so far.
 */
export class HeldTurns extends TurnQueue {
  readonly #held: (() => void)[] = [];
  #holding = true;
  #asked = 0;

  override next(): Promise<void> {
    this.#asked++;
    if (!this.#holding) return super.next();
    return new Promise((resolve) => this.#held.push(resolve));
  }

  get asked(): number {
    return this.#asked;
  }

  /** hold hands out no turn from now on until the next release. */
  hold(): void {
    this.#holding = true;
  }

  /** release hands out every turn asked for until now, and those asked for later as a TurnQueue does. */
  release(): void {
    this.#holding = false;
    for (const resolve of this.#held.splice(0)) resolve();
  }
}
