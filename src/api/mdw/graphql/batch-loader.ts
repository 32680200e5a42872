/**
 * @module A DataLoader of one request whose settled values are answered as values: mdw/graphql/batch.ts reads a page's
 * objects in one batch, and the items' fields then take theirs at once, with no promise per item.
 */
import DataLoader from 'dataloader';

/** BatchLoader is a DataLoader of a request whose settled objects are answered as values, not promises. */
export class BatchLoader<K, V> {
  readonly #loader: DataLoader<K, V | null>;
  readonly #settled = new Map<K, V | null>();

  /** `read` answers the keys' objects in the keys' order (null where there is none) */
  constructor(read: (keys: readonly K[]) => Promise<(V | null)[]>) {
    this.#loader = new DataLoader(async (keys) => {
      const objects = await read(keys);
      keys.forEach((key, i) => this.#settled.set(key, objects[i] ?? null));
      return objects;
    });
  }

  /** load is the key's object: at once where it was read, else with the next batch */
  load(key: K): V | null | Promise<V | null> {
    return this.#settled.has(key) ? (this.#settled.get(key) ?? null) : this.#loader.load(key);
  }

  /** read is the key's object where it was read (null: there is none), undefined where it was not */
  read(key: K): V | null | undefined {
    return this.#settled.get(key);
  }

  /** loadAll reads the keys not read yet in one batch (a failure stays with the keys' own loads, which throw it) */
  async loadAll(keys: readonly K[]): Promise<void> {
    await this.#loader.loadMany(keys);
  }
}
