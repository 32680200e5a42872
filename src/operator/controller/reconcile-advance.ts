/**
 * @module The reload state machine's one transition of a pass, written to the status before anything acts on it, so
 * a crash never runs ahead of the recorded state.
 */
import type { ResolvedSpec } from '../api/defaults.ts';
import { RestoreState, type BootstrapStatus } from '../api/middleware-types.ts';
import {
  advanceReload,
  describeSnapshot,
  type ReloadRequest,
  type ReloadSettings,
  type ReloadStep,
} from './bluegreen.ts';
import type { AdoptionStep } from './reconcile-database.ts';
import { observeReload } from './reconcile-observe.ts';
import { writeStatus, type ChildPass } from './reconcile-pass.ts';
import { generationStateOf, withGenerationState } from './reconcile-status.ts';
import { statusChanged } from './status.ts';

/** advanceAndPersist makes the transition from the status (or the generation adopted) and writes it, then its Events. */
export async function advanceAndPersist(pass: ChildPass, adoption: AdoptionStep): Promise<ReloadStep> {
  const { mw } = pass;
  const { spec } = pass.build;
  const adopted = adoption.kind === 'adopted' ? adoption.generation : undefined;
  const before = generationStateOf(mw.status, adopted);
  const seen = await observeReload(pass, before, pass.probe);
  const step = advanceReload(before, reloadRequestOf(spec), seen, pass.now, reloadSettingsOf(spec));
  // the prefix is recorded with the first generation: from then on it names that generation's schema
  const schemaPrefix = spec.database.schemaPrefix;
  // a first generation created for this Middleware records the snapshot it starts from, which only it restores
  const bootstrap =
    adoption.kind === 'adopted' && adoption.fresh === true
      ? bootstrapOf(spec, adoption.generation, pass.now)
      : undefined;
  if (adopted !== undefined || statusChanged(before, step.state))
    await writeStatus(pass, {
      ...withGenerationState(mw.status, step.state),
      schemaPrefix,
      ...(bootstrap === undefined ? {} : { bootstrap }),
    });
  if (adoption.kind === 'adopted' && adoption.message !== undefined)
    await pass.recordEvent(mw, 'Normal', 'GenerationAdopted', adoption.message);
  for (const event of step.events) await pass.recordEvent(mw, event.type, event.reason, event.message);
  return step;
}

/** bootstrapOf is the restore a new first generation starts with, when spec.bootstrap names a snapshot. */
function bootstrapOf(spec: ResolvedSpec, generation: number, now: Date): BootstrapStatus | undefined {
  const snapshot = spec.bootstrap?.snapshot;
  if (snapshot === undefined) return undefined;
  return {
    generation,
    snapshot,
    state: RestoreState.Restoring,
    message: `restoring generation ${generation} from the snapshot ${describeSnapshot(snapshot)}`,
    startedAt: now.toISOString(),
  };
}

function reloadRequestOf(spec: ResolvedSpec): ReloadRequest | undefined {
  const reload = spec.reload;
  return (
    reload && {
      id: reload.id,
      strategy: reload.strategy,
      heights: reload.heights,
      autoPromote: reload.autoPromote,
      snapshot: reload.snapshot,
    }
  );
}

function reloadSettingsOf(spec: ResolvedSpec): ReloadSettings {
  return {
    maxLagBlocks: spec.promotion.syncedWithinBlocks,
    stableWindowMs: spec.promotion.stableWindowSeconds * 1000,
    retainPreviousMs: (spec.reload?.retainPreviousSeconds ?? 0) * 1000,
    switchDrainMs: spec.promotion.switchDrainSeconds * 1000,
    deadlineMs: (spec.reload?.deadlineSeconds ?? 0) * 1000,
    storageCapacityBytes: spec.database.storageCapacityBytes,
  };
}
