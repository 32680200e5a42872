/**
 * @module The hyperchain part of the /v3 route table: ae_mdw's `/v3/hyperchain/*` operations (each resource answers
 * ae_mdw's 400 on a chain that is not a hyperchain: hyperchain-source.ts).
 */
import type { V3Operation } from './operation.ts';
import { getHyperchainConfig } from '../resources/hyperchain-config.ts';

/** HYPERCHAIN_OPERATIONS: every /v3/hyperchain route, fixed paths before `{validator}`. */
export const HYPERCHAIN_OPERATIONS: readonly V3Operation[] = [
  {
    path: '/hyperchain/config',
    operationId: 'GetHyperchainConfig',
    summary: "The hyperchain's consensus, hard forks and fork management, as its node states them",
    params: [],
    response: 'HyperchainConfig',
    resource: getHyperchainConfig,
  },
];
