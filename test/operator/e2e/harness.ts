/** @module Test harness for operator scenarios: FakeKube, a manual clock, a scripted status probe and tiny simulated controllers. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import pino from 'pino';
import { parse } from 'yaml';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { createReconciler, type ReconcileResult, type Reconciler } from '../../../src/operator/controller/reconcile.ts';
import type { ProbeResult, ProbeTarget } from '../../../src/operator/controller/status-probe.ts';
import type { CoreV1Event } from '@kubernetes/client-node';
import {
  type ApplyOptions,
  refOf,
  type DeleteOptions,
  type KubeClient,
  type KubeObject,
  type ListOptions,
  type ListPage,
  type ObjectRef,
  type WatchEvent,
  type WatchRequest,
  type WatchHandle,
  KubeError,
} from '../../../src/operator/kube/client.ts';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { Component, LABEL_COMPONENT, LABEL_GENERATION } from '../../../src/operator/specs/meta.ts';
import { generationOfSchema } from '../../../src/db/schema/usage.ts';

export const IMAGE = 'ghcr.io/aeternity/mdw:1.0.0';
export const KEY = 'chain/mainnet';
export const MW_REF: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: 'chain', name: 'mainnet' };
/** HOME is the operator's own pod, in its own namespace. */
export const HOME = { namespace: 'mdw-system', pod: 'mdw-operator-7d9f8-x2x9q' };

/** exampleMiddleware is the project's examples/middleware.yaml, as `kubectl apply` would send it. */
export function exampleMiddleware(): Middleware {
  return parse(readFileSync(new URL('../../../examples/middleware.yaml', import.meta.url), 'utf8')) as Middleware;
}

/** ManualClock is the injectable clock: time moves only when a test says so. */
class ManualClock {
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
    const synced = lag <= 3;
    this.answers.set(service, {
      reachable: true,
      synced,
      httpStatus: synced ? 200 : 503,
      height,
      nodeHeight: height + lag,
      lag,
      contiguous: true,
      populatorAlive: true,
      secondsSinceHeartbeat: 1,
    });
  }
}

/** SchemaState is one schema of the simulated database, with the owner and migration it records (null: none). */
interface SchemaState {
  bytes: number;
  height: number | null;
  migrated: boolean;
  migration?: string | null;
  owner_uid?: string | null;
  owner_name?: string | null;
}

/** FakeImage is what an operand image's `mdw db usage` says of itself; an image before 1010 says nothing. */
export interface FakeImage {
  readonly version?: string;
  readonly newestMigration?: string;
}

/** SNAPSHOT_TOP: the top height of the snapshots the simulated restore Jobs import. */
export const SNAPSHOT_TOP = 900_000;

/** NEWEST_MIGRATION: the newest migration the images of these tests ship (unless told otherwise). */
export const NEWEST_MIGRATION = '1010_schema_identity';

/**
 * FakeDatabase plays the PostgreSQL database the operator's Jobs work on, and the binary in them: migration Jobs
 * create their schema (`DATABASE_SCHEMA`) and record its owner (`MIDDLEWARE_UID`, `MIDDLEWARE_NAME`) when it has
 * none, drop Jobs remove it, and `mdw db usage` Jobs answer with the schemas of their `--schema-prefix` and the
 * image's version (through their pod's termination message, as the real command does). An image listed in `images`
 * answers as that image does: one from before the schema identity reports neither versions nor owners.
 */
export class FakeDatabase {
  /** schemas by name. */
  readonly schemas = new Map<string, SchemaState>();
  readonly images = new Map<string, FakeImage>();
  /** bytes outside the generation schemas (catalogs, other schemas). */
  otherBytes = 8 * 2 ** 20;

