/** @module Everything the operator writes must survive a real API server: statuses fit the CRD schema, Events fit core/v1. */
import { expect } from 'chai';
import type { CoreV1Event } from '@kubernetes/client-node';
import { middlewareOpenApiSchema } from '../../../src/operator/api/crd.ts';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { ROLLBACK_ANNOTATION } from '../../../src/operator/controller/bluegreen.ts';
import { kubeSchemaProblems, middlewareSchemaProblems } from '../specs/kube-schema.ts';
import { Harness, MW_REF } from './harness.ts';

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
};

/** prunedPaths lists the members a structural schema does not declare: the API server would silently drop them. */
function prunedPaths(value: unknown, schema: Schema, path: string): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties !== undefined) return [];
  if (Array.isArray(value))
    return schema.items ? value.flatMap((v, i) => prunedPaths(v, schema.items!, `${path}[${i}]`)) : [];
  if (typeof value !== 'object' || value === null || schema.properties === undefined) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const sub = schema.properties?.[key];
    return sub === undefined ? [`${path}.${key}`] : prunedPaths(v, sub, `${path}.${key}`);
  });
}

/** eventProblems validates an Event as it goes over the wire (JSON: timestamps are strings). */
async function eventProblems(event: CoreV1Event): Promise<string[]> {
  return kubeSchemaProblems(JSON.parse(JSON.stringify(event)) as never);
}

describe('what the operator writes fits the API', () => {
  const statusSchema = (middlewareOpenApiSchema() as Schema).properties!.status!;
  const problems = new Set<string>();
  const seenStates = new Set<string>();
  let events: CoreV1Event[] = [];

  async function check(h: Harness): Promise<void> {
    const mw = h.middleware();
    // The spec is the user's (the invalid-spec step breaks it on purpose); the status is the operator's.
    for (const p of middlewareSchemaProblems(mw)) if (p.startsWith('Middleware: /status')) problems.add(p);
    for (const p of prunedPaths(mw.status, statusSchema, 'status')) problems.add(`pruned ${p}`);
    if (mw.status?.reload?.state) seenStates.add(mw.status.reload.state);
    for (const event of h.kube.events) for (const p of await eventProblems(event)) problems.add(p);
    events.push(...h.kube.events);
    h.kube.clearRecords();
  }

  async function run(h: Harness, passes: number, between: () => void = () => {}): Promise<void> {
    for (let i = 0; i < passes; i++) {
      try {
        await h.pass();
      } catch {
        // a failing pass still wrote its status and Event
      }
      await check(h);
      h.completeJobs();
      h.readyDeployments();
      between();
      h.clock.advance(61_000);
    }
  }

  before(async () => {
    events = [];
    // Creation, a blue/green reload with a rollback, an in-place reload, an invalid spec, a pause, a deletion.
    const h = new Harness();
    const mw = (await import('./harness.ts')).exampleMiddleware();
    mw.spec.reload = undefined;
    await h.apply(mw);
    h.probe.set('mainnet', 100, 0);
    h.probe.set('mainnet-preview', 100, 0);
    await run(h, 4);
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'a', strategy: 'BlueGreen', retainPrevious: '1h' } } });
    await run(h, 6, () => {
      if (h.middleware().status?.reload?.state === 'Promoted')
        h.kube.userPatch(MW_REF, { metadata: { annotations: { [ROLLBACK_ANNOTATION]: 'a' } } });
    });
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'b', strategy: 'InPlace', heights: '1-5' } } });
    await run(h, 4);
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'c', strategy: 'BlueGreen', autoPromote: false } } });
    await run(h, 6);
    h.kube.userPatch(MW_REF, { spec: { reload: null } });
    await run(h, 4);
    h.kube.userPatch(MW_REF, { spec: { paused: true } });
    await run(h, 1);
    h.kube.legacyPatch(MW_REF, { spec: { paused: false, nodeUrls: [] } }); // the CRD refuses it: an older one let it in
    await run(h, 1);
    h.kube.userPatch(MW_REF, { spec: { nodeUrls: ['http://ae-node.chain.svc:3013'] } });
    await run(h, 2);
    await h.kube.delete(MW_REF);
    for (let i = 0; i < 4 && h.kube.peek<Middleware>(MW_REF) !== undefined; i++) {
      await h.pass();
      for (const event of h.kube.events) for (const p of await eventProblems(event)) problems.add(p);
      events.push(...h.kube.events);
      h.kube.clearRecords();
      h.completeJobs();
    }
  });

  it('went through every kind of reload state', () =>
    expect([...seenStates].sort()).to.include.members([
      'AwaitingPromotion',
      'CatchingUp',
      'CleaningUp',
      'Completed',
      'Migrating',
      'Promoted',
      'Reloading',
      'RolledBack',
      'Aborted',
    ]));

  it('wrote only statuses the CRD schema accepts, with no member the API server would prune', () =>
    expect([...problems].filter((p) => p.startsWith('Middleware') || p.startsWith('pruned'))).to.deep.equal([]));

  it('recorded only valid core/v1 Events', () => {
    expect(events.length).to.be.greaterThan(20);
    expect([...problems].filter((p) => p.startsWith('Event'))).to.deep.equal([]);
  });
});
