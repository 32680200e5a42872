/**
 * @module Issue 43 item 4: the operator holds no Lease verb beyond its own namespace's leader Lease. Populators' writer
 * Leases are granted through a fixed ClusterRole the operator may `bind`; each RoleBinding it makes passes the API
 * server's escalation check (https://kubernetes.io/docs/reference/access-authn-authz/rbac/#privilege-escalation-prevention-and-bootstrapping):
 * the creator either holds every permission of the role it binds, or may `bind` that role.
 */
import { expect } from 'chai';
import type { V1PolicyRule, V1RoleBinding } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { buildManifests } from '../../../src/operator/specs/manifests.ts';
import { OPERATOR_NAME, WRITER_LEASE_ROLE } from '../../../src/operator/specs/rbac.ts';
import { renderChart } from '../chart/helm.ts';
import { Harness } from '../e2e/harness.ts';
import { aFullMiddleware, olderWriterLeaseBinding } from './fixtures.ts';

type Role = KubeObject & { rules?: V1PolicyRule[] };
type Binding = KubeObject & V1RoleBinding;
const RBAC = 'rbac.authorization.k8s.io';

/** Request is what the authorizer checks: a verb on a resource (of a group, maybe by name) in a namespace or cluster-wide. */
interface Request {
  group: string;
  resource: string;
  verb: string;
  name?: string;
  /** undefined: a cluster-scoped request (or one across all namespaces) */
  namespace?: string;
}

/** covers tells whether a rule allows the request, as the RBAC authorizer matches (wildcards included). */
function covers(rule: V1PolicyRule, r: Request): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  const named = rule.resourceNames === undefined || rule.resourceNames.length === 0;
  return (
    has(rule.apiGroups, r.group) &&
    has(rule.resources, r.resource) &&
    has(rule.verbs, r.verb) &&
    (named || (r.name !== undefined && rule.resourceNames!.includes(r.name)))
  );
}

/**
 * grantsOf lists the rules the objects give `account` for requests in `namespace` (undefined: cluster-wide ones only):
 * a ClusterRoleBinding's role applies everywhere, a RoleBinding's only in its own namespace.
 */
function grantsOf(objects: KubeObject[], account: { name: string; namespace: string }, namespace?: string) {
  const role = (kind: string, name: string, ns?: string) =>
    objects.find(
      (o) => o.kind === kind && o.metadata.name === name && (kind === 'ClusterRole' || o.metadata.namespace === ns),
    ) as Role | undefined;
  return (objects as Binding[])
    .filter((b) => b.kind === 'ClusterRoleBinding' || (b.kind === 'RoleBinding' && b.metadata.namespace === namespace))
    .filter((b) =>
      (b.subjects ?? []).some(
        (s) => s.kind === 'ServiceAccount' && s.name === account.name && s.namespace === account.namespace,
      ),
    )
    .flatMap((b) => role(b.roleRef.kind, b.roleRef.name, b.metadata.namespace)?.rules ?? []);
}

/** mayBind is the escalation check on creating `binding`: bind on its role, or every rule of that role already held. */
function mayBind(held: V1PolicyRule[], binding: Binding, bound: Role | undefined): boolean {
  const namespace = binding.metadata.namespace;
  const resource = binding.roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
  const bind: Request = { group: RBAC, resource, verb: 'bind', name: binding.roleRef.name, namespace };
  if (held.some((rule) => covers(rule, bind))) return true;
  if (bound === undefined) return false;
  return (bound.rules ?? []).every((rule) =>
    (rule.apiGroups ?? []).every((group) =>
      (rule.resources ?? []).every((res) =>
        rule.verbs.every((verb) => held.some((h) => covers(h, { group, resource: res, verb, namespace }))),
      ),
    ),
  );
}

const operator = { name: OPERATOR_NAME, namespace: 'mdw-system' };
const leaseVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const leaseRequests = (namespace?: string): Request[] =>
  leaseVerbs.map((verb) => ({ group: 'coordination.k8s.io', resource: 'leases', verb, namespace }));

