/**
 * @module /v3/hyperchain/validators and their delegates: a hyperchain's validators per epoch (key: epoch, validator)
 * and each one's delegates (key: epoch, delegate), scoped by `epoch:A-B`; the `top` routes are the current epoch's.
 * Beyond ae_mdw, `/validators/{id}` answers any epoch (`?epoch=N`). ae_mdw's 400 on another chain.
 */
import type { Pool } from '../../../db/connection/pool.ts';
import {
  currentEpoch,
  delegatesPage,
  epochAt,
  lastValidatorEpoch,
  validatorAt,
  validatorsPage,
} from '../../../db/queries/hyperchain.ts';
import type { Range } from '../../../db/queries/range-page.ts';
import { delegateObject, validatorObject } from '../../../shapes/v3/render-hyperchain.ts';
import { EPOCH_ACCOUNT_CURSOR } from './cursors.ts';
import { onlyOnHyperchain } from './hyperchain-guard.ts';
import { listPage } from './list.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import {
  ALL_HEIGHTS,
  NO_RANGE,
  one,
  parseId,
  parseNonNegative,
  parsePaging,
  rejectUnknown,
  type Paging,
} from './mdw-params.ts';
import { page, type Answer } from './resource.ts';
import { VALIDATOR, DELEGATE } from '../../../shapes/v3/shapes-hyperchain.ts';

const VALIDATOR_PARAMS: ReadonlySet<string> = new Set(['epoch']);

/** getValidators: every epoch's validators, by epoch and validator. */
export const getValidators = onlyOnHyperchain(page(VALIDATOR), async function getValidators({ pool }, req) {
  const paging = parsePaging(req.query, { scopes: ['epoch'] });
  return validators(pool, paging, paging.scope ?? ALL_HEIGHTS);
});

/** getTopValidators: the current epoch's validators. */
export const getTopValidators = onlyOnHyperchain(page(VALIDATOR), async function getTopValidators({ pool }, req) {
  const paging = parsePaging(req.query, { scopes: [] });
  return validators(pool, paging, await currentEpochRange(pool));
});

/**
 * getValidator: one validator in epoch `?epoch=N`; without it, in the current epoch, or the last epoch it was one of
 * (ae_mdw looks at the current epoch only, and answers nothing for a validator that left).
 */
export const getValidator = onlyOnHyperchain(VALIDATOR, async function getValidator({ pool }, req) {
  rejectUnknown(req.query, VALIDATOR_PARAMS);
  const validator = parseId(req.params.validator, ['ak']);
  const epochText = one(req.query.epoch);
  const asked = epochText === undefined ? undefined : parseNonNegative(epochText);
  if (epochText !== undefined && asked === undefined) throw v3BadRequest(`invalid query: epoch=${epochText}`);
  const current = await currentEpoch(pool);
  const inEpoch = async (epoch: number | undefined) =>
    epoch === undefined ? undefined : validatorAt(pool, validator, epoch);
  const row =
    asked !== undefined
      ? await inEpoch(asked)
      : ((await inEpoch(current)) ?? (await inEpoch(await lastValidatorEpoch(pool, validator))));
  if (!row) throw v3NotFound(asked === undefined ? validator : `${validator} in epoch ${asked}`);
  return validatorObject(row);
});

/** getValidatorDelegates: a validator's delegates in every epoch, by epoch and delegate. */
export const getValidatorDelegates = onlyOnHyperchain(
  page(DELEGATE),
  async function getValidatorDelegates({ pool }, req) {
    const paging = parsePaging(req.query, { scopes: ['epoch'] });
    return delegates(pool, parseId(req.params.validator, ['ak']), paging, paging.scope ?? ALL_HEIGHTS);
  },
);

/** getTopValidatorDelegates: a validator's delegates in the current epoch. */
export const getTopValidatorDelegates = onlyOnHyperchain(
  page(DELEGATE),
  async function getTopValidatorDelegates({ pool }, req) {
    const paging = parsePaging(req.query, { scopes: [] });
    const validator = parseId(req.params.validator, ['ak']);
    return delegates(pool, validator, paging, await currentEpochRange(pool));
  },
);

/** currentValidatorsCount is how many validators the current epoch has (0 before the first epoch is stored). */
export async function currentValidatorsCount(pool: Pool): Promise<number> {
  const epoch = await currentEpoch(pool);
  const row = epoch === undefined ? undefined : await epochAt(pool, epoch);
  return row?.validators.length ?? 0;
}

function validators(pool: Pool, paging: Paging, epochs: Range): Promise<Answer> {
  return listPage(paging, {
    cursor: EPOCH_ACCOUNT_CURSOR,
    read: (window) => validatorsPage(pool, { epochs }, window),
    key: (v) => ({ epoch: v.epoch, account: v.validator }),
    item: validatorObject,
  });
}

function delegates(pool: Pool, validator: string, paging: Paging, epochs: Range): Promise<Answer> {
  return listPage(paging, {
    cursor: EPOCH_ACCOUNT_CURSOR,
    read: (window) => delegatesPage(pool, { validator, epochs }, window),
    key: (d) => ({ epoch: d.epoch, account: d.delegate }),
    item: delegateObject,
  });
}

/** currentEpochRange is the current epoch as a range (none before the first epoch is loaded: an empty list). */
async function currentEpochRange(pool: Pool): Promise<Range> {
  const epoch = await currentEpoch(pool);
  return epoch === undefined ? NO_RANGE : { first: epoch, last: epoch };
}
