/**
 * @module The operand check of a pass: a new image (spec.image, or the operator's default) rolls only once its own
 * `mdw db usage` (a Job running that image) showed that the operator may drive it; meanwhile, and when it is
 * refused, the workloads keep the image accepted before.
 */
import { ConditionType, type Middleware, type MiddlewareStatus, type OperandStatus } from '../api/middleware-types.ts';
import { buildDatabaseUsageJob } from '../specs/jobs.ts';
import { schemaName } from '../specs/meta.ts';
import type { ReloadEvent } from './bluegreen.ts';
import type { DatabaseReport } from './database-report.ts';
import { judgeOperand } from './operand-version.ts';
import { deleteChild } from './reconcile-children.ts';
import { keepDatabaseCheck, readDatabaseCheck } from './reconcile-database.ts';
import type { PassContext } from './reconcile-generation.ts';
import type { ChildPass, PassEnd } from './reconcile-pass.ts';
import { stopWriters } from './reconcile-refusal.ts';
import { takenSchemas } from './schema-ownership.ts';
import { FIRST_GENERATION, withConditions } from './reconcile-status.ts';
import type { ConditionUpdate } from './status.ts';

/** OperandStep: the image the pass builds with (none yet: touch no workload), the condition, and an Event. */
export interface OperandStep {
  readonly image: string | undefined;
  readonly operand: OperandStatus | undefined;
  readonly condition: ConditionUpdate;
  readonly event?: ReloadEvent;
  /** the answer is awaited, or a failed check is run again. */
  readonly requeueAfterMs?: number;
}

/** SCHEMA_TAKEN: the reason of a refusal because a schema in play records another Middleware as its owner. */
export const SCHEMA_TAKEN = 'SchemaOwnedByAnother';

/** CHECK: the purpose of the usage Job that checks a new image. */
const CHECK = 'image';
const WAIT_MS = 15_000;
const RETRY_MS = 60_000;

/**
 * checkOperand accepts pass.build.image once the image's own report allows it (`report`: the adoption Job's, which
 * ran that image, else a Job of its own), for the schemas of `generations`, none of which may record another
 * Middleware (of `all`, or none live) as its owner. An image accepted before is not asked
 * again; a refused one is, only when it changes (the Job's name carries the image).
 */
export async function checkOperand(
  pass: PassContext,
  status: MiddlewareStatus | undefined,
  generations: readonly number[],
  all: readonly Middleware[],
  report?: DatabaseReport,
): Promise<OperandStep> {
  const image = pass.build.image;
  const accepted = status?.operand;
  const type = ConditionType.OperandVersion;
  if (accepted?.image === image) return { image, operand: accepted, condition: acceptedCondition(accepted, status) };
  let answer = report;
  const job = buildDatabaseUsageJob(pass.build, FIRST_GENERATION, CHECK);
  if (answer === undefined) {
    const check = await readDatabaseCheck(pass, job);
    await keepDatabaseCheck(pass, job, check);
    if (check.job === 'Failed') {
      // run again later: the database may have been unreachable (an image without `mdw db usage` fails each time)
      if (await deleteChild(pass.kube, job)) pass.writes++;
      const message = `image ${image} could not be checked (\`mdw db usage\` in a Job): ${check.error ?? 'unknown'}`;
      return refusal(pass, accepted, 'OperandCheckFailed', message, RETRY_MS, status);
    }
    answer = check.report;
  }
  if (answer === undefined) {
    // a refusal of this same image stays while its Job runs again (after the adoption's), so it neither flaps nor
    // repeats its Event
    const before = status?.conditions?.find((c) => c.type === type);
    const message = `a Job asks image ${image} for its version before it rolls`;
    return {
      image: accepted?.image,
      operand: accepted,
      condition:
        before?.status === 'False' && before.message.startsWith(`image ${image} `)
          ? { type, status: 'False', reason: before.reason, message: before.message }
          : { type, status: 'Unknown', reason: 'Checking', message },
      requeueAfterMs: WAIT_MS,
    };
  }
  const schemas = generations.map((g) => schemaName(pass.build.spec, g));
  const verdict = judgeOperand(image, answer, schemas);
  const taken = verdict.accepted ? takenSchemas(answer, schemas, pass.build.mw, all) : [];
  if (!verdict.accepted || taken.length > 0) {
    // kept while the image stays, so its answer is read again instead of the Job running again each pass
    if (report === undefined) pass.keep.keep(job);
    if (verdict.accepted)
      return refusal(
        pass,
        accepted,
        SCHEMA_TAKEN,
        `image ${image} would run on ${taken.join(', ')}: another Middleware's schema, which this one never writes; its writers are stopped. Delete this Middleware with reclaimPolicy Retain and create it again with a schemaPrefix of its own`,
        undefined,
        status,
      );
    return refusal(pass, accepted, verdict.reason, verdict.message, undefined, status);
  }
  return {
    image,
    operand: verdict.operand,
    condition: { type, status: 'True', reason: 'OperandAccepted', message: verdict.message },
    event: { type: 'Normal', reason: 'OperandAccepted', message: verdict.message },
  };
}

