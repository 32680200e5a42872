/** @module What the reload state machine needs to know, read from the listed children and the preview Service. */
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import { ReloadState } from '../api/middleware-types.ts';
import type { KubeObject } from '../kube/client.ts';
import {
  buildDatabaseUsageJob,
  buildDropSchemaJob,
  buildMigrationJob,
  buildReloadJob,
  buildRestoreJob,
} from '../specs/jobs.ts';
import { serverDeploymentName } from '../specs/server-deployment.ts';
import { previewServiceName, stableServiceName } from '../specs/services.ts';
import {
  REPLACE_ANNOTATION,
  ROLLBACK_ANNOTATION,
  type GenerationState,
  type JobState,
  type ReloadObservation,
} from './bluegreen.ts';
import { isDeploymentAvailable, isDeploymentServing, jobState } from './reconcile-children.ts';
import { jobError } from './job-messages.ts';
import { readDatabaseCheck } from './reconcile-database.ts';
import { liveChild, liveChildNamed, type PassContext } from './reconcile-generation.ts';
import type { ProbeTarget, StatusProbe } from './status-probe.ts';

/** observeReload gathers the Jobs, servers and preview status of the generations the reload involves. */
export async function observeReload(
  pass: PassContext,
  state: GenerationState,
  probe: StatusProbe,
): Promise<ReloadObservation> {
  const { build } = pass;
  const reload = state.reload;
  const pending = state.pendingGeneration;
  const job = (desired: KubeObject): JobState => jobState(liveChild<V1Job & KubeObject>(pass, desired));
  const server = (generation: number): (V1Deployment & KubeObject) | undefined =>
    liveChildNamed(pass, 'Deployment', serverDeploymentName(build, generation));
  const pendingServer = pending === undefined ? undefined : server(pending);
  // a pending generation scales from previewReplicas to the full count once nearly synced: enough of it answers meanwhile
  const pendingServersAvailable = isDeploymentServing(pendingServer, build.spec.server.previewReplicas);
  const pendingServersScaled =
    isDeploymentAvailable(pendingServer) && pendingServer?.spec?.replicas === build.spec.server.replicas;
  const gating = reload?.state === ReloadState.CatchingUp || reload?.state === ReloadState.AwaitingPromotion;
  const pendingProbe = pendingServersAvailable && gating ? await probe(previewTarget(pass)) : undefined;
  const rollbackId = build.mw.metadata.annotations?.[ROLLBACK_ANNOTATION];
  const previous = state.previousGeneration;
  const rollingBack = reload?.state === ReloadState.Promoted && rollbackId === reload.id && previous !== undefined;
  const previousServersAvailable = rollingBack && isDeploymentAvailable(server(previous));
  const previousProbe = previousServersAvailable ? await probe(previewTarget(pass)) : undefined;
  const replaceId = build.mw.metadata.annotations?.[REPLACE_ANNOTATION];
  // the reload's own usage Job (named by its id; the layout asks for it while the reload checks the database)
  const databaseCheck =
    reload?.state === ReloadState.CheckingDatabase
      ? await readDatabaseCheck(pass, buildDatabaseUsageJob(build, state.activeGeneration, reload.id))
      : undefined;
  // a generation restored from a snapshot is migrated after its restore Job: that one first
  const restoring = reload?.state === ReloadState.Migrating ? reload.snapshot : undefined;
  const restoreJob =
    pending === undefined || restoring === undefined
      ? undefined
      : liveChild<V1Job & KubeObject>(pass, buildRestoreJob(build, pending, restoring));
  const restore = restoring === undefined ? 'Succeeded' : jobState(restoreJob);
  const pendingRestoreError =
    restore === 'Failed' && restoreJob !== undefined ? await jobError(pass.kube, restoreJob) : undefined;
  const pendingMigration =
    pending === undefined ? 'Absent' : restore === 'Succeeded' ? job(buildMigrationJob(build, pending)) : 'Running';
  return {
    ...(databaseCheck === undefined ? {} : { databaseCheck }),
    pendingMigration,
    ...(pendingRestoreError === undefined ? {} : { pendingRestoreError }),
    pendingServersAvailable,
    pendingServersScaled,
    ...(pendingProbe === undefined ? {} : { pendingProbe }),
    reloadJob:
      reload?.state === ReloadState.Reloading
        ? job(buildReloadJob(build, reload.generation, reload.id, reload.heights ?? ''))
        : 'Absent',
    cleanupJob:
      reload?.cleanupGeneration === undefined ? 'Absent' : job(buildDropSchemaJob(build, reload.cleanupGeneration)),
    ...(rollbackId === undefined ? {} : { rollbackId }),
    ...(rollingBack ? { previousServersAvailable } : {}),
    ...(previousProbe === undefined ? {} : { previousProbe }),
    ...(replaceId === undefined ? {} : { replaceId }),
    ...(build.mw.status?.activeGeneration === undefined ? { firstReconcile: true } : {}),
  };
}

/** stableTarget is the stable Service's status endpoint (the active generation). */
export function stableTarget(pass: PassContext): ProbeTarget {
  return {
    namespace: pass.build.mw.metadata.namespace ?? 'default',
    service: stableServiceName(pass.build),
    port: pass.build.spec.server.http.port,
  };
}

/** previewTarget is the preview Service's status endpoint (the pending generation). */
function previewTarget(pass: PassContext): ProbeTarget {
  return {
    namespace: pass.build.mw.metadata.namespace ?? 'default',
    service: previewServiceName(pass.build),
    port: pass.build.spec.server.http.port,
  };
}
