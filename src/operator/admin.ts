/** @module Admin actions behind `mdw reload` and `mdw status`: request, promote and roll back reloads; describe a Middleware. */
import { AppError, ErrorCode } from '../base/errors.ts';
import type { Middleware, MiddlewareCondition, ReloadSpec } from './api/middleware-types.ts';
import type { ReloadStrategy } from './api/spec-values.ts';
import { ReloadState } from './api/middleware-types.ts';
import { schemaPrefixOf } from './api/schema-prefix.ts';
import { formatProblems, validateMiddleware } from './api/validation.ts';
import { REPLACE_ANNOTATION, ROLLBACK_ANNOTATION, isReloadBusy } from './controller/bluegreen.ts';
import { generationStateOf } from './controller/reconcile-status.ts';
import { middlewareRef } from './controller/reconcile.ts';
import type { KubeClient, ObjectRef } from './kube/client.ts';

/** MiddlewareName names one Middleware. */
export interface MiddlewareName {
  readonly namespace: string;
  readonly name: string;
}

/** ReloadRequestOptions is what `mdw reload <name> --heights … --strategy …` asks for. */
export interface ReloadRequestOptions extends MiddlewareName {
  readonly strategy: ReloadStrategy;
  /** Height list as `-H` takes it; required for InPlace. */
  readonly heights?: string;
  /** false: the new generation waits for `promoteReload` (default true). */
  readonly autoPromote?: boolean;
  /** Rollback window, e.g. "6h" (default: the CRD's). */
  readonly retainPrevious?: string;
  /** Reload id (default: `reload-<UTC timestamp>`). */
  readonly id?: string;
  /** Replace a reload that is still running (one before promotion is aborted and its generation dropped). */
  readonly force?: boolean;
  /** Clock for the default id. */
  readonly now?: Date;
}

/**
 * requestReload sets spec.reload to a new request (a new id is what starts a reload) with one merge
 * patch; it refuses a malformed request, and a second one while a reload runs unless `force`.
 */
export async function requestReload(kube: KubeClient, opts: ReloadRequestOptions): Promise<{ id: string }> {
  const mw = await getMiddleware(kube, opts);
  const state = generationStateOf(mw.status);
  if (isReloadBusy(state) && opts.force !== true) {
    throw new AppError(
      ErrorCode.OPERATOR_CONFLICT,
      409,
      `reload ${state.reload?.id ?? ''} is ${state.reload?.state ?? ''}; wait until it ends, or pass --force to replace it (a reload not yet promoted is aborted; a promoted one first finishes its rollback window)`,
    );
  }
  const id = opts.id ?? defaultReloadId(opts.now ?? new Date());
  const reload: ReloadSpec = {
    id,
    strategy: opts.strategy,
    ...(opts.heights === undefined ? {} : { heights: opts.heights }),
    ...(opts.autoPromote === undefined ? {} : { autoPromote: opts.autoPromote }),
    ...(opts.retainPrevious === undefined ? {} : { retainPrevious: opts.retainPrevious }),
  };
  const problems = validateMiddleware({ ...mw, spec: { ...mw.spec, reload } }).filter((p) =>
    p.path.startsWith('spec.reload'),
  );
  if (problems.length > 0)
    throw new AppError(ErrorCode.OPERATOR_BAD_REQUEST, 400, `invalid reload request:\n${formatProblems(problems)}`);
  // Members the new request leaves out are nulled, so nothing of an older request survives the merge.
  const patch = { heights: null, autoPromote: null, retainPrevious: null, deadline: null, ...reload };
  // --force names the running reload, so that the operator may abort it; without it the new request waits.
  const running = isReloadBusy(state) ? state.reload?.id : undefined;
  const metadata = running === undefined ? {} : { metadata: { annotations: { [REPLACE_ANNOTATION]: running } } };
  await kube.patchMerge(refOf(opts), { ...metadata, spec: { reload: patch } });
  return { id };
}

/** promoteReload approves a reload that waits for promotion (sets spec.reload.autoPromote). */
export async function promoteReload(kube: KubeClient, target: MiddlewareName): Promise<{ id: string }> {
  const mw = await getMiddleware(kube, target);
  const reload = mw.status?.reload;
  const waiting: readonly string[] = [ReloadState.AwaitingPromotion, ReloadState.CatchingUp, ReloadState.Migrating];
  if (reload === undefined || !waiting.includes(reload.state) || mw.spec.reload?.id !== reload.id) {
    throw new AppError(
      ErrorCode.OPERATOR_CONFLICT,
      409,
      `no reload of ${target.namespace}/${target.name} awaits promotion${reload ? ` (reload ${reload.id} is ${reload.state})` : ''}`,
    );
  }
  await kube.patchMerge(refOf(target), { spec: { reload: { autoPromote: true } } });
  return { id: reload.id };
}

