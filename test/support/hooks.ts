/**
 * @module Mocha's global fixtures: one PostgreSQL for the whole run. The suite runs its files in parallel worker
 * processes; the server starts once in mocha's main process, before the workers, which inherit its address through
 * TEST_DATABASE_URL and make their own databases on it. The workers keep V8's code for the modules they load in
 * one compile cache (as bin/mdw.js does for the processes the tests start): each compiled the same sources again.
 */
import { enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedServerUrl, stopTestServer } from './postgres.ts';

process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');
enableCompileCache();

export async function mochaGlobalSetup(): Promise<void> {
  process.env.TEST_DATABASE_URL = await sharedServerUrl();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopTestServer();
}
