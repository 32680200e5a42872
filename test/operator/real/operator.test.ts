/**
 * @module The operator on a real control plane (issue 75): the chart installed by helm with its own RBAC, the
 * operator leading with its ServiceAccount's token, the rendered chart applied again by a second field manager,
 * examples/middleware.yaml serving the devnode's chain through its server, no write for an unchanged Middleware whose
 * quantities are not canonical, a namespace deletion whose kept schemas are findable, drift put back, leader
 * failover; Middlewares starting from a snapshot (snapshot.ts); a blue/green reload of each at
 * once, promoted; a helm upgrade, deletion with garbage collection, a snapshot of another network refused; and helm
 * uninstall. One cluster for the whole tier, its steps in order (a cluster's start, its chart and operator pods, is
 * about 9 CPU-s: the snapshot steps had one of their own); the operator's log is read after each for errors nobody
 * expected.
 */
import { expect } from 'chai';
import { KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import type { V1Deployment, V1Pod, V1Service } from '@kubernetes/client-node';
import { parseJson } from '../../../src/chain/json.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { LEADER_LEASE_NAME } from '../../../src/operator/specs/rbac.ts';
import { LABEL_GENERATION } from '../../../src/operator/specs/meta.ts';
import { CANONICAL } from '../api/canonical-quantities.ts';
import { CHART, renderChart } from '../chart/helm.ts';
import {
  INSTALL_VALUES,
  OPERATOR_NAMESPACE,
  OPERATOR_USER,
  conditionOf,
  eventually,
  DRAIN_SECONDS,
  expectDrainAfterSwitch,
  expectBoundsRefused,
  exampleMiddleware,
  exampleNamespace,
  install,
  realTier,
} from './real-cluster.ts';
import type { Installed } from './real-cluster.ts';
import { snapshotSteps } from './snapshot.ts';

const NS = 'chain';
const MW: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: NS, name: 'mainnet' };
const LEASE: ObjectRef = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespace: OPERATOR_NAMESPACE,
  name: LEADER_LEASE_NAME,
};
const GENERATIONS = 12;

/** ObjectPaths finds an object's URL path through the API server's discovery. */
class ObjectPaths extends KubernetesObjectApi {
  of(obj: KubeObject): Promise<string> {
    return this.specUriPath(obj, 'patch');
  }
}
type Status = { activeGeneration?: number; height?: number; reload?: { state?: string; promotedAt?: string } };

realTier('the operator on a real control plane', function () {
  this.timeout(120_000);
  let c: Installed;
  const example = operatorSteps(() => c);
  const fromSnapshot = snapshotSteps(() => c);

  before(async function () {
    this.timeout(240_000);
    c = await install(GENERATIONS);
  });
  after(async () => {
    await fromSnapshot.stop();
    await c?.stop();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') return;
    expect(c.operatorErrors(), 'the operator logged errors').to.deep.equal([]);
  });

  describe('a Middleware from examples/middleware.yaml', example.serving);
  describe('a Middleware starting from a snapshot', fromSnapshot.restoring);
  // Each reload ends with the drain of its old servers (spec.promotion.switchDrainSeconds): one after the other, the
  // cluster idled through two of them (about 0.1 CPU-s a second, some 6 CPU-s in all at the default 30 s); at once,
  // their drains overlap.
  describe('two blue/green reloads at once: the example reindexed, the snapshot Middleware restored again', () => {
    before(async () => {
      await example.requestReload();
      await fromSnapshot.requestReload();
    });
    example.reloaded();
    fromSnapshot.reloaded();
  });
  describe('after the reloads', () => {
    example.upgradedAndDeleted();
    fromSnapshot.otherNetwork();
  });
  describe('helm uninstall', () => {
    it('uninstalls with helm: the operator goes, the CRD stays', async () => {
      await c.helm('uninstall', 'mdw-operator', '--namespace', OPERATOR_NAMESPACE);
      await eventually(async () => {
        const pods = await c.kube.list<KubeObject>('v1', 'Pod', OPERATOR_NAMESPACE);
        expect(pods.items).to.have.length(0);
      }, 60_000);
      const crd = await c.kube.get({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'middlewares.middleware.aeternity.io',
      });
      expect(crd).to.not.equal(undefined);
    });
  });
});