/** rollbackReload switches back to the generation a promoted reload replaced, while it is still retained. */
export async function rollbackReload(
  kube: KubeClient,
  target: MiddlewareName,
): Promise<{ id: string; generation: number }> {
  const mw = await getMiddleware(kube, target);
  const reload = mw.status?.reload;
  if (reload?.state !== ReloadState.Promoted || mw.status?.previousGeneration === undefined) {
    throw new AppError(
      ErrorCode.OPERATOR_CONFLICT,
      409,
      `nothing to roll back on ${target.namespace}/${target.name}: a rollback needs a promoted reload whose previous generation is still retained${reload ? ` (reload ${reload.id} is ${reload.state})` : ''}`,
    );
  }
  await kube.patchMerge(refOf(target), { metadata: { annotations: { [ROLLBACK_ANNOTATION]: reload.id } } });
  return { id: reload.id, generation: mw.status.previousGeneration };
}

/** describeStatus renders a Middleware's phase, generations, heights, reload and conditions for a terminal. */
export async function describeStatus(kube: KubeClient, target: MiddlewareName): Promise<string> {
  return formatStatus(await getMiddleware(kube, target));
}

/** formatStatus is describeStatus without the read (pure). */
function formatStatus(mw: Middleware): string {
  const s = mw.status ?? {};
  const schema = (g: number | undefined) => (g === undefined ? '-' : `${g} (schema ${schemaPrefixOf(mw)}${g})`);
  const lines = [
    `Middleware ${mw.metadata.namespace ?? ''}/${mw.metadata.name ?? ''}`,
    `  Phase:        ${s.phase ?? 'Unknown'} (observed generation ${s.observedGeneration ?? '-'} of ${mw.metadata.generation ?? '-'})`,
    `  Active:       ${schema(s.activeGeneration)}`,
    `  Pending:      ${schema(s.pendingGeneration)}`,
    `  Previous:     ${schema(s.previousGeneration)}${s.previousExpiresAt ? `, kept until ${s.previousExpiresAt}` : ''}`,
    `  Height:       ${s.height ?? '-'} of node ${s.nodeHeight ?? '-'} (lag ${s.lag ?? '-'})`,
    `  Servers:      ${s.readyReplicas ?? 0}/${mw.spec.server?.replicas ?? s.replicas ?? '-'} ready`,
  ];
  if (mw.spec.paused === true) lines.push('  Paused:       yes (spec.paused)');
  if (mw.metadata.deletionTimestamp !== undefined)
    lines.push(`  Deleting:     since ${String(mw.metadata.deletionTimestamp)}`);
  if (s.reload !== undefined) {
    const r = s.reload;
    lines.push(
      `  Reload:       ${r.id} (${r.strategy}) ${r.state}, generation ${r.generation}${r.fromGeneration === undefined ? '' : ` from ${r.fromGeneration}`}`,
    );
    if (r.startedAt)
      lines.push(`                started ${r.startedAt}${r.completedAt ? `, ended ${r.completedAt}` : ''}`);
    if (r.message) lines.push(`                ${r.message}`);
  }
  lines.push('  Conditions:', ...formatConditions(s.conditions ?? []));
  return `${lines.join('\n')}\n`;
}

function formatConditions(conditions: readonly MiddlewareCondition[]): string[] {
  if (conditions.length === 0) return ['    (none yet)'];
  const rows = [
    ['TYPE', 'STATUS', 'REASON', 'SINCE', 'MESSAGE'],
    ...conditions.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime, c.message]),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    `    ${r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}`.trimEnd(),
  );
}

async function getMiddleware(kube: KubeClient, target: MiddlewareName): Promise<Middleware> {
  const mw = await kube.get<Middleware>(refOf(target));
  if (mw === undefined)
    throw new AppError(
      ErrorCode.OPERATOR_NOT_FOUND,
      404,
      `no Middleware ${target.name} in namespace ${target.namespace}`,
    );
  return mw;
}

function refOf(target: MiddlewareName): ObjectRef {
  return middlewareRef(`${target.namespace}/${target.name}`);
}

function defaultReloadId(now: Date): string {
  return `reload-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'z')
    .replace('T', '-')
    .toLowerCase()}`;
}
