/** @module Mocha root hooks: stop the shared PostgreSQL once every test file has run. */
import { stopTestServer } from './postgres.ts';

export const mochaHooks = {
  async afterAll(this: unknown): Promise<void> {
    await stopTestServer();
  },
};
