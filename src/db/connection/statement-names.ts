/** @module Names for prepared statements whose SQL is built per request, bounded in number. */

/**
 * StatementNames names each distinct statement text so that every pooled connection prepares it
 * once: PostgreSQL then parses it once per connection and, once it settles on a generic plan, stops
 * planning it (a /v3 page's statement took 0.5–0.8 ms to plan, as long as it took to run). Texts
 * built from requests come in many shapes; only the first `max` get a name and the rest run
 * unnamed (planned each time), so no connection ever keeps more than `max` of them.
 */
export class StatementNames {
  readonly #prefix: string;
  readonly #max: number;
  readonly #names = new Map<string, string>();

  constructor(prefix: string, max: number) {
    this.#prefix = prefix;
    this.#max = max;
  }

  /** nameOf is the text's statement name, or undefined when `max` other texts took every name. */
  nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= this.#max) return known;
    const name = `${this.#prefix}_${this.#names.size}`;
    this.#names.set(text, name);
    return name;
  }
}
