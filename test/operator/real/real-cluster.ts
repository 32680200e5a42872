/**
 * @module The real tier's fixture: a real control plane (test/control-plane) with the chart installed by helm, so the
 * operator runs with the chart's ServiceAccount and RBAC; the devnode and a database for its Middlewares; and the
 * operator's log, read after each test for errors nobody expected. Without the built binaries the tier is skipped,
 * said in one line.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProxyAgent, fetch } from 'undici';
import { parse } from 'yaml';
import type { Devnode } from '../../../src/devnode/index.ts';
import { isKubeError, type KubeClient, type KubeObject } from '../../../src/operator/kube/client.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { CHECKOUT, IMAGE_REPOSITORY, IMAGE_TAG, startRealCluster } from '../../control-plane/cluster.ts';
import type { RealCluster } from '../../control-plane/cluster.ts';
import { controlPlaneBin } from '../../control-plane/control-plane.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { CHART, helm } from '../chart/helm.ts';
import { eventually as eventuallyEvery } from '../kube/contract.ts';

/** OPERATOR_NAMESPACE is where the chart is installed. */
export const OPERATOR_NAMESPACE = 'mdw-system';
/** INSTALL_VALUES are the values the chart is installed with (`--set`): the checkout's image, the debug log. */
export const INSTALL_VALUES = `image.repository=${IMAGE_REPOSITORY},image.tag=${IMAGE_TAG},logLevel=debug`;
/**
 * OPERATOR_USER is the operator's user as the API server (and its audit log) names it: the chart's ServiceAccount,
 * named after the release (mdw-operator) and the chart.
 */
export const OPERATOR_USER = `system:serviceaccount:${OPERATOR_NAMESPACE}:mdw-operator-aeternity-middleware-operator`;

/**
 * eventually is the contract's, looking again every 500 ms: the real tier's waits last seconds to minutes (pods start
 * as processes, a Lease runs out, a drain), and each look is a request to the API server: at every 20 ms, then 250 ms,
 * they were about a quarter of the requests a file's cluster served.
 */
export const eventually = (check: () => Promise<unknown>, timeoutMs?: number): Promise<void> =>
  eventuallyEvery(check, timeoutMs, 500);

/** realTier registers the suite when the control plane is built here, and says in one line that it skipped otherwise. */
export function realTier(title: string, suite: (this: Mocha.Suite) => void): void {
  if (controlPlaneBin() === undefined) {
    console.log(`${title}: skipped, no control plane built here (make control-plane)`);
    return;
  }
  describe(title, suite);
}

/** Installed is a cluster with the chart installed, a devnode and a database. */
export interface Installed {
  cluster: RealCluster;
  kube: KubeClient;
  devnode: Devnode;
  databaseUrl: string;
  helm(...args: string[]): Promise<string>;
  /** get reads a path of a Service (`name.namespace.svc:port`) as the pods reach it, through the service proxy. */
  get(url: string): Promise<{ status: number; body: string }>;
  /** operatorErrors are the error lines of every operator pod's log not matched by one of allowed. */
  operatorErrors(allowed?: RegExp[]): string[];
  /** operatorLog is every line of every operator pod's log, parsed (pino's JSON). */
  operatorLog(): LogLine[];
  /** audit is every request the API server completed, in order, from its audit log. */
  audit(): AuditEntry[];
  stop(): Promise<void>;
}

/** install starts a cluster, a devnode (generations of a generated chain) and a database, and installs the chart. */
export async function install(generations: number, values: string[] = []): Promise<Installed> {
  const cluster = await startRealCluster(controlPlaneBin() as string, { keep: process.env.KEEP_CLUSTER === '1' });
  const devnode = await startGeneratedDevnode({
    generations,
    microBlocksPerGeneration: 2,
    txsPerMicroBlock: 3,
    seed: 'real-tier',
  });
  const database = await createTestDatabase();
  const kubeconfig = cluster.plane.adminKubeconfig;
  const run = (...args: string[]) => helm('--kubeconfig', kubeconfig, ...args);
  await run(
    'install',
    'mdw-operator',
    CHART,
    '--namespace',
    OPERATOR_NAMESPACE,
    '--create-namespace',
    '--set',
    INSTALL_VALUES,
    ...values,
  );
  const proxy = new ProxyAgent(cluster.proxy.url);
  return {
    cluster,
    kube: createKubeClient(cluster.plane.kubeConfig()),
    devnode,
    databaseUrl: database.url,
    helm: run,
    get: async (url) => {
      const res = await fetch(url, { dispatcher: proxy, signal: AbortSignal.timeout(10_000) });
      return { status: res.status, body: await res.text() };
    },
    operatorErrors: (allowed = []) =>
      cluster.agent
        .podLogs(OPERATOR_NAMESPACE, 'mdw-operator')
        .flatMap(({ pod, log }) => errorLines(log).map((line) => `${pod}: ${line}`))
        .filter((line) => !allowed.some((re) => re.test(line))),
    operatorLog: () =>
      cluster.agent.podLogs(OPERATOR_NAMESPACE, 'mdw-operator').flatMap(({ log }) => jsonLines<LogLine>(log)),
    audit: () =>
      jsonLines<AuditEntry>(join(cluster.plane.dir, 'audit.log')).filter((e) => e.stage === 'ResponseComplete'),
    stop: async () => {
      await proxy.close();
      await cluster.stop();
      await devnode.stop();
      await database.drop();
    },
  };
}