  /** jobDone applies what a finished Job did and gives the termination message of a usage Job. */
  jobDone(job: KubeObject): string | undefined {
    const labels = job.metadata.labels ?? {};
    const component = labels[LABEL_COMPONENT];
    const container = (job as V1Job).spec?.template.spec?.containers[0];
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value]));
    const schema = env.DATABASE_SCHEMA ?? '';
    const image = this.imageOf(container?.image);
    if (component === 'migration') {
      const known = this.schemas.get(schema);
      const owner =
        image.version === undefined || (known?.owner_uid ?? null) !== null
          ? {}
          : { owner_uid: env.MIDDLEWARE_UID ?? null, owner_name: env.MIDDLEWARE_NAME ?? null };
      this.schemas.set(schema, {
        ...(known ?? { bytes: 2 ** 20, height: null, migrated: true }),
        ...owner,
        migration: image.newestMigration ?? known?.migration ?? null,
      });
    }
    // `mdw snapshot import` fills the empty schema with the snapshot's chain, recording its owner as a migration does
    if (component === 'restore')
      this.schemas.set(schema, {
        bytes: 2 ** 30,
        height: SNAPSHOT_TOP,
        migrated: true,
        migration: image.newestMigration ?? null,
        owner_uid: env.MIDDLEWARE_UID ?? null,
        owner_name: env.MIDDLEWARE_NAME ?? null,
      });
    if (component === 'drop-schema') this.schemas.delete(schema);
    if (component !== 'db-usage') return undefined;
    const args = container?.args ?? [];
    return this.report(args[args.indexOf('--schema-prefix') + 1] ?? '', image);
  }

  report(prefix: string, image: FakeImage = this.imageOf(undefined)): string {
    const identified = image.version !== undefined;
    const schemas = [...this.schemas.entries()]
      .map(([name, s]) => ({ name, generation: generationOfSchema(name, prefix), ...s }))
      .filter((s) => s.generation !== undefined)
      .sort((a, b) => (a.generation ?? 0) - (b.generation ?? 0))
      .map(({ migration, owner_uid, owner_name, ...s }) =>
        identified
          ? {
              ...s,
              migration: migration ?? null,
              owner_uid: owner_uid ?? null,
              owner_name: owner_name ?? null,
              network_id: null,
            }
          : s,
      );
    const databaseBytes = this.otherBytes + [...this.schemas.values()].reduce((n, s) => n + s.bytes, 0);
    return JSON.stringify({ ...image, databaseBytes, schemas });
  }

  imageOf(image: string | undefined): FakeImage {
    return this.images.get(image ?? '') ?? { version: '1.0.0', newestMigration: NEWEST_MIGRATION };
  }
}

/** completeJobWith plays the Job controller and the database for one Job that just succeeded. */
export function completeJobWith(kube: FakeKube, db: FakeDatabase, job: KubeObject): void {
  kube.completeJob(refOf(job), db.jobDone(job));
}

/** Harness wires a reconciler to a FakeKube, a manual clock and a scripted probe. */
export class Harness {
  readonly clock = new ManualClock();
  readonly kube = new FakeKube({ now: this.clock.now, crds: [buildCrd()] });
  readonly probe = new ScriptedProbe();
  readonly database = new FakeDatabase();
  /** logs are the operator's log lines at info and above, as pino writes them (parsed). */
  readonly logs: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  reconcile: Reconciler = this.newReconciler();

  /** newReconciler is a fresh operator process: no memory but what the cluster holds (a crash and restart). */
  newReconciler(kube: KubeClient = this.kube): Reconciler {
    return createReconciler({
      kube,
      log: pino({ level: 'info' }, { write: (line: string) => this.logs.push(JSON.parse(line) as never) }),
      probe: this.probe.probe,
      clock: this.clock.now,
      config: { image: IMAGE, home: HOME },
    });
  }

  /** crash replaces the reconciler by a fresh one. */
  crash(): void {
    this.reconcile = this.newReconciler();
  }

  /** apply creates the Middleware, its namespace and its database Secret, as the README's steps do. */
  async apply(mw: Middleware = exampleMiddleware()): Promise<Middleware> {
    const namespace = mw.metadata.namespace ?? 'default';
    const secret = mw.spec.database.urlSecretRef.name;
    const nsRef = { apiVersion: 'v1', kind: 'Namespace', name: namespace };
    if ((await this.kube.get(nsRef)) === undefined)
      await this.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    if ((await this.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: secret })) === undefined) {
      await this.kube.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secret, namespace },
        stringData: { url: 'postgres://mdw:secret@postgres.chain.svc:5432/mdw' },
      });
    }
    this.kube.clearRecords();
    return this.kube.create(mw);
  }

  /** adopt runs the first pass of a Middleware without status and answers its database check (nothing stored yet). */
  async adopt(): Promise<void> {
    await this.pass();
    this.completeJobs(Component.databaseUsage);
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
      completeJobWith(this.kube, this.database, job as never);
      done.push(job.metadata.name);
    }
    return done;
  }

  /** readyDeployments plays the Deployment controller: every Deployment reports all replicas available. */
  readyDeployments(): void {
    for (const d of this.deployments()) {
      const ready =
        d.status?.availableReplicas === d.spec?.replicas && d.status?.observedGeneration === d.metadata.generation;
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
    return [...new Set(items.map((o) => Number(o.metadata.labels?.[LABEL_GENERATION])))].sort((a, b) => a - b);
  }

  condition(type: string): { status: string; reason: string } | undefined {
    return this.middleware().status?.conditions?.find((c) => c.type === type);
  }

  eventReasons(): string[] {
    return this.kube.events.map((e) => e.reason ?? '');
  }
}

