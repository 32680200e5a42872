/**
 * @module The hyperchain part of the /v3 route table: ae_mdw's `/v3/hyperchain/*` operations (each resource answers
 * ae_mdw's 400 on a chain that is not a hyperchain: hyperchain-source.ts).
 */
import { PAGED, SCOPED, type V3Operation } from './operation.ts';
import { getHyperchainConfig } from '../resources/hyperchain-config.ts';
import { getEpochs, getEpochTop, getSchedule, getSchedules } from '../resources/hyperchain-epochs.ts';
import {
  getTopValidatorDelegates,
  getTopValidators,
  getValidator,
  getValidatorDelegates,
  getValidators,
} from '../resources/hyperchain-validators.ts';

/** HYPERCHAIN_OPERATIONS: every /v3/hyperchain route, fixed paths before `{validator}`. */
export const HYPERCHAIN_OPERATIONS: readonly V3Operation[] = [
  {
    path: '/hyperchain/config',
    operationId: 'GetHyperchainConfig',
    summary: "The hyperchain's consensus, hard forks and fork management, as its node states them",
    params: [],
    resource: getHyperchainConfig,
  },
  {
    path: '/hyperchain/epochs',
    operationId: 'GetEpochs',
    summary: 'Epochs, newest first',
    params: SCOPED,
    resource: getEpochs,
  },
  {
    path: '/hyperchain/epochs/top',
    operationId: 'GetEpochTop',
    summary: 'The current epoch',
    params: [],
    resource: getEpochTop,
  },
  {
    path: '/hyperchain/schedule',
    operationId: 'GetSchedules',
    summary: 'The leader of each height (of the stored epochs, their coming heights too)',
    params: SCOPED,
    resource: getSchedules,
  },
  {
    path: '/hyperchain/schedule/height/{height}',
    operationId: 'GetSchedule',
    summary: 'The leader of a height',
    params: ['path:height'],
    resource: getSchedule,
  },
  {
    path: '/hyperchain/validators',
    operationId: 'GetValidators',
    summary: "Every epoch's validators, by epoch and validator",
    params: SCOPED,
    resource: getValidators,
  },
  {
    path: '/hyperchain/validators/top',
    operationId: 'GetTopValidators',
    summary: "The current epoch's validators",
    params: PAGED,
    resource: getTopValidators,
  },
  {
    path: '/hyperchain/validators/{validator}',
    operationId: 'GetValidator',
    summary: 'A validator in an epoch (default: the current one, else the last it was one of)',
    params: ['path:validator', 'query:epoch'],
    resource: getValidator,
  },
  {
    path: '/hyperchain/validators/{validator}/delegates',
    operationId: 'GetValidatorDelegates',
    summary: "A validator's delegates in every epoch, by epoch and delegate",
    params: ['path:validator', ...SCOPED],
    resource: getValidatorDelegates,
  },
  {
    path: '/hyperchain/validators/{validator}/delegates/top',
    operationId: 'GetTopValidatorDelegates',
    summary: "A validator's delegates in the current epoch",
    params: ['path:validator', ...PAGED],
    resource: getTopValidatorDelegates,
  },
];
