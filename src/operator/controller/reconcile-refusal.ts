/**
 * @module A Middleware refused because its schemas would collide with another's on the same database: it is told
 * (a condition, an Event naming the other), and its writers stop, so it can never write or drop the schemas the
 * other one serves from (two Middlewares that shared one before the operator refused it).
 */
import { ConditionType, type Middleware } from '../api/middleware-types.ts';
import { schemaPrefixOf } from '../api/schema-prefix.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { Component, LABEL_COMPONENT, ownerName } from '../specs/meta.ts';
import { deleteChild, listChildren } from './reconcile-children.ts';
import type { Pass, PassEnd } from './reconcile-pass.ts';
import { withConditions } from './reconcile-status.ts';

/** WRITERS: the components that write or drop a schema. */
const WRITERS: ReadonlySet<string> = new Set([
  Component.populator,
  Component.migration,
  Component.reload,
  Component.restore,
  Component.dropSchema,
]);

const RETRY_MS = 60_000;

/** refuseCollision ends the pass of a Middleware whose schemas are another's: its writers stop, its status and an Event say why. */
export async function refuseCollision(pass: Pass, rival: Middleware): Promise<PassEnd> {
  const { kube, mw } = pass;
  const message = collisionMessage(mw, rival);
  const stopped = await stopWriters(kube, await listChildren(kube, mw, pass.cache));
  if (stopped > 0)
    await pass.recordEvent(
      mw,
      'Warning',
      'StoppingWorkloads',
      `deleted ${stopped} populators and schema Jobs: ${message}`,
    );
  const update = { type: ConditionType.Reconciled, status: 'False' as const, reason: 'SchemaConflict', message };
  return {
    status: withConditions(mw, [update], pass.now),
    events: [{ type: 'Warning', reason: 'SchemaConflict', message }],
    requeueAfterMs: RETRY_MS,
  };
}

/** collisionMessage names the other Middleware, the database they share and what to change. */
export function collisionMessage(mw: Middleware, rival: Middleware): string {
  const secret = mw.spec.database.urlSecretRef;
  return (
    `the schemas of this Middleware (${schemaPrefixOf(mw)}<N>) would be those of Middleware ${ownerName(rival)} ` +
    `(${schemaPrefixOf(rival)}<N>, created first) on the same database (Secret ${secret.name}, key ${secret.key}): ` +
    `give this one its own spec.database.schemaPrefix (one that is not the other's followed by digits, or the reverse) or its own database`
  );
}

/** stopWriters deletes the Middleware's populators and schema Jobs; it returns how many it deleted. */
export async function stopWriters(kube: KubeClient, children: readonly KubeObject[]): Promise<number> {
  let deleted = 0;
  for (const child of children) {
    const component = child.metadata.labels?.[LABEL_COMPONENT] ?? '';
    if (
      (child.kind === 'Deployment' || child.kind === 'Job') &&
      WRITERS.has(component) &&
      (await deleteChild(kube, child))
    )
      deleted++;
  }
  return deleted;
}
