/**
 * @module Mocha's global fixtures: one PostgreSQL for the whole run. The suite runs its files in parallel worker
 * processes; the server starts once in mocha's main process, before the workers, which inherit its address through
 * TEST_DATABASE_URL and make their own databases on it.
 */
import { sharedServerUrl, stopTestServer } from './postgres.ts';

export async function mochaGlobalSetup(): Promise<void> {
  process.env.TEST_DATABASE_URL = await sharedServerUrl();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopTestServer();
}
