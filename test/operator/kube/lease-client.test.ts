/**
 * @module The writer Lease's own client (lease-client.ts, lease-access.ts): the populator's writer Lease over HTTPS with
 * a bearer token, against FakeKube's REST front, and the kubeconfigs it reads itself or leaves to the full client.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import pino from 'pino';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { isKubeError, type KubeObject, type LeaseKube } from '../../../src/operator/kube/client.ts';
import { createLeaseClient } from '../../../src/operator/kube/lease-client.ts';
import { kubeconfigAccess, leaseAccess } from '../../../src/operator/kube/lease-access.ts';
import { holdWriterLease } from '../../../src/cli/writer-lease.ts';
import type { Role } from '../../../src/base/roles.ts';
import { startFakeApiServer } from './fake-apiserver.ts';
import { startHangingProxy } from './hanging-proxy.ts';

const log = pino({ level: 'silent' });
const CA = fileURLToPath(new URL('../../support/tls/localhost.crt', import.meta.url));
const LEASES = [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases' }];
const TOKEN = 'writer-token';

/** an HTTPS front of the fake API server that answers 401 to a request without the bearer token */
async function startTlsFront(target: string): Promise<{ url: string; server: Server }> {
  const key = readFileSync(new URL('../../support/tls/localhost.key', import.meta.url));
  const server = createServer({ cert: readFileSync(CA), key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }));
        return;
      }
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
      void fetch(`${target}${req.url}`, { method: req.method!, headers, ...(body ? { body } : {}) }).then(
        async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the writer Lease over its own client (lease-client.ts)', function () {
  this.timeout(20_000);
  let api: { url: string; stop(): Promise<void> };
  let front: { url: string; server: Server };
  let kube: FakeKube;

  before(async () => {
    kube = new FakeKube();
    api = await startFakeApiServer(kube, LEASES);
    front = await startTlsFront(api.url);
  });
  after(async () => {
    front.server.closeAllConnections();
    await new Promise((resolve) => front.server.close(resolve));
    await api.stop();
  });

  const client = (token = TOKEN): LeaseKube =>
    createLeaseClient({ server: front.url, ca: { file: CA }, token: { data: Buffer.from(token) } }, 5_000);

  it('lets one populator write at a time over HTTPS with a bearer token, and hands over when it stops', async () => {
    const writing: string[] = [];
    const role = (id: string): Promise<Role> => {
      writing.push(id);
      return Promise.resolve({ name: id, stop: async () => void writing.splice(writing.indexOf(id), 1) });
    };
    const timings = { leaseDurationMs: 600, renewDeadlineMs: 400, retryPeriodMs: 50 };
    const hold = (id: string) =>
      holdWriterLease({
        kube: client(),
        namespace: 'mdw',
        name: 'handover',
        identity: `pod-${id}`,
        log,
        start: () => role(id),
        onLost: () => {},
        timings,
      });
    const first = await hold('a');
    let secondStarted = false;
    const second = hold('b').then((r) => {
      secondStarted = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(secondStarted).to.equal(false);
    expect(writing).to.deep.equal(['a']);
    const held = kube.peek<KubeObject & { spec: { holderIdentity: string; renewTime: string } }>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: 'mdw',
      name: 'handover',
    });
    expect(held?.spec.holderIdentity).to.equal('pod-a');
    // the API server reads a Lease's times as MicroTime, six fractional digits
    expect(held?.spec.renewTime).to.match(/\.\d{6}Z$/);
    await first.stop();
    const b = await second;
    expect(writing).to.deep.equal(['b']);
    await b.stop();
  });

  it("gives the port's answers: absent, created, a stale resourceVersion's 409, a missing token's 401", async () => {
    const ref = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'mdw', name: 'answers' };
    const lease = { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: 'mdw' } };
    const c = client();
    expect(await c.get(ref)).to.equal(undefined);
    const created = await c.create<KubeObject>({ ...lease, spec: { holderIdentity: 'x' } });
    expect(created.metadata.creationTimestamp).to.be.instanceOf(Date);
    const taken = await c.create<KubeObject>(lease).catch((err: unknown) => err);
    expect(isKubeError(taken, 409) && taken.reason).to.equal('AlreadyExists');
    const replaced = await c.replace<KubeObject>({ ...created, spec: { holderIdentity: 'y' } });
    expect((await c.get<KubeObject>(ref))?.spec).to.deep.equal({ holderIdentity: 'y' });
    const stale = await c.replace({ ...created, spec: { holderIdentity: 'z' } }).catch((err: unknown) => err);
    expect(isKubeError(stale, 409) && stale.reason).to.equal('Conflict');
    expect(replaced.metadata.resourceVersion).to.not.equal(created.metadata.resourceVersion);
    const refused = await client('wrong')
      .get(ref)
      .catch((err: unknown) => err);
    expect(isKubeError(refused, 401)).to.equal(true);
  });

  it("ends a request unanswered at its deadline, or at its caller's signal", async () => {
    const proxy = await startHangingProxy(api.url);
    try {
      proxy.hang(() => true);
      const ref = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'mdw', name: 'hung' };
      const bounded = createLeaseClient({ server: proxy.url }, 300);
      const late = await bounded.get(ref).catch((err: unknown) => err);
      expect(isKubeError(late, 0) && late.reason).to.equal('Timeout');
      const patient = createLeaseClient({ server: proxy.url }, 60_000);
      const cancelled = await patient.get(ref, { signal: AbortSignal.timeout(300) }).catch((err: unknown) => err);
      expect(isKubeError(cancelled, 0) && cancelled.message).to.match(/^get: cancelled/);
    } finally {
      await proxy.stop();
    }
  });
});