/** LogLine is one line of pino's JSON log. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** AuditEntry is one request of the API server's audit log (level Metadata). */
export interface AuditEntry {
  stage: string;
  verb: string;
  user: { username: string };
  objectRef?: { resource?: string; namespace?: string; name?: string; subresource?: string };
  responseStatus?: { code?: number };
  /** when the stage was reached (RFC 3339, microseconds) */
  stageTimestamp: string;
}

/** refusal applies `mw`, which the API server must refuse as invalid (422), and gives the refusal's message. */
export async function refusal(c: Installed, mw: KubeObject): Promise<string> {
  const err = await c.kube.apply(mw, 'real-tier').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isKubeError(err, 422), `${mw.metadata.name}: ${String(err)}`).to.equal(true);
  return (err as Error).message;
}

/**
 * expectBoundsRefused applies in `namespace` the example Middleware with `spec.<section>.<field>` at each value, which
 * the API server must refuse (refusal), naming the field and the bound the value crosses.
 */
export async function expectBoundsRefused(
  c: Installed,
  namespace: string,
  [section, field]: readonly [string, string],
  cases: ReadonlyArray<readonly [number, string]>,
): Promise<void> {
  for (const [value, bound] of cases) {
    const bad = exampleMiddleware(c.devnode);
    bad.metadata = { name: `bad-${field.toLowerCase()}`, namespace };
    bad.spec[section] = { ...(bad.spec[section] as object), [field]: value };
    expect(await refusal(c, bad))
      .to.contain(`spec.${section}.${field}`)
      .and.to.contain(bound);
  }
}

/**
 * DRAIN_SECONDS is spec.promotion.switchDrainSeconds of the tier's Middlewares that reload: each reload waits its drain
 * out on the wall clock (the default's 30 s, an idle cluster the while), and expectDrainAfterSwitch judges any drain
 * from the audit log alike. 10 s, not less: the switch must fall within the drain after the promotion's pass started,
 * and a pass on a loaded machine can take seconds.
 */
export const DRAIN_SECONDS = 10;

/** Reloaded is what expectDrainAfterSwitch reads of a Middleware as the API server stored it. */
type Reloaded = KubeObject & {
  spec?: { promotion?: { switchDrainSeconds?: number } };
  status?: { reload?: { promotedAt?: string } };
};

/**
 * expectDrainAfterSwitch asserts, from the audit log, that the operator switched the stable Service `service` away
 * from the server Deployment `deployment` in the pass that recorded the promotion (`promotedAt`, that pass's start),
 * and deleted the Deployment no sooner than the Middleware's drain (spec.promotion.switchDrainSeconds) after it:
 * clients had the drain to follow the switch.
 */
export function expectDrainAfterSwitch(
  c: Installed,
  service: string,
  deployment: string,
  mw: Reloaded | undefined,
): void {
  const namespace = mw?.metadata.namespace;
  const drainMs = Number(mw?.spec?.promotion?.switchDrainSeconds) * 1000;
  expect(drainMs, 'the drain the Middleware asks for').to.be.above(0);
  const writes = c.audit().filter((e) => e.user.username === OPERATOR_USER && e.objectRef?.namespace === namespace);
  const deleted = writes.findIndex(
    (e) => e.verb === 'delete' && e.objectRef?.resource === 'deployments' && e.objectRef.name === deployment,
  );
  expect(deleted, `${deployment} deleted`).to.be.at.least(0);
  const switched = writes
    .slice(0, deleted)
    .findLast((e) => e.verb === 'patch' && e.objectRef?.resource === 'services' && e.objectRef.name === service);
  const promoted = Date.parse(String(mw?.status?.reload?.promotedAt));
  expect(Date.parse(String(switched?.stageTimestamp)), 'the switch').to.be.within(promoted, promoted + drainMs);
  const deletedMs = Date.parse((writes[deleted] as AuditEntry).stageTimestamp);
  expect(deletedMs - promoted, `${deployment} deleted after the promotion`).to.be.at.least(drainMs);
}

/** jsonLines parses every JSON line of a file (others skipped: a line still being written). */
function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as T];
      } catch {
        return [];
      }
    });
}

/** errorLines are the log's lines at level error or fatal (pino's JSON: level ≥ 50). */
function errorLines(file: string): string[] {
  return jsonLines<LogLine>(file)
    .filter((line) => line.level >= 50)
    .map((line) => JSON.stringify(line));
}

/** exampleMiddleware is examples/middleware.yaml pointed at the devnode, with the database Secret it names. */
export function exampleMiddleware(devnode: Devnode): KubeObject & { spec: Record<string, unknown> } {
  const mw = parse(readFileSync(`${CHECKOUT}/examples/middleware.yaml`, 'utf8')) as KubeObject & {
    spec: Record<string, unknown>;
  };
  mw.spec.nodeUrls = [devnode.externalUrl];
  mw.spec.nodeInternalUrl = devnode.internalUrl;
  return mw;
}

/** exampleNamespace applies namespace `ns` and in it the database Secret examples/middleware.yaml names (mdw-db). */
export async function exampleNamespace(c: Installed, ns: string): Promise<void> {
  await c.kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, 'real-tier');
  const secret = { name: 'mdw-db', namespace: ns };
  await c.kube.apply(
    { apiVersion: 'v1', kind: 'Secret', metadata: secret, stringData: { url: c.databaseUrl } },
    'real-tier',
  );
}

/** conditionOf is a condition's status of an object, or undefined. */
export function conditionOf(obj: KubeObject | undefined, type: string): string | undefined {
  const conditions = (obj?.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions;
  return conditions?.find((c) => c.type === type)?.status;
}
