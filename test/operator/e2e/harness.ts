/** @module Test harness for operator scenarios: FakeKube, a manual clock, a scripted status probe and tiny simulated controllers. */
import { readFileSync } from 'node:fs';
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import pino from 'pino';
import { parse } from 'yaml';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { createReconciler, type ReconcileResult, type Reconciler } from '../../../src/operator/controller/reconcile.ts';
import type { ProbeResult, ProbeTarget } from '../../../src/operator/controller/status-probe.ts';
import { refOf, type ObjectRef } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { LABEL_COMPONENT, LABEL_GENERATION } from '../../../src/operator/specs/meta.ts';

export const IMAGE = 'ghcr.io/aeternity/mdw:1.0.0';
export const KEY = 'chain/mainnet';
export const MW_REF: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: 'chain', name: 'mainnet' };

/** exampleMiddleware is the project's examples/middleware.yaml, as `kubectl apply` would send it. */
export function exampleMiddleware(): Middleware {
  return parse(readFileSync(new URL('../../../examples/middleware.yaml', import.meta.url), 'utf8')) as Middleware;
}

/** ManualClock is the injectable clock: time moves only when a test says so. */
export class ManualClock {
  #now = new Date('2026-11-21T00:00:00Z').getTime();
  readonly now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** ScriptedProbe answers `/middleware/status` per Service name; unknown Services are unreachable. */
export class ScriptedProbe {
  readonly answers = new Map<string, ProbeResult>();
  readonly calls: ProbeTarget[] = [];
  readonly probe = async (target: ProbeTarget): Promise<ProbeResult> => {
    this.calls.push(target);
    return this.answers.get(target.service) ?? { reachable: false, synced: false, error: 'connection refused' };
  };
  /** caughtUp makes a Service report a synced middleware at height `height` with `lag`. */
  set(service: string, height: number, lag: number): void {
    this.answers.set(service, { reachable: true, synced: lag <= 3, height, nodeHeight: height + lag, lag });
  }
}

/** Harness wires a reconciler to a FakeKube, a manual clock and a scripted probe. */
export class Harness {
  readonly clock = new ManualClock();
  readonly kube = new FakeKube({ now: this.clock.now });
  readonly probe = new ScriptedProbe();
  reconcile: Reconciler = this.newReconciler();

  /** newReconciler is a fresh operator process: no memory but what the cluster holds (a crash and restart). */
  newReconciler(): Reconciler {
    return createReconciler({ kube: this.kube, log: pino({ level: 'silent' }), probe: this.probe.probe, clock: this.clock.now, config: { image: IMAGE } });
  }

  /** crash replaces the reconciler by a fresh one. */
  crash(): void {
    this.reconcile = this.newReconciler();
  }

  async apply(mw: Middleware = exampleMiddleware()): Promise<Middleware> {
    return this.kube.create(mw);
  }

  middleware(): Middleware {
    const mw = this.kube.peek<Middleware>(MW_REF);
    if (mw === undefined) throw new Error('the Middleware is gone');
    return mw;
  }

  async pass(): Promise<ReconcileResult> {
    return this.reconcile(KEY);
  }

  deployments(): (V1Deployment & { metadata: { name: string } })[] {
    return this.kube.objectsOf('apps/v1', 'Deployment', 'chain') as never;
  }

  jobs(): (V1Job & { metadata: { name: string } })[] {
    return this.kube.objectsOf('batch/v1', 'Job', 'chain') as never;
  }

  /** completeJobs plays the Job controller: every unfinished Job (of a component, when given) succeeds. */
  completeJobs(component?: string): string[] {
    const done: string[] = [];
    for (const job of this.jobs()) {
      if (component !== undefined && job.metadata.labels?.[LABEL_COMPONENT] !== component) continue;
      if ((job.status?.conditions ?? []).length > 0) continue;
      this.kube.completeJob(refOf(job as never));
      done.push(job.metadata.name);
    }
    return done;
  }

  /** readyDeployments plays the Deployment controller: every Deployment reports all replicas available. */
  readyDeployments(): void {
    for (const d of this.deployments()) {
      const ready = d.status?.availableReplicas === d.spec?.replicas && d.status?.observedGeneration === d.metadata.generation;
      if (!ready) this.kube.markDeploymentReady(refOf(d as never));
    }
  }

  /** settle runs passes with both simulated controllers until a pass writes nothing (at most `max`). */
  async settle(max = 20): Promise<number> {
    for (let i = 1; i <= max; i++) {
      this.kube.clearRecords();
      await this.pass();
      this.completeJobs();
      this.readyDeployments();
      if (this.kube.writes.length === 0) return i;
    }
    throw new Error(`no fixed point after ${max} passes`);
  }

  names(kind: 'Deployment' | 'Job'): string[] {
    return (kind === 'Deployment' ? this.deployments() : this.jobs()).map((o) => o.metadata.name).sort();
  }

  generationsOf(kind: 'Deployment' | 'Job'): number[] {
    const items = kind === 'Deployment' ? this.deployments() : this.jobs();
    return [...new Set(items.map((o) => Number(o.metadata.labels?.[LABEL_GENERATION])))].sort();
  }

  condition(type: string): { status: string; reason: string } | undefined {
    return this.middleware().status?.conditions?.find((c) => c.type === type);
  }

  eventReasons(): string[] {
    return this.kube.events.map((e) => e.reason ?? '');
  }
}