describe('leaseAccess(kubeconfig, env)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lease-access-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const kubeconfig = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) => ({
    'current-context': 'c',
    contexts: [
      { name: 'other', context: { cluster: 'nowhere', user: 'nobody' } },
      { name: 'c', context: { cluster: 'k', user: 'u', namespace: 'mdw' } },
    ],
    clusters: [
      { name: 'k', cluster: { server: 'https://k8s.example:6443/', 'certificate-authority': 'ca.crt', ...cluster } },
    ],
    users: [{ name: 'u', user }],
  });

  it("reads the current context's server, CA (relative to the file), token and client certificate", () => {
    const access = kubeconfigAccess(
      kubeconfig({ token: 't', 'client-certificate-data': Buffer.from('cert').toString('base64') }),
      dir,
    );
    expect(access).to.deep.equal({
      server: 'https://k8s.example:6443',
      ca: { file: join(dir, 'ca.crt') },
      cert: { data: Buffer.from('cert') },
      token: { data: Buffer.from('t') },
    });
    const insecure = kubeconfigAccess(kubeconfig({ 'token-file': '/t' }, { 'insecure-skip-tls-verify': true }), dir);
    expect(insecure).to.deep.include({ rejectUnauthorized: false, token: { file: '/t' } });
  });

  it('leaves to the full client a user it does not read: exec, auth provider, password; a proxy; plain HTTP', () => {
    expect(kubeconfigAccess(kubeconfig({ exec: { command: 'aws' } }), dir)).to.equal(undefined);
    expect(kubeconfigAccess(kubeconfig({ 'auth-provider': { name: 'oidc' } }), dir)).to.equal(undefined);
    expect(kubeconfigAccess(kubeconfig({ username: 'u', password: 'p' }), dir)).to.equal(undefined);
    expect(kubeconfigAccess(kubeconfig({ token: 't' }, { 'proxy-url': 'http://p:3128' }), dir)).to.equal(undefined);
    // plain HTTP, which client-node refuses unless the certificate check is skipped
    expect(kubeconfigAccess(kubeconfig({ token: 't' }, { server: 'http://k8s:8080' }), dir)).to.equal(undefined);
    const skip = { server: 'http://k8s:8080', 'insecure-skip-tls-verify': true };
    expect(kubeconfigAccess(kubeconfig({ token: 't' }, skip), dir)?.server).to.equal('http://k8s:8080');
    expect(kubeconfigAccess({ ...kubeconfig({ token: 't' }), 'current-context': 'gone' }, dir)).to.equal(undefined);
  });

  it('takes KUBECONFIG, else ~/.kube/config, else the service account; else the full client', async () => {
    const file = join(dir, 'config');
    writeFileSync(file, JSON.stringify(kubeconfig({ token: 't' })));
    expect((await leaseAccess(file, {}, dir))?.server).to.equal('https://k8s.example:6443');
    expect(await leaseAccess(join(dir, 'missing'), {}, dir)).to.equal(undefined);
    const account = join(dir, 'account');
    const env = { HOME: join(dir, 'home'), KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    expect(await leaseAccess(undefined, env, account)).to.equal(undefined);
    writeFileSync(join(dir, 'token'), 'sa');
    expect(await leaseAccess(undefined, env, dir)).to.deep.equal({
      server: 'https://[fd00::1]:443',
      ca: { file: join(dir, 'ca.crt') },
      token: { file: join(dir, 'token') },
    });
  });
});