/**
 * operatorSteps are the steps of the operator itself, on the cluster `installed` gives: from the chart's pods to the
 * failover (serving), the example Middleware's blue/green reload (requested by requestReload, judged by the step
 * reloaded registers), then a helm upgrade and the Middleware's deletion (upgradedAndDeleted), in that order.
 */
function operatorSteps(installed: () => Installed): {
  serving: (this: Mocha.Suite) => void;
  requestReload: () => Promise<void>;
  reloaded: () => void;
  upgradedAndDeleted: () => void;
} {
  let c: Installed;
  let top: number;
  const middleware = async () => c.kube.get<KubeObject & { status?: Status }>(MW);
  const holder = async () => (await c.kube.get<KubeObject & { spec?: { holderIdentity?: string } }>(LEASE))?.spec;

  const serving = function (this: Mocha.Suite): void {
    before(async () => {
      c = installed();
      const current = await fetch(`${c.devnode.externalUrl}/v2/key-blocks/current/height`);
      top = ((await current.json()) as { height: number }).height;
    });

    it('runs the chart: the CRD is established and one of two operator replicas leads with the chart RBAC', async () => {
      await eventually(async () => expect((await holder())?.holderIdentity).to.match(/^mdw-operator-/), 60_000);
      const operators = await c.kube.list<KubeObject>('v1', 'Pod', OPERATOR_NAMESPACE);
      expect(operators.items.filter((p) => p.metadata.name?.startsWith('mdw-operator-'))).to.have.length(2);
    });

    // issue 89 item 1: a field the API server defaults inside an atomic struct (fieldRef's apiVersion) is helm's: a second
    // manager applying the chart's own manifest conflicted with it (409)
    it('takes the rendered chart from a second field manager: a server-side dry-run apply conflicts with nothing', async () => {
      const objects = await renderChart('mdw-operator', OPERATOR_NAMESPACE, '--set', INSTALL_VALUES);
      const paths = c.cluster.plane.kubeConfig().makeApiClient(ObjectPaths);
      const refused: string[] = [];
      for (const obj of objects) {
        // the manifest as it is sent (the client's typed serializer would drop a CRD's x-kubernetes-* fields)
        const path = await paths.of(obj);
        try {
          await c.cluster.rest.call(
            'PATCH',
            `${path}?fieldManager=gitops&dryRun=All`,
            obj,
            PatchStrategy.ServerSideApply,
          );
        } catch (err) {
          refused.push(`${obj.kind} ${obj.metadata.name ?? ''}: ${(err as Error).message}`);
        }
      }
      expect(objects.map((o) => o.kind)).to.include.members(['Deployment', 'CustomResourceDefinition', 'ClusterRole']);
      expect(refused).to.deep.equal([]);
    });

    it('stores quantities in the canonical form the operator compares with', async () => {
      // a dry run: the API server decodes, defaults and answers the pod it would store, and stores nothing
      const pod = await c.cluster.rest.call<V1Pod>('POST', `/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods?dryRun=All`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'quantities' },
        spec: {
          containers: CANONICAL.map(([written], i) => ({
            name: `c${i}`,
            image: 'none',
            resources: { requests: { cpu: written } },
          })),
        },
      });
      const stored = pod.spec?.containers.map((container) => container.resources?.requests?.cpu);
      expect(stored).to.deep.equal(CANONICAL.map(([, canonical]) => canonical));
    });

    it('serves the devnode chain from examples/middleware.yaml: migration Job, populator, server, conditions true', async () => {
      await exampleNamespace(c, NS);
      const mw = exampleMiddleware(c.devnode);
      mw.spec.promotion = { syncedWithinBlocks: 3, stableWindowSeconds: 5, switchDrainSeconds: DRAIN_SECONDS };
      // quantities as people write them, which the API server stores otherwise in the children: 500m, 1Gi. One server,
      // not the example's two: no step needs a second (the drift put back is to the spec's count, the drain after the
      // switch is judged on the Deployment), and each is a process of its own, about 2 CPU-s a generation
      mw.spec.server = {
        ...(mw.spec.server as object),
        replicas: 1,
        resources: { requests: { cpu: '0.5', memory: '512Mi' }, limits: { memory: '1024Mi' } },
      };
      // the generated chain's blocks are stamped long ago: a status that judged their age would never say synced
      mw.spec.statusMaxBlockAge = 1_000_000_000;
      await c.kube.apply(mw, 'real-tier');
      await eventually(async () => {
        const m = await middleware();
        expect(conditionOf(m, 'MigrationsApplied'), 'MigrationsApplied').to.equal('True');
        expect(conditionOf(m, 'Available'), 'Available').to.equal('True');
        expect(conditionOf(m, 'Synced'), 'Synced').to.equal('True');
        expect(m?.status?.height).to.equal(top);
      }, 110_000);
      const status = await c.get('http://mainnet.chain.svc:80/mdw/v3/status');
      expect(status.status).to.equal(200);
      const served = JSON.parse(status.body) as { mdw_height: number; node_height: number };
      expect(served.mdw_height).to.equal(top);
      const keyBlock = await c.get(`http://mainnet.chain.svc:80/v2/key-blocks/height/${top}`);
      const nodeBlock = await fetch(`${c.devnode.externalUrl}/v2/key-blocks/height/${top}`);
      // the same block, digit for digit (the nonce is above 2^53), whatever the order of its keys
      expect(parseJson(keyBlock.body)).to.deep.equal(parseJson(await nodeBlock.text()));
    });

    it('defaults spec.server.shutdownDelaySeconds to 5 s, and refuses one outside 0–600 s naming the field', async () => {
      const mw = await c.kube.get<KubeObject & { spec: { server: { shutdownDelaySeconds?: number } } }>(MW);
      expect(mw?.spec.server.shutdownDelaySeconds).to.equal(5);
      const server = await c.kube.get<V1Deployment & KubeObject>({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: NS,
        name: 'mainnet-server-g1',
      });
      const pod = server?.spec?.template.spec;
      expect(pod?.containers[0]?.env?.find((e) => e.name === 'SHUTDOWN_DELAY_MS')?.value).to.equal('5000');
      expect(pod?.terminationGracePeriodSeconds).to.equal(45);
      await expectBoundsRefused(
        c,
        NS,
        ['server', 'shutdownDelaySeconds'],
        [
          [601, 'should be less than or equal to 600'],
          [-1, 'should be greater than or equal to 0'],
        ],
      );
    });

    it('refuses spec.promotion.switchDrainSeconds outside 1–3600 s naming the field, as the fake API server does', async () => {
      await expectBoundsRefused(
        c,
        NS,
        ['promotion', 'switchDrainSeconds'],
        [
          [0, 'should be greater than or equal to 1'],
          [3601, 'should be less than or equal to 3600'],
        ],
      );
    });

    // issue 89 item 2: "0.5" stored as "500m" was drift on every pass, so every pass wrote
    it('writes nothing in six passes over the unchanged Middleware whose cpu is "0.5"', async function () {
      this.timeout(90_000);
      const server = await c.kube.get<V1Deployment & KubeObject>({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: NS,
        name: 'mainnet-server-g1',
      });
      expect(server?.spec?.template.spec?.containers[0]?.resources).to.deep.equal({
        requests: { cpu: '500m', memory: '512Mi' },
        limits: { memory: '1Gi' },
      });
      // the minute starts once the operator has nothing left to converge: a server's readiness still coming back on a
      // loaded machine (Degraded True, its message moving) is status to write, not drift
      await eventually(async () => {
        const m = await middleware();
        for (const [type, status] of [
          ['Available', 'True'],
          ['Synced', 'True'],
          ['Degraded', 'False'],
        ] as const)
          expect(conditionOf(m, type), type).to.equal(status);
      }, 60_000);
      const from = c.audit().length;
      const isMiddleware = (e: { objectRef?: { resource?: string; name?: string } }) =>
        e.objectRef?.resource === 'middlewares' && e.objectRef.name === MW.name;
      // each change of an annotation is a watch event, so a reconcile pass, which reads the Middleware first. A pass
      // takes well under a second: 3 s apart, each is a pass of its own (the operator's queue merges only a key
      // already waiting), and the drift that wrote did so on every pass. Ten seconds apart, the minute cost the
      // cluster's idle CPU (about 0.1 CPU-s a second) for nothing a pass needed.
      for (let i = 0; i < 6; i++) {
        await c.kube.patchMerge(MW, { metadata: { annotations: { 'example.com/touched': String(i) } } });
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
      const requests = c
        .audit()
        .slice(from)
        .filter((e) => e.user.username === OPERATOR_USER);
      const passes = requests.filter(
        (e) => e.verb === 'get' && isMiddleware(e) && e.objectRef?.subresource === undefined,
      );
      expect(passes.length, 'reconcile passes').to.be.at.least(6);
      const writes = requests.filter(
        (e) => !['get', 'list', 'watch'].includes(e.verb) && e.objectRef?.resource !== 'leases',
      );
      // A condition that changed in the minute is news the operator must write and announce: each such change is one
      // status write and one Event. One slow status answer is not such a change (Synced needs three unanswered probes in
      // a row, PROBE_FAILURE_THRESHOLD), but a server's readiness lost on CI's two loaded cores is (Available). Anything
      // else, or more than one condition going and coming back, is a write for nothing.
      const created = new Set(writes.filter((e) => e.objectRef?.resource === 'events').map((e) => e.objectRef?.name));
      const events = (await c.kube.list<KubeObject & { message?: string }>('v1', 'Event', NS)).items.filter((e) =>
        created.has(e.metadata.name),
      );
      const transitions = events.filter((e) =>
        /^(Available|Synced|Degraded|MigrationsApplied) is /.test(e.message ?? ''),
      );
      const statusWrites = writes.filter((e) => isMiddleware(e) && e.objectRef?.subresource === 'status');
      const unexplained = writes
        .filter((e) => !statusWrites.includes(e) && e.objectRef?.resource !== 'events')
        .concat(statusWrites.slice(transitions.length))
        .map(
          (e) =>
            `${e.verb} ${e.objectRef?.resource ?? ''}/${e.objectRef?.subresource ?? ''} ${e.objectRef?.name ?? ''}`,
        );
      const messages = events.map((e) => e.message ?? '');
      expect(unexplained, `writes beside the Events ${JSON.stringify(messages)}`).to.deep.equal([]);
      expect(transitions, `only condition changes are announced: ${JSON.stringify(messages)}`).to.have.length(
        events.length,
      );
      expect(transitions.length, `one transient at most: ${JSON.stringify(messages)}`).to.be.at.most(2);
    });

    // issue 89 item 3: a namespace being deleted refuses the Event on the Middleware, so the kept schemas were said nowhere
    it('names the schemas it keeps when a namespace is deleted: in its log at info and in its own namespace', async () => {
      const doomed = 'doomed';
      const ref: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: doomed, name: 'spare' };
      await c.kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: doomed } }, 'real-tier');
      const mw = exampleMiddleware(c.devnode);
      mw.metadata = { name: 'spare', namespace: doomed };
      mw.spec.paused = true;
      await c.kube.apply(mw, 'real-tier');
      await eventually(async () => expect((await c.kube.get(ref))?.metadata.finalizers).to.have.length(1), 30_000);
      // a paused Middleware that served generation 1 (its status written by hand: pausing keeps it as it is)
      await c.kube.patchStatus(ref, { activeGeneration: 1, schemaPrefix: 'spare_g' });
      await c.cluster.rest.call('DELETE', `/api/v1/namespaces/${doomed}`);
      await eventually(async () => {
        const ns = await c.kube.get({ apiVersion: 'v1', kind: 'Namespace', name: doomed });
        expect(ns, 'the namespace is gone').to.equal(undefined);
      }, 60_000);
      const said = c.operatorLog().find((l) => l.msg.startsWith('schemas retained') && l.name === 'spare');
      expect(said).to.deep.include({ level: 30, namespace: doomed, schemas: ['spare_g1'] });
      const events = await c.kube.list<KubeObject & { reason?: string; message?: string }>(
        'v1',
        'Event',
        OPERATOR_NAMESPACE,
      );
      const retained = events.items.filter((e) => e.reason === 'SchemasRetained');
      expect(retained.map((e) => e.message)).to.deep.equal([
        `Middleware ${doomed}/spare: reclaimPolicy is Retain: the schemas spare_g1 are kept; drop them by hand when no longer needed`,
      ]);
    });

    it('puts back a Deployment edited by hand', async () => {
      const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name: 'mainnet-server-g1' };
      await c.kube.patchMerge(ref, { spec: { replicas: 5 } });
      await eventually(
        async () => expect((await c.kube.get<V1Deployment & KubeObject>(ref))?.spec?.replicas).to.equal(1),
        30_000,
      );
    });

    it('hands leadership over when the leader dies: the other replica leads once the lease runs out', async () => {
      const before = (await holder())?.holderIdentity as string;
      const started = Date.now();
      c.cluster.agent.freeze(OPERATOR_NAMESPACE, before);
      await eventually(async () => {
        const now = (await holder())?.holderIdentity;
        expect(now).to.match(/^mdw-operator-/);
        expect(now).to.not.equal(before);
      }, 40_000);
      // the Lease lasts 15 s, then a standby's next try (2 s, plus jitter) takes it
      expect(Date.now() - started).to.be.below(25_000);
      // the dead pod stays, as on a node that hangs, until the helm upgrade below rolls it away with the others: a
      // replacement now would be one more operator process started (about 2 CPU-s) for no step
    });
  };

  const requestReload = async (): Promise<void> => {
    await c.kube.patchMerge(MW, {
      spec: { reload: { id: 'reindex-1', strategy: 'BlueGreen', autoPromote: true, retainPrevious: '0s' } },
    });
  };

  const reloaded = (): void => {
    it('reloads blue/green to promotion: generation 2 built beside 1, the stable Service moved, 1 retired after its drain', async function () {
      // the drain of generation 1's servers after the switch (spec.promotion.switchDrainSeconds) comes on top of the reload
      this.timeout(120_000 + DRAIN_SECONDS * 1000);
      await eventually(
        async () => {
          const m = await middleware();
          expect(m?.status?.reload?.state).to.equal('Completed');
          expect(m?.status?.activeGeneration).to.equal(2);
        },
        115_000 + DRAIN_SECONDS * 1000,
      );
      expectDrainAfterSwitch(c, 'mainnet', 'mainnet-server-g1', await middleware());
      const stable = await c.kube.get<V1Service & KubeObject>({
        apiVersion: 'v1',
        kind: 'Service',
        namespace: NS,
        name: 'mainnet',
      });
      expect(stable?.spec?.selector?.[LABEL_GENERATION]).to.equal('2');
      const status = await c.get('http://mainnet.chain.svc:80/mdw/v3/status');
      expect((JSON.parse(status.body) as { mdw_height: number }).mdw_height).to.equal(top);
    });
  };

  const upgradedAndDeleted = (): void => {
    it('upgrades with helm: the operator pods roll, a new one leads, the Middleware stays Available', async () => {
      const before = await c.kube.list<KubeObject>('v1', 'Pod', OPERATOR_NAMESPACE);
      const old = new Set(before.items.map((p) => p.metadata.name));
      // to one replica: the failover is proven above, and a standby for the steps after would be one more operator
      // process started (about 2 CPU-s) to ask for the Lease every 2 s
      await c.helm(
        'upgrade',
        'mdw-operator',
        CHART,
        '--namespace',
        OPERATOR_NAMESPACE,
        '--reuse-values',
        '--set',
        'logLevel=info,replicaCount=1',
      );
      await eventually(async () => {
        const leader = (await holder())?.holderIdentity;
        expect(leader).to.match(/^mdw-operator-/);
        expect(old.has(leader), 'a pod of the upgrade leads').to.equal(false);
      }, 90_000);
      expect(conditionOf(await middleware(), 'Available')).to.equal('True');
    });

    it('deletes the Middleware: the finalizer runs, the garbage collector removes every child', async () => {
      await c.kube.delete(MW);
      await eventually(async () => expect(await middleware()).to.equal(undefined), 110_000);
      await eventually(async () => {
        const deployments = await c.kube.list<KubeObject>('apps/v1', 'Deployment', NS);
        expect(deployments.items.map((d) => d.metadata.name)).to.deep.equal([]);
      }, 60_000);
    });
  };

  return { serving, requestReload, reloaded, upgradedAndDeleted };
}