describe('least privilege on Leases (issue 43 item 4)', function () {
  this.timeout(60_000);
  const installs: Array<{ name: string; objects: () => KubeObject[] }> = [];
  let chart: KubeObject[] = [];
  let chartScoped: KubeObject[] = [];
  before(async () => {
    [chart, chartScoped] = await Promise.all([
      renderChart('mdw-operator', 'mdw-system'),
      renderChart('mdw-operator', 'mdw-system', '--set', 'watchNamespace=chain'),
    ]);
  });
  installs.push(
    { name: '`mdw manifests`', objects: () => buildManifests({ namespace: 'mdw-system', image: 'mdw:1' }) },
    {
      name: '`mdw manifests` for one namespace',
      objects: () => buildManifests({ namespace: 'mdw-system', image: 'mdw:1', watchNamespace: 'chain' }),
    },
    { name: 'the chart', objects: () => chart },
    { name: 'the chart for one namespace', objects: () => chartScoped },
  );

  for (const install of installs) {
    it(`${install.name}: no Lease verb cluster-wide or in a Middleware's namespace, the leader Lease alone in its own`, () => {
      const objects = install.objects();
      const account = { ...operator, name: chartAccount(objects) };
      const allowed = (rules: V1PolicyRule[], requests: Request[]) =>
        requests.filter((r) => rules.some((rule) => covers(rule, r))).map((r) => r.verb);
      expect(allowed(grantsOf(objects, account), leaseRequests()), 'cluster-wide').to.deep.equal([]);
      expect(allowed(grantsOf(objects, account, 'chain'), leaseRequests('chain')), 'in chain').to.deep.equal([]);
      // in its own namespace: create (RBAC cannot name what is created), get and update of the leader Lease only
      const own = grantsOf(objects, account, 'mdw-system');
      expect(allowed(own, leaseRequests('mdw-system'))).to.deep.equal(['create']);
      const leader = leaseRequests('mdw-system').map((r) => ({ ...r, name: 'mdw-operator-leader' }));
      expect(allowed(own, leader).sort()).to.deep.equal(['create', 'get', 'update']);
    });

    it(`${install.name}: installs the writer-Lease ClusterRole the operator binds, and may bind nothing else`, () => {
      const objects = install.objects();
      const role = objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === WRITER_LEASE_ROLE) as Role;
      expect(role?.rules).to.deep.equal([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'update'] },
      ]);
      const account = { ...operator, name: chartAccount(objects) };
      const binds = grantsOf(objects, account, 'chain').filter((r) => (r.verbs ?? []).includes('bind'));
      expect(binds.map((r) => [r.resources, r.resourceNames])).to.deep.equal([[['clusterroles'], [WRITER_LEASE_ROLE]]]);
    });
  }

  it('every RoleBinding the reconciler makes passes the escalation check; the per-Middleware Role of before would not', async () => {
    const h = new Harness();
    await h.apply({ ...aFullMiddleware(), metadata: { name: 'mainnet', namespace: 'chain' } });
    await passes(h, 4);
    const install = buildManifests({ namespace: 'mdw-system', image: 'mdw:1' });
    const held = grantsOf(install, operator, 'chain');
    const made = (await h.kube.list<Binding>(`${RBAC}/v1`, 'RoleBinding', 'chain')).items;
    expect(made.map((b) => b.roleRef)).to.deep.equal([
      { apiGroup: RBAC, kind: 'ClusterRole', name: WRITER_LEASE_ROLE },
    ]);
    for (const binding of made) {
      const bound = install.find((o) => o.kind === 'ClusterRole' && o.metadata.name === binding.roleRef.name) as Role;
      expect(mayBind(held, binding, bound), binding.metadata.name).to.equal(true);
    }
    // the check can fail: a binding to a Role granting Lease verbs, which the operator no longer holds
    const leaseRole: Role = {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'mainnet-mdw', namespace: 'chain' },
      rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] }],
    };
    expect(mayBind(held, olderWriterLeaseBinding(h.middleware()) as Binding, leaseRole)).to.equal(false);
  });

  it('an upgrade prunes the binding an older version made, and binds the ServiceAccount to the ClusterRole', async () => {
    const h = new Harness();
    await h.apply();
    const older = olderWriterLeaseBinding(h.middleware());
    await h.kube.create(older);
    await passes(h, 4);
    const bindings = (await h.kube.list<Binding>(`${RBAC}/v1`, 'RoleBinding', 'chain')).items;
    expect(bindings.map((b) => b.metadata.name)).not.to.include(older.metadata.name);
    expect(bindings.map((b) => [b.roleRef.name, b.subjects?.[0]?.name])).to.deep.equal([
      [WRITER_LEASE_ROLE, (older as Binding).subjects?.[0]?.name],
    ]);
  });
});

/** passes reconciles n times, playing the Job and Deployment controllers between passes. */
async function passes(h: Harness, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await h.pass();
    h.completeJobs();
    h.readyDeployments();
  }
}

/** chartAccount is the operator's ServiceAccount name in an install (the chart names it after the release). */
function chartAccount(objects: KubeObject[]): string {
  return objects.find((o) => o.kind === 'ServiceAccount')?.metadata.name ?? OPERATOR_NAME;
}
