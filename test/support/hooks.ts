/**
 * @module Mocha's global fixtures: one PostgreSQL for the whole run. The suite runs its files in parallel worker
 * processes; the server starts once in mocha's main process, before the workers, which inherit its address through
 * TEST_DATABASE_URL and make their own databases on it. Every process first sets its compile cache and its temporary
 * directory (test-process.ts). The SDK's warning of a big integer in a field its models type as a number is not
 * printed (quietSdkBigInts). With MDW_TEST_CPU_LOG=<file> (`MDW_TEST_CPU_LOG=/tmp/cpu.ndjson make unit`) each test
 * file's wall and CPU seconds are appended to that file, one JSON line per file (cpu-per-file.ts).
 */
import './test-process.ts';
import { dropPopulatedTemplates, sharedServerUrl, stopTestServer } from './postgres.ts';

/**
 * quietSdkBigInts drops @aeternity/aepp-sdk's "BigInt value … handled incorrectly", which it prints for every answer
 * with an integer beyond 2^53 in a field its models type as a number: a key block's 64-bit proof-of-work nonce, a name
 * claim's salt, a validator's stake. Real nodes and ae_mdw answer them so; a test that reads such a field through the SDK
 * expects it rounded as the SDK rounds it and checks the exact value in our JSON (hyperchain-sdk.test.ts, sdkNumber). A
 * run printed 1,286 of them, hiding what matters. Every other warning passes.
 */
function quietSdkBigInts(): void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('AeSdk internal error: BigInt value')) warn(...args);
  };
}
quietSdkBigInts();

export const mochaHooks =
  process.env.MDW_TEST_CPU_LOG === undefined ? {} : (await import('./cpu-per-file.ts')).mochaHooks;

export async function mochaGlobalSetup(): Promise<void> {
  process.env.TEST_DATABASE_URL = await sharedServerUrl();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await dropPopulatedTemplates();
  await stopTestServer();
}
