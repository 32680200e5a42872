/**
 * @module GraphQL fields of a hyperchain (beyond ae_mdw, which has none): its epochs, leader schedule, validators and
 * delegates, each answered by the resource of its /v3/hyperchain route (so off a hyperchain each answers that route's
 * 400 as the field's error). `scope` is the REST one: `epoch:A-B` (`gen:A-B` on the schedule too).
 */
import { GraphQLNonNull } from 'graphql';
import { getEpochs, getEpochTop, getSchedule, getSchedules } from '../resources/hyperchain-epochs.ts';
import * as hyperchainValidators from '../resources/hyperchain-validators.ts';
import { optionalString, requiredString, type QueryField } from './fields.ts';
import { IntScalar } from './scalars.ts';

const scope = { scope: optionalString('query:scope') };
const validator = { id: requiredString('path:validator') };

export const HYPERCHAIN_QUERIES: Readonly<Record<string, QueryField>> = {
  epochs: { op: getEpochs, list: 'paged', args: scope, description: "A hyperchain's epochs" },
  epochTop: { op: getEpochTop, description: "A hyperchain's current epoch" },
  schedules: {
    op: getSchedules,
    list: 'paged',
    args: scope,
    description: 'The leader of each height of the stored epochs',
  },
  schedule: {
    op: getSchedule,
    args: { height: { type: new GraphQLNonNull(IntScalar), to: 'path:height' } },
    description: 'The leader of a height',
  },
  validators: {
    op: hyperchainValidators.getValidators,
    list: 'paged',
    args: scope,
    description: "Every epoch's validators",
  },
  validatorsTop: {
    op: hyperchainValidators.getTopValidators,
    list: 'paged',
    description: "The current epoch's validators",
  },
  validator: {
    op: hyperchainValidators.getValidator,
    args: { ...validator, epoch: { type: IntScalar, to: 'query:epoch' } },
    description: 'A validator in an epoch (default: the current one, else the last it was one of)',
  },
  validatorDelegates: {
    op: hyperchainValidators.getValidatorDelegates,
    list: 'paged',
    args: { ...validator, ...scope },
    description: "A validator's delegates in every epoch",
  },
  validatorDelegatesTop: {
    op: hyperchainValidators.getTopValidatorDelegates,
    list: 'paged',
    args: validator,
    description: "A validator's delegates in the current epoch",
  },
};