/**
 * holdUnaccepted ends the pass of a Middleware without an accepted image (nothing is applied): checking, refused, or
 * running on another Middleware's schema (its writers stop).
 */
export async function holdUnaccepted(pass: ChildPass, operand: OperandStep): Promise<PassEnd> {
  const { mw, now } = pass;
  const { condition } = operand;
  // no image accepted yet, so nothing is applied: Reconciled says why (a refused image is the spec's problem)
  const { status, reason } = condition;
  const reconciled = {
    type: ConditionType.Reconciled,
    status: 'False' as const,
    reason:
      status !== 'False'
        ? 'CheckingOperand'
        : reason === 'OperandCheckFailed'
          ? 'DatabaseCheckFailed'
          : 'OperandRefused',
    message: condition.message,
  };
  if (reason === SCHEMA_TAKEN) {
    // it runs on another Middleware's schema (the earlier operator let it adopt one): its writers stop
    const stopped = await stopWriters(pass.kube, pass.children);
    if (stopped > 0)
      await pass.recordEvent(mw, 'Warning', 'StoppingWorkloads', `deleted ${stopped} populators and schema Jobs`);
    const conflict = { ...reconciled, reason: 'SchemaConflict' };
    return { status: withConditions(mw, [condition, conflict], now), requeueAfterMs: RETRY_MS };
  }
  // workloads that ran before the check (an operator upgrade) keep serving, and the phase keeps saying so
  const updates = isRunning(pass) ? [condition] : [condition, reconciled];
  return { status: withConditions(mw, updates, now), requeueAfterMs: operand.requeueAfterMs ?? RETRY_MS };
}

function refusal(
  pass: PassContext,
  accepted: OperandStatus | undefined,
  reason: string,
  message: string,
  requeueAfterMs: number | undefined,
  status: MiddlewareStatus | undefined,
): OperandStep {
  const keeps =
    accepted !== undefined
      ? `the workloads keep ${accepted.image}`
      : isRunning(pass)
        ? 'the running workloads are left as they are'
        : 'no workload is started';
  const full = `${message}; ${keeps}`;
  const before = status?.conditions?.find((c) => c.type === ConditionType.OperandVersion);
  const news = before?.status !== 'False' || before.message !== full;
  return {
    image: accepted?.image,
    operand: accepted,
    condition: { type: ConditionType.OperandVersion, status: 'False', reason, message: full },
    ...(news ? { event: { type: 'Warning' as const, reason: 'OperandRefused', message: full } } : {}),
    ...(requeueAfterMs === undefined ? {} : { requeueAfterMs }),
  };
}

function acceptedCondition(operand: OperandStatus, status: MiddlewareStatus | undefined): ConditionUpdate {
  const before = status?.conditions?.find((c) => c.type === ConditionType.OperandVersion);
  if (before?.status === 'True')
    return { type: before.type, status: 'True', reason: before.reason, message: before.message };
  return {
    type: ConditionType.OperandVersion,
    status: 'True',
    reason: 'OperandAccepted',
    message: `image ${operand.image} is version ${operand.version}`,
  };
}

/**
 * isRunning is true when the Middleware has workloads although no image was accepted: it ran under an operator
 * from before the check, whose workloads are left as they are until an image is accepted.
 */
export function isRunning(pass: PassContext): boolean {
  return pass.children.some((c) => c.kind === 'Deployment');
}
