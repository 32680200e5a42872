/**
 * @module A pass with an accepted image: every child the layout asks for applied in order (migration → populator →
 * servers → Services and extras), the rest pruned, and the status the active generation then gives.
 */
import type { V1Deployment } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/client.ts';
import { buildDatabaseUsageJob } from '../specs/jobs.ts';
import { populatorDeploymentName } from '../specs/populator-deployment.ts';
import { desiredLayout, type DesiredLayout, type ReloadStep } from './bluegreen.ts';
import { PROBE_FAILURE_THRESHOLD, type ProbeRecord } from './probe-streak.ts';
import { deleteChild, isDeploymentAvailable } from './reconcile-children.ts';
import { bootstrapEvents, conditionEvents } from './reconcile-condition-events.ts';
import { keepDatabaseCheck, readDatabaseCheck } from './reconcile-database.ts';
import {
  liveChildNamed,
  reconcileDropJob,
  reconcileGeneration,
  reconcileReloadJob,
  type GenerationReport,
  type PassContext,
} from './reconcile-generation.ts';
import { reconcileExtras, reconcileServices } from './reconcile-instance.ts';
import { stableTarget } from './reconcile-observe.ts';
import type { ProbeResult } from './status-probe.ts';
import type { OperandStep } from './reconcile-operand.ts';
import type { ChildPass, PassEnd } from './reconcile-pass.ts';
import { reconciledStatus, restoringBootstrap } from './reconcile-status.ts';

const WAIT_MS = 15_000;
const NOT_SYNCED_MS = 30_000;

/** converge applies the layout of the step's state and ends the pass on the status it gives, and its condition Events. */
export async function converge(pass: ChildPass, step: ReloadStep, operand: OperandStep): Promise<PassEnd> {
  const { mw, ref } = pass;
  const active = await convergeChildren(pass, desiredLayout(step.state, restoringBootstrap(mw.status, step.state)));
  const target = stableTarget(pass);
  const activeProbe = (active.server?.status?.availableReplicas ?? 0) > 0 ? await pass.probe(target) : undefined;
  const probed = pass.probeStreaks.record(ref, mw.metadata.uid, activeProbe, pass.now);
  logProbe(pass, { generation: step.state.activeGeneration, service: target.service }, activeProbe, probed);
  const activeProbeStreak = probed.streak;
  const pending = step.state.pendingGeneration;
  const pendingPopulator =
    pending === undefined
      ? undefined
      : liveChildNamed<V1Deployment & KubeObject>(pass, 'Deployment', populatorDeploymentName(pass.build, pending));
  const next = {
    ...reconciledStatus({
      mw,
      state: step.state,
      active,
      activeProbe,
      activeProbeStreak,
      pendingPopulator,
      operand: operand.condition,
      now: pass.now,
    }),
    schemaPrefix: pass.build.spec.database.schemaPrefix,
    ...(operand.operand === undefined ? {} : { operand: operand.operand }),
  };
  pass.log.debug({ key: `${ref.namespace}/${ref.name}`, writes: pass.writes, phase: next.phase }, 'reconciled');
  return {
    status: next,
    events: [
      ...bootstrapEvents(mw.status?.bootstrap, next.bootstrap),
      ...conditionEvents(mw.status?.conditions, next.conditions),
    ],
    requeueAfterMs: requeueAfter(
      step.requeueAfterMs ?? operand.requeueAfterMs,
      isDeploymentAvailable(active.server) && active.migration === 'Succeeded',
      activeProbe?.synced === true,
    ),
  };
}

/**
 * logProbe says a run of unanswered status probes twice: at its first failure (warn, with the cause) and at its end
 * (info, with how many failed), not at each pass between, which may be hours of one line every 30 s. It ends at an
 * answer, or without one when no server is left to ask (the Available condition says why): a reader who saw the
 * first line is told the run is over either way, and a failure after it starts a run that is said again.
 */
function logProbe(
  pass: ChildPass,
  probed: { readonly generation: number; readonly service: string },
  probe: ProbeResult | undefined,
  { streak, answeredAfter, unansweredAfter }: ProbeRecord,
): void {
  const fields = { name: pass.ref.name, namespace: pass.ref.namespace, ...probed };
  if (streak?.failures === 1)
    pass.log.warn(
      { ...fields, error: probe?.error },
      `status probe of generation ${probed.generation} (Service ${probed.service}) got no answer: ${probe?.error ?? '?'}; ` +
        `Synced says so from ${PROBE_FAILURE_THRESHOLD} in a row, this line not again until it answers`,
    );
  if (answeredAfter !== undefined)
    pass.log.info(
      { ...fields, failures: answeredAfter.failures, since: answeredAfter.since },
      `status probe of generation ${probed.generation} (Service ${probed.service}) answering again after ` +
        `${answeredAfter.failures} failure${answeredAfter.failures === 1 ? '' : 's'}`,
    );
  if (unansweredAfter !== undefined)
    pass.log.info(
      { ...fields, failures: unansweredAfter.failures, since: unansweredAfter.since },
      `status probe of generation ${probed.generation} (Service ${probed.service}) stopped after ` +
        `${unansweredAfter.failures} failure${unansweredAfter.failures === 1 ? '' : 's'} without an answer: ` +
        'no server is available to ask',
    );
}

/** convergeChildren applies what the layout asks for, in order, prunes the rest, and reports on the active generation. */
async function convergeChildren(pass: ChildPass, layout: DesiredLayout): Promise<GenerationReport> {
  const { mw, recordEvent } = pass;
  const reports: GenerationReport[] = [];
  for (const plan of layout.generations) reports.push(await reconcileGeneration(pass, plan));
  const services = await reconcileServices(pass, layout);
  if (services.switched)
    await recordEvent(
      mw,
      'Normal',
      'Switched',
      `the stable Services now select generation ${layout.stableGeneration} (was ${services.selectedBefore})`,
    );
  for (const missing of await reconcileExtras(pass))
    await recordEvent(mw, 'Warning', 'ServiceMonitorNotInstalled', missing);
  if (layout.reloadJob !== undefined) await reconcileReloadJob(pass, layout.reloadJob);
  if (layout.cleanupGeneration !== undefined) await reconcileDropJob(pass, layout.cleanupGeneration);
  if (layout.databaseCheck !== undefined) {
    const job = buildDatabaseUsageJob(pass.build, layout.stableGeneration, layout.databaseCheck.id);
    await keepDatabaseCheck(pass, job, await readDatabaseCheck(pass, job));
  }
  await prune(pass);
  if (pass.writes > 0)
    await recordEvent(mw, 'Normal', 'ChildrenApplied', `${pass.writes} child objects created, updated or deleted`);
  // desiredLayout always lists the active generation first.
  return reports[0]!;
}

async function prune(pass: PassContext): Promise<void> {
  for (const child of pass.children) {
    if (!pass.keep.wants(child) && (await deleteChild(pass.kube, child))) pass.writes++;
  }
}

/** requeueAfter is the soonest look again: the machine's, or while the servers are not available or not synced. */
function requeueAfter(machine: number | undefined, available: boolean, synced: boolean): number | undefined {
  const waits = [machine, available ? undefined : WAIT_MS, synced ? undefined : NOT_SYNCED_MS].filter(
    (n): n is number => n !== undefined,
  );
  return waits.length === 0 ? undefined : Math.min(...waits);
}
