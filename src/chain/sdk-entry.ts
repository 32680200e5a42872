/**
 * @module aepp-sdk's entry builder (packEntry, unpackEntry, EntryTag: its es/tx/builder/entry modules), loaded at its
 * first use: what reads a channel's off-chain trees (channel-proofs.ts) and what makes them (the devnode's channel
 * traffic) are pure and synchronous, and most processes never call either.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as AeppSdk from '@aeternity/aepp-sdk';

/** The SDK's entry builder: packEntry, unpackEntry and the tags they take. */
export type EntryBuilder = Pick<typeof AeppSdk, 'packEntry' | 'unpackEntry' | 'EntryTag'>;

let loaded: EntryBuilder | undefined;

/**
 * entryBuilder is the SDK's entry builder, its own modules only, found beside the file an import of the SDK finds (the
 * SDK's entry point loads its 500 modules, 0.41 CPU-s where these need 0.16–0.21). Required, since its callers are
 * synchronous: its ES build, the very files the SDK's entry point imports, so that a process importing the SDK too
 * (a test, the dev traffic) holds one copy of them.
 */
export function entryBuilder(): EntryBuilder {
  if (loaded) return loaded;
  const entry = (file: string): string =>
    fileURLToPath(new URL(`tx/builder/entry/${file}`, import.meta.resolve('@aeternity/aepp-sdk')));
  const require = createRequire(import.meta.url);
  const { packEntry, unpackEntry } = require(entry('index.js')) as Pick<typeof AeppSdk, 'packEntry' | 'unpackEntry'>;
  const { EntryTag } = require(entry('constants.js')) as Pick<typeof AeppSdk, 'EntryTag'>;
  return (loaded = { packEntry, unpackEntry, EntryTag });
}
