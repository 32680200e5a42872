/**
 * @module The fake API server's record of field ownership: what each field manager owns of each stored object, and
 * when that last changed, from which metadata.managedFields is rendered.
 */
import { managedFieldsOf } from './fake-fields.ts';
import type { Ownership } from './fake-fields.ts';
import type { PlainObject } from './merge.ts';

/** OwnershipBook keeps the ownership of every object by its storage key. */
export class OwnershipBook {
  readonly #managers = new Map<string, Map<string, Ownership>>();
  readonly #ownedAt = new Map<string, Date>();
  readonly #now: () => Date;

  constructor(now: () => Date) {
    this.#now = now;
  }

  /** of is what each manager owns of the object under key (empty when nothing is recorded). */
  of(key: string): Map<string, Ownership> {
    return this.#managers.get(key) ?? new Map<string, Ownership>();
  }

  /** set records the ownership of the object under key, changed now. */
  set(key: string, ownership: Map<string, Ownership>): void {
    this.#managers.set(key, ownership);
    this.#ownedAt.set(key, this.#now());
  }

  /** forget drops the record of a removed object. */
  forget(key: string): void {
    this.#managers.delete(key);
    this.#ownedAt.delete(key);
  }

  /** managedFields renders metadata.managedFields of the object under key; undefined when no manager owns a field. */
  managedFields(key: string, apiVersion: string): PlainObject[] | undefined {
    const managers = this.#managers.get(key);
    if (managers === undefined || managers.size === 0) return undefined;
    return managedFieldsOf(managers, apiVersion, this.#ownedAt.get(key) ?? this.#now());
  }
}