/** refusal is the KubeError a write is refused with; a write taken, or another error, fails the test. */
export async function refusal(write: () => Promise<unknown> | unknown): Promise<KubeError> {
  try {
    await write();
  } catch (err) {
    if (err instanceof KubeError) return err;
    throw err;
  }
  throw new Error('the API server took it');
}

/**
 * expectBoundsRefused patches `spec.<section>.<field>` of the Middleware to each value as a user would; the API server
 * must refuse each with a 422 naming the field and the bound the value crosses.
 */
export async function expectBoundsRefused(
  kube: FakeKube,
  [section, field]: readonly [string, string],
  cases: ReadonlyArray<readonly [number, string]>,
): Promise<void> {
  for (const [value, bound] of cases) {
    const refused = await refusal(() => kube.userPatch(MW_REF, { spec: { [section]: { [field]: value } } }));
    expect(refused.status, `${value}`).to.equal(422);
    expect(refused.message).to.contain(`spec.${section}.${field}: ${bound}`);
  }
}

/** WriteHook runs before each write through an InterceptingKube; throwing from it makes the write fail. */
export type WriteHook = (verb: string, ref: ObjectRef) => Promise<void> | void;

/**
 * InterceptingKube wraps a client and calls a hook before every write: to crash an operator at its
 * n-th write (the process dies: every later call fails too), or to let another replica run first.
 */
export class InterceptingKube implements KubeClient {
  readonly #inner: KubeClient;
  readonly #hook: WriteHook;
  constructor(inner: KubeClient, hook: WriteHook) {
    this.#inner = inner;
    this.#hook = hook;
  }
  get<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    return this.#inner.get(ref);
  }
  list<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    namespace?: string,
    options?: ListOptions,
  ): Promise<ListPage<T>> {
    return this.#inner.list(apiVersion, kind, namespace, options);
  }
  watch<T extends KubeObject>(
    request: WatchRequest,
    onEvent: (e: WatchEvent<T>) => void,
    onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle> {
    return this.#inner.watch(request, onEvent, onDone);
  }
  async apply<T extends KubeObject>(obj: T, fieldManager: string, options?: ApplyOptions): Promise<T> {
    await this.#hook('apply', refOf(obj));
    return this.#inner.apply(obj, fieldManager, options);
  }
  async create<T extends KubeObject>(obj: T): Promise<T> {
    await this.#hook('create', refOf(obj));
    return this.#inner.create(obj);
  }
  async replace<T extends KubeObject>(obj: T): Promise<T> {
    await this.#hook('replace', refOf(obj));
    return this.#inner.replace(obj);
  }
  async patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, resourceVersion?: string): Promise<T> {
    await this.#hook('patchStatus', ref);
    return this.#inner.patchStatus(ref, status, resourceVersion);
  }
  async patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T> {
    await this.#hook('patchMerge', ref);
    return this.#inner.patchMerge(ref, patch);
  }
  async delete(ref: ObjectRef, opts?: DeleteOptions): Promise<boolean> {
    await this.#hook('delete', ref);
    return this.#inner.delete(ref, opts);
  }
  async createEvent(event: CoreV1Event): Promise<void> {
    await this.#hook('createEvent', { apiVersion: 'v1', kind: 'Event', name: event.metadata.name ?? '' });
    return this.#inner.createEvent(event);
  }
}

/** crashingAt returns a hook that kills the process at write number n (1-based) of its life: that write and every later one fail. */
export function crashingAt(n: number): WriteHook & { readonly crashed: () => boolean } {
  let count = 0;
  const hook = (): void => {
    count++;
    if (count >= n) throw new KubeError(503, 'ServiceUnavailable', 'operator crashed');
  };
  return Object.assign(hook, { crashed: () => count >= n });
}
