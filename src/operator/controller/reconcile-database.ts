/**
 * @module Asking the database through a Job: `mdw db usage` answers in its container's termination message, which
 * the operator reads from the Pod's status (it never connects to PostgreSQL), and the adoption of a generation by a
 * Middleware that has no status.
 */
import type { V1Job, V1Service } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/client.ts';
import { buildDatabaseUsageJob } from '../specs/jobs.ts';
import { selectedGeneration, stableServiceName } from '../specs/services.ts';
import type { DatabaseCheck } from './bluegreen.ts';
import type { Middleware } from '../api/middleware-types.ts';
import {
  adoptFromDatabase,
  formatBytes,
  freeGeneration,
  parseDatabaseReport,
  type DatabaseReport,
} from './database-report.ts';
import { ownershipOf } from './schema-ownership.ts';
import { deleteChild, jobState } from './reconcile-children.ts';
import { failureOf, terminationMessages } from './job-messages.ts';
import { liveChild, liveChildNamed, writeChild, type PassContext } from './reconcile-generation.ts';
import { FIRST_GENERATION } from './reconcile-status.ts';

/** readDatabaseCheck reads a usage Job's state and, once it has ended, its answer (from its pods). */
export async function readDatabaseCheck(pass: PassContext, job: V1Job & KubeObject): Promise<DatabaseCheck> {
  const live = liveChild<V1Job & KubeObject>(pass, job);
  const state = jobState(live);
  if (live === undefined || state === 'Running' || state === 'Absent') return { job: state };
  const messages = await terminationMessages(pass.kube, live);
  if (state === 'Failed') return { job: 'Failed', error: failureOf(live, messages) };
  // the answer of the attempt that succeeded (an earlier one may have failed with a log tail)
  const text = messages.filter((m) => m.exitCode === 0).at(-1)?.message;
  if (text === undefined) return { job: 'Failed', error: 'the Job succeeded but its pod (and its report) are gone' };
  const report = parseDatabaseReport(text);
  return typeof report === 'string'
    ? { job: 'Failed', error: `its report is unreadable: ${report}` }
    : { job: 'Succeeded', report };
}

/**
 * keepDatabaseCheck keeps a usage Job that has not answered yet (creating it when absent); an answered one is not
 * kept, so the pass prunes it.
 */
export async function keepDatabaseCheck(
  pass: PassContext,
  job: V1Job & KubeObject,
  check: DatabaseCheck,
): Promise<void> {
  if (check.job !== 'Absent' && check.job !== 'Running') return;
  pass.keep.keep(job);
  if (check.job === 'Absent') await writeChild(pass, job);
}

/** AdoptionStep: the generation a Middleware without status serves, or that the pass must wait for the database. */
export type AdoptionStep =
  | { readonly kind: 'known' }
  | {
      readonly kind: 'adopted';
      readonly generation: number;
      readonly message?: string;
      /** the database's answer, when it was asked (it also tells the image's version). */
      readonly report?: DatabaseReport;
      /** the generation is new: no schema of it exists, this Middleware creates it (spec.bootstrap applies) */
      readonly fresh?: true;
    }
  | { readonly kind: 'waiting'; readonly message: string; readonly failed: boolean };

/** ADOPT: the purpose of the usage Job a Middleware without status runs. */
const ADOPT = 'adopt';

/**
 * adoptGeneration finds the generation a Middleware without a status (a new one, one restored from a backup, or
 * re-created with the same name) serves: the one its live stable Service selects, else the database's migrated
 * schema of its own (ownershipOf, over `all` the Middlewares) with the most stored heights (`mdw db usage` in a
 * Job), else the first generation whose schema does not exist. Starting at generation 1 over existing schemas would
 * orphan the active one and load the chain again; a schema of another Middleware is never adopted; a failed check is
 * retried.
 */
export async function adoptGeneration(pass: PassContext, all: readonly Middleware[]): Promise<AdoptionStep> {
  if (pass.build.mw.status?.activeGeneration !== undefined) return { kind: 'known' };
  const stable = liveChildNamed<V1Service & KubeObject>(pass, 'Service', stableServiceName(pass.build));
  const selected = selectedGeneration(stable);
  if (selected !== undefined)
    return {
      kind: 'adopted',
      generation: selected,
      message: `the status had no generation; the stable Service selects generation ${selected}, which is kept as the active one`,
    };
  const job = buildDatabaseUsageJob(pass.build, FIRST_GENERATION, ADOPT);
  const check = await readDatabaseCheck(pass, job);
  await keepDatabaseCheck(pass, job, check);
  if (check.job === 'Failed') {
    // deleted (its Event tells what failed), so the next look runs it again
    if (await deleteChild(pass.kube, job)) pass.writes++;
    return { kind: 'waiting', failed: true, message: `the database check failed: ${check.error ?? 'unknown'}` };
  }
  const report = check.report;
  if (report === undefined)
    return { kind: 'waiting', failed: false, message: 'a Job reads which generation schemas the database holds' };
  const verdicts = report.schemas.map((schema) => ({ schema, ownership: ownershipOf(schema, pass.build.mw, all) }));
  const own = verdicts.filter((v) => v.ownership.kind === 'own').map((v) => v.schema);
  const foreign = verdicts.flatMap(({ schema, ownership }) =>
    ownership.kind === 'own'
      ? []
      : [`${schema.name} (${ownership.kind === 'other' ? `owned by ${ownership.owner}` : ownership.why})`],
  );
  const notOurs = foreign.length === 0 ? '' : `; not this Middleware's, never touched: ${foreign.join(', ')}`;
  const { generation, others } = adoptFromDatabase({ ...report, schemas: own });
  if (generation === undefined) {
    // the first generation's schema name may be another Middleware's: then a number above every such schema
    const theirs = verdicts.filter((v) => v.ownership.kind !== 'own').map((v) => v.schema);
    const first = freeGeneration({ ...report, schemas: theirs }, FIRST_GENERATION);
    const message = foreign.length === 0 ? undefined : `the database holds no schema of this Middleware${notOurs}`;
    return { kind: 'adopted', generation: first, report, fresh: true, ...(message === undefined ? {} : { message }) };
  }
  const kept = others.map(
    (s) => `${s.name} (${s.migrated ? `height ${s.height ?? 'none'}` : 'not migrated'}, ${formatBytes(s.bytes)})`,
  );
  return {
    kind: 'adopted',
    generation,
    report,
    message:
      `the status had no generation; the database holds generation ${generation} with the most stored heights, which is kept as the active one` +
      (kept.length === 0 ? '' : `; left as they are (never used or dropped by this Middleware): ${kept.join(', ')}`) +
      notOurs,
  };
}
