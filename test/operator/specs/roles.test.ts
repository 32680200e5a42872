/** @module Behaviour of the builders that users rely on: commands, env, scaling, switching, security. */
import { expect } from 'chai';
import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import type { MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { buildServerDeployment } from '../../../src/operator/specs/server-deployment.ts';
import { buildPopulatorDeployment } from '../../../src/operator/specs/populator-deployment.ts';
import {
  buildDatabaseUsageJob,
  buildDropSchemaJob,
  buildMigrationJob,
  buildReloadJob,
} from '../../../src/operator/specs/jobs.ts';
import {
  buildPopulatorService,
  buildPreviewService,
  buildStableService,
  selectedGeneration,
} from '../../../src/operator/specs/services.ts';
import { buildServiceMonitor } from '../../../src/operator/specs/service-monitor.ts';
import { buildServerPdb } from '../../../src/operator/specs/server-pdb.ts';
import { buildServerHpa } from '../../../src/operator/specs/server-hpa.ts';
import { buildIngress } from '../../../src/operator/specs/ingress.ts';
import { createBuildContext, selectorFor } from '../../../src/operator/specs/meta.ts';
import { managedEnvProblem } from '../../../src/operator/api/spec-fields.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { aFullMiddleware, aMiddleware, contextOf } from './fixtures.ts';

const envOf = (t: V1PodTemplateSpec | undefined) =>
  Object.fromEntries((t?.spec?.containers[0]?.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
const argsOf = (t: V1PodTemplateSpec | undefined) => t?.spec?.containers[0]?.args;

describe('server Deployment', () => {
  it('runs `mdw -s` with spec.server.replicas (default 2), or the replicas the caller gives', () => {
    const ctx = contextOf(aMiddleware());
    expect(argsOf(buildServerDeployment(ctx, 1).spec?.template)).to.deep.equal(['-s']);
    expect(buildServerDeployment(ctx, 1).spec?.replicas).to.equal(2);
    expect(buildServerDeployment(contextOf(aMiddleware({ server: { replicas: 0 } })), 1).spec?.replicas).to.equal(0);
    expect(buildServerDeployment(ctx, 1, 5).spec?.replicas).to.equal(5);
  });
  it('reads the schema of its own generation and rolls without losing capacity', () => {
    const d = buildServerDeployment(contextOf(aMiddleware()), 3);
    expect(envOf(d.spec?.template).DATABASE_SCHEMA).to.equal('mainnet_g3');
    expect(d.spec?.strategy?.rollingUpdate).to.deep.equal({ maxUnavailable: 0, maxSurge: 1 });
    expect(d.spec?.template.spec?.containers[0]?.readinessProbe?.httpGet?.path).to.equal('/readyz');
  });
  it("serves the node's API at the root /v3 by default, and ae_mdw's there too with spec.server.rootV3: mdw", () => {
    expect(envOf(buildServerDeployment(contextOf(aMiddleware()), 1).spec?.template)).to.not.have.property('ROOT_V3');
    const legacy = contextOf(aMiddleware({ server: { rootV3: 'mdw' } }));
    expect(envOf(buildServerDeployment(legacy, 1).spec?.template).ROOT_V3).to.equal('mdw');
    expect(envOf(buildPopulatorDeployment(legacy, 1).spec?.template)).to.not.have.property('ROOT_V3');
  });
  it("caps V8's young generation of servers (many websocket clients), their heap without a memory limit (a long export's garbage), and pins the populator's (its batches)", () => {
    expect(envOf(buildServerDeployment(contextOf(aMiddleware()), 1).spec?.template).NODE_OPTIONS).to.equal(
      '--max-semi-space-size=8 --max-old-space-size=1024',
    );
    const limited = contextOf(aMiddleware({ server: { resources: { limits: { memory: '512Mi' } } } }));
    expect(envOf(buildServerDeployment(limited, 1).spec?.template).NODE_OPTIONS).to.equal('--max-semi-space-size=8');
    expect(envOf(buildPopulatorDeployment(contextOf(aMiddleware()), 1).spec?.template).NODE_OPTIONS).to.equal(
      '--max-semi-space-size=32',
    );
  });
  it('stops a server in two steps: out of its Service for 5 s, still serving, then its requests finish before SIGKILL', () => {
    const server = buildServerDeployment(contextOf(aFullMiddleware()), 1).spec?.template;
    const delayMs = Number(envOf(server).SHUTDOWN_DELAY_MS);
    expect(delayMs).to.equal(5000);
    // the kubelet's SIGKILL comes after the delay and 30 s more: a request's body is received within 30 s
    const graceSeconds = server?.spec?.terminationGracePeriodSeconds ?? 30;
    expect(graceSeconds).to.be.at.least(delayMs / 1000 + 30);
    // the pod template of a Middleware from before the field: servers roll only when it is changed
    expect(graceSeconds).to.equal(45);
    expect(managedEnvProblem('SHUTDOWN_DELAY_MS')).to.equal(
      'SHUTDOWN_DELAY_MS is set by the operator from spec.server.shutdownDelaySeconds: set that instead',
    );
    // the populator and the Jobs stop as before: no delay, Kubernetes' grace
    for (const other of [
      buildPopulatorDeployment(contextOf(aFullMiddleware()), 1).spec?.template,
      buildReloadJob(contextOf(aFullMiddleware()), 1, 'r1', '1-5').spec?.template,
    ]) {
      expect(envOf(other)).to.not.have.property('SHUTDOWN_DELAY_MS');
      expect(other?.spec).to.not.have.property('terminationGracePeriodSeconds');
    }
  });
  it('serves for spec.server.shutdownDelaySeconds after SIGTERM (0: stops at once), its grace period 40 s longer', () => {
    for (const [delay, env, grace] of [
      [0, '0', 40],
      [30, '30000', 70],
      [600, '600000', 640],
    ] as const) {
      const server = buildServerDeployment(contextOf(aMiddleware({ server: { shutdownDelaySeconds: delay } })), 1).spec
        ?.template;
      expect(envOf(server).SHUTDOWN_DELAY_MS, `${delay} s`).to.equal(env);
      expect(server?.spec?.terminationGracePeriodSeconds, `${delay} s`).to.equal(grace);
      // the server takes it: the field's bounds (0–600) are SHUTDOWN_DELAY_MS's own
      expect(loadConfig({ SHUTDOWN_DELAY_MS: env }).shutdownDelayMs, `${delay} s`).to.equal(delay * 1000);
    }
    expect(() => loadConfig({ SHUTDOWN_DELAY_MS: '601000' })).to.throw(/SHUTDOWN_DELAY_MS/);
  });
  it('uses the operator image unless the spec names one', () => {
    expect(buildServerDeployment(contextOf(aMiddleware()), 1).spec?.template.spec?.containers[0]?.image).to.equal(
      'ghcr.io/aeternity/mdw:0.1.0',
    );
    expect(
      buildServerDeployment(createBuildContext(aMiddleware({ image: 'my/mdw:2' }), 'x'), 1).spec?.template.spec
        ?.containers[0]?.image,
    ).to.equal('my/mdw:2');
  });
});

describe('server Deployment reading from replicas (spec.database.readReplicas)', () => {
  const withReplicas = (readReplicas: MiddlewareSpec['database']['readReplicas']) =>
    contextOf(aMiddleware({ database: { urlSecretRef: { name: 'pg-app', key: 'uri' }, readReplicas } }));
  /** containerEnv resolves a pod's env as the kubelet does: Secret keys read, `$(VAR)` of an earlier variable expanded. */
  const containerEnv = (t: V1PodTemplateSpec | undefined, secrets: Record<string, Record<string, string>>) => {
    const env: Record<string, string> = {};
    for (const e of t?.spec?.containers[0]?.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref) env[e.name] = secrets[ref.name ?? '']?.[ref.key] ?? `<missing ${ref.name}/${ref.key}>`;
      else if (e.value !== undefined)
        env[e.name] = e.value.replace(/\$\(([A-Z0-9_]+)\)/g, (m, v: string) => env[v] ?? m);
    }
    return env;
  };

  it("reads a CNPG cluster's -ro Service with the primary's credentials, the password never in the Deployment", () => {
    const server = buildServerDeployment(withReplicas({ cnpg: { cluster: 'pg' } }), 1);
    const password = 'Xq3vN8rT0aLk2mPz';
    const env = containerEnv(server.spec?.template, {
      'pg-app': { uri: `postgresql://app:${password}@pg-rw.chain:5432/app`, user: 'app', password, dbname: 'app' },
    });
    const url = new URL(env.DATABASE_READ_URLS ?? '');
    expect([url.protocol, url.username, url.password, url.hostname, url.port, url.pathname]).to.deep.equal([
      'postgresql:',
      'app',
      password,
      'pg-ro',
      '5432',
      '/app',
    ]);
    expect(env.DATABASE_URL).to.equal(`postgresql://app:${password}@pg-rw.chain:5432/app`);
    expect(JSON.stringify(server)).not.to.contain(password);
    expect(env).not.to.have.property('READ_REPLICA_MAX_LAG_SECONDS');
  });

  it('takes the CNPG credentials from another Secret when named, and the lag bound when set', () => {
    const ctx = withReplicas({ cnpg: { cluster: 'pg', credentialsSecretName: 'pg-reader' }, maxLagSeconds: 20 });
    const env = containerEnv(buildServerDeployment(ctx, 1).spec?.template, {
      'pg-reader': { user: 'reader', password: 'r', dbname: 'mdw' },
    });
    expect(env.DATABASE_READ_URLS).to.equal('postgresql://reader:r@pg-ro:5432/mdw');
    expect(env.READ_REPLICA_MAX_LAG_SECONDS).to.equal('20');
  });

  it('passes a Secret key of URLs through as DATABASE_READ_URLS', () => {
    const ctx = withReplicas({ urlsSecretRef: { name: 'replicas', key: 'urls' } });
    const urls = 'postgres://r:p@replica-0:5432/mdw,postgres://r:p@replica-1:5432/mdw';
    const server = buildServerDeployment(ctx, 2);
    expect(containerEnv(server.spec?.template, { replicas: { urls } }).DATABASE_READ_URLS).to.equal(urls);
    expect(envOf(server.spec?.template).DATABASE_READ_URLS).to.deep.equal({
      secretKeyRef: { name: 'replicas', key: 'urls' },
    });
  });

  it('leaves the populator and every Job on the primary, unchanged, and rolls only the servers', () => {
    const plain = contextOf(aMiddleware({ database: { urlSecretRef: { name: 'pg-app', key: 'uri' } } }));
    const replicated = withReplicas({ cnpg: { cluster: 'pg' }, maxLagSeconds: 10 });
    const build = (ctx: typeof plain) => [
      buildPopulatorDeployment(ctx, 1),
      buildMigrationJob(ctx, 1),
      buildReloadJob(ctx, 1, 'r1', '1-5'),
      buildDropSchemaJob(ctx, 1),
      buildDatabaseUsageJob(ctx, 1, 'adopt'),
    ];
    expect(build(replicated)).to.deep.equal(build(plain));
    const before = buildServerDeployment(plain, 1);
    const after = buildServerDeployment(replicated, 1);
    expect(after.spec?.template).not.to.deep.equal(before.spec?.template);
    expect(after.metadata.annotations).not.to.deep.equal(before.metadata.annotations);
    expect(envOf(before.spec?.template)).not.to.have.property('DATABASE_READ_URLS');
  });
});

describe('populator Deployment', () => {
  const ctx = contextOf(aMiddleware());
  it("is one writer, recreated (never two at once), holding its generation's Lease", () => {
    const d = buildPopulatorDeployment(ctx, 2);
    expect(d.spec?.replicas).to.equal(1);
    expect(d.spec?.strategy?.type).to.equal('Recreate');
    expect(envOf(d.spec?.template).WRITER_LEASE_NAME).to.equal('mainnet-writer-g2');
    expect(d.spec?.template.spec?.automountServiceAccountToken).to.equal(true);
  });
  it('runs `mdw -p`, with `-H <heights>` first when a reload asks for heights', () => {
    expect(argsOf(buildPopulatorDeployment(ctx, 2).spec?.template)).to.deep.equal(['-p']);
    expect(argsOf(buildPopulatorDeployment(ctx, 2, { heights: '1,5-9' }).spec?.template)).to.deep.equal([
      '-p',
      '-H',
      '1,5-9',
    ]);
  });
});

describe('Jobs', () => {
  it('migrate the generation schema under a name that changes with the inputs only', () => {
    const a = buildMigrationJob(contextOf(aMiddleware()), 4);
    const again = buildMigrationJob(contextOf(aMiddleware()), 4);
    const newImage = buildMigrationJob(createBuildContext(aMiddleware(), 'ghcr.io/aeternity/mdw:0.2.0'), 4);
    expect(argsOf(a.spec?.template)).to.deep.equal(['migrate']);
    expect(envOf(a.spec?.template).DATABASE_SCHEMA).to.equal('mainnet_g4');
    expect(a.metadata.name).to.match(/^mainnet-migrate-g4-[0-9a-f]{8}$/);
    expect(again.metadata.name).to.equal(a.metadata.name);
    expect(newImage.metadata.name).not.to.equal(a.metadata.name);
  });
  it('reload heights in place and drop a retired schema', () => {
    const ctx = contextOf(aMiddleware());
    expect(argsOf(buildReloadJob(ctx, 1, 'r1', '10-20').spec?.template)).to.deep.equal(['-H', '10-20']);
    expect(buildReloadJob(ctx, 1, 'r1', '10-20').metadata.name).not.to.equal(
      buildReloadJob(ctx, 1, 'r2', '10-20').metadata.name,
    );
    const drop = buildDropSchemaJob(ctx, 1);
    expect(argsOf(drop.spec?.template)).to.deep.equal(['migrate', '--drop']);
    expect(envOf(drop.spec?.template).DATABASE_SCHEMA).to.equal('mainnet_g1');
    expect(drop.spec?.template.spec?.restartPolicy).to.equal('Never');
  });
  it('ask the database with `mdw db usage`, answering through the termination message, one Job per question', () => {
    const ctx = contextOf(aMiddleware());
    const job = buildDatabaseUsageJob(ctx, 1, 'adopt');
    expect(argsOf(job.spec?.template)).to.deep.equal([
      'db',
      'usage',
      '--schema-prefix',
      'mainnet_g',
      '--termination-log',
      '/dev/termination-log',
    ]);
    const container = job.spec?.template.spec?.containers[0];
    expect(container).to.deep.include({
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'FallbackToLogsOnError',
    });
    expect(job.metadata.name).to.match(/^mainnet-db-usage-[0-9a-f]{8}$/);
    expect(job.metadata.labels?.['middleware.aeternity.io/generation']).to.equal(undefined);
    expect(job.spec?.activeDeadlineSeconds).to.equal(600);
    expect(buildDatabaseUsageJob(ctx, 1, 'r2').metadata.name).not.to.equal(job.metadata.name);
  });
});

describe('Services', () => {
  const ctx = contextOf(aMiddleware());
  it('switch generations through the stable Service selector alone', () => {
    const blue = buildStableService(ctx, 1);
    const green = buildStableService(ctx, 2);
    expect(selectedGeneration(blue)).to.equal(1);
    expect(selectedGeneration(green)).to.equal(2);
    expect({ ...green.spec, selector: undefined }).to.deep.equal({ ...blue.spec, selector: undefined });
    expect(green.metadata.name).to.equal('mainnet');
  });
  it('expose HTTP and websocket ports; the preview is in-cluster only', () => {
    const full = contextOf(aFullMiddleware());
    expect(buildStableService(full, 1).spec?.ports?.map((p) => [p.name, p.port])).to.deep.equal([
      ['http', 8080],
      ['websocket', 3021],
    ]);
    expect(buildStableService(full, 1).spec?.type).to.equal('LoadBalancer');
    expect(buildPreviewService(full, 2).spec?.type).to.equal('ClusterIP');
    expect(buildPreviewService(full, 2).metadata.name).to.equal('mainnet-preview');
  });
});

describe('metrics', () => {
  it('a headless Service reaches the populators of every generation, and the ServiceMonitor scrapes all Services', () => {
    const ctx = contextOf(aFullMiddleware());
    const populators = buildPopulatorService(ctx);
    expect(populators.spec?.clusterIP).to.equal('None');
    expect(populators.spec?.selector).to.deep.equal(selectorFor(ctx.mw, 'populator'));
    const monitor = buildServiceMonitor(ctx);
    for (const service of [populators, buildStableService(ctx, 1), buildPreviewService(ctx, 2)]) {
      expect(service.metadata.labels).to.include(monitor?.spec.selector.matchLabels);
      expect(service.spec?.ports?.map((p) => p.name)).to.include(monitor?.spec.endpoints[0]?.port);
    }
    expect(monitor?.spec.endpoints[0]).to.deep.include({ path: '/metrics', interval: '15s' });
  });
});

describe('PDB, HPA and Ingress', () => {
  const cases = [
    { spec: {}, expected: { maxUnavailable: 1 } },
    { spec: { server: { pdb: { minAvailable: 2 } } }, expected: { minAvailable: 2 } },
    { spec: { server: { pdb: { maxUnavailable: 0 } } }, expected: { maxUnavailable: 0 } },
  ];
  for (const c of cases) {
    it(`PDB budget for ${JSON.stringify(c.spec)}`, () => {
      const { selector: _, ...budget } = buildServerPdb(contextOf(aMiddleware(c.spec)), 1)?.spec ?? {};
      expect(budget).to.deep.equal(c.expected);
    });
  }
  it('no PDB when disabled, no HPA or Ingress unless asked', () => {
    const ctx = contextOf(aMiddleware({ server: { pdb: { enabled: false } } }));
    expect(buildServerPdb(ctx, 1)).to.equal(undefined);
    expect(buildServerHpa(ctx)).to.equal(undefined);
    expect(buildIngress(ctx)).to.equal(undefined);
  });
  it('the HPA scales the Middleware itself (its scale subresource), so it survives a switch', () => {
    const hpa = buildServerHpa(contextOf(aFullMiddleware()));
    expect(hpa?.spec?.scaleTargetRef).to.deep.equal({
      apiVersion: 'middleware.aeternity.io/v1alpha1',
      kind: 'Middleware',
      name: 'mainnet',
    });
    expect([hpa?.spec?.minReplicas, hpa?.spec?.maxReplicas]).to.deep.equal([2, 6]);
  });
  it('the Ingress routes the websocket path to the websocket port and the rest to HTTP, with TLS', () => {
    const ingress = buildIngress(contextOf(aFullMiddleware()));
    const paths = ingress?.spec?.rules?.[0]?.http?.paths.map((p) => [p.path, p.backend.service?.port?.name]);
    expect(paths).to.deep.equal([
      ['/websocket', 'websocket'],
      ['/', 'http'],
    ]);
    expect(ingress?.spec?.tls?.[0]?.secretName).to.equal('mdw-tls');
    expect(ingress?.metadata.annotations).to.include({ 'cert-manager.io/cluster-issuer': 'letsencrypt' });
  });
});

describe('pod security', () => {
  it('every pod is non-root, seccomp RuntimeDefault, read-only root, no capabilities, with a /tmp emptyDir', () => {
    const ctx = contextOf(aMiddleware());
    const templates = [
      buildServerDeployment(ctx, 1).spec?.template,
      buildPopulatorDeployment(ctx, 1).spec?.template,
      buildMigrationJob(ctx, 1).spec?.template,
      buildDropSchemaJob(ctx, 1).spec?.template,
    ];
    for (const t of templates) {
      expect(t?.spec?.securityContext).to.include({ runAsNonRoot: true });
      expect(t?.spec?.securityContext?.seccompProfile?.type).to.equal('RuntimeDefault');
      const c = t?.spec?.containers[0];
      expect(c?.securityContext).to.deep.include({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(c?.volumeMounts).to.deep.equal([{ name: 'tmp', mountPath: '/tmp' }]);
      expect(t?.spec?.volumes?.[0]?.emptyDir).to.not.equal(undefined);
    }
  });
});

describe('variables of the users (spec.server.env, spec.populator.env, spec.server.trustedProxies)', () => {
  const namesOf = (t: V1PodTemplateSpec | undefined) => (t?.spec?.containers[0]?.env ?? []).map((e) => e.name);
  const cors = { name: 'CORS_ORIGINS', value: 'https://aescan.io' };
  const perIp = { name: 'WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP', valueFrom: { secretKeyRef: { name: 'ws', key: 'n' } } };
  const fetch = { name: 'FETCH_CONCURRENCY', value: '16' };

  it("appends the servers' own after the operator's, values and sources as given, on the servers alone", () => {
    const plain = contextOf(aMiddleware());
    const ctx = contextOf(aMiddleware({ server: { env: [cors, perIp] } }));
    const server = buildServerDeployment(ctx, 1).spec?.template;
    expect(server?.spec?.containers[0]?.env?.slice(-2)).to.deep.equal([cors, perIp]);
    expect(namesOf(server).slice(0, -2)).to.deep.equal(namesOf(buildServerDeployment(plain, 1).spec?.template));
    expect(buildPopulatorDeployment(ctx, 1)).to.deep.equal(buildPopulatorDeployment(plain, 1));
    expect(buildReloadJob(ctx, 1, 'r1', '1-5')).to.deep.equal(buildReloadJob(plain, 1, 'r1', '1-5'));
  });

  it("gives the populator's own to the populator and the reload Jobs, which load the chain as it does, and nothing else", () => {
    const plain = contextOf(aMiddleware());
    const ctx = contextOf(aMiddleware({ populator: { env: [fetch] } }));
    expect(envOf(buildPopulatorDeployment(ctx, 1).spec?.template).FETCH_CONCURRENCY).to.equal('16');
    expect(envOf(buildReloadJob(ctx, 1, 'r1', '1-5').spec?.template).FETCH_CONCURRENCY).to.equal('16');
    const others = (c: typeof plain) => [
      buildServerDeployment(c, 1),
      buildMigrationJob(c, 1),
      buildDropSchemaJob(c, 1),
      buildDatabaseUsageJob(c, 1, 'adopt'),
    ];
    expect(others(ctx)).to.deep.equal(others(plain));
  });

  it('rolls the pods when a variable changes: their template and input hash follow it', () => {
    const before = buildServerDeployment(contextOf(aMiddleware({ server: { env: [cors] } })), 1);
    const after = buildServerDeployment(
      contextOf(aMiddleware({ server: { env: [{ ...cors, value: 'https://aescan.io,https://wallet.io' }] } })),
      1,
    );
    expect(after.spec?.template).not.to.deep.equal(before.spec?.template);
    expect(after.metadata.annotations).not.to.deep.equal(before.metadata.annotations);
  });

  it('sets TRUSTED_PROXIES on the servers from spec.server.trustedProxies, and nothing without it', () => {
    const ctx = contextOf(aMiddleware({ server: { trustedProxies: ['10.244.0.0/16', 'fd00::/8'] } }));
    expect(envOf(buildServerDeployment(ctx, 1).spec?.template).TRUSTED_PROXIES).to.equal('10.244.0.0/16,fd00::/8');
    expect(envOf(buildPopulatorDeployment(ctx, 1).spec?.template)).not.to.have.property('TRUSTED_PROXIES');
    const plain = buildServerDeployment(contextOf(aMiddleware({ server: { trustedProxies: [], env: [] } })), 1);
    expect(plain).to.deep.equal(buildServerDeployment(contextOf(aMiddleware()), 1));
  });

  it("gives every operand container its Middleware's uid and namespace/name, the owner its schemas record (issue 38)", () => {
    const ctx = contextOf(aFullMiddleware());
    const templates = [
      buildServerDeployment(ctx, 1).spec?.template,
      buildPopulatorDeployment(ctx, 1).spec?.template,
      buildMigrationJob(ctx, 1).spec?.template,
      buildReloadJob(ctx, 1, 'r1', '1-5').spec?.template,
      buildDropSchemaJob(ctx, 1).spec?.template,
      buildDatabaseUsageJob(ctx, 1, 'adopt').spec?.template,
    ];
    for (const t of templates)
      expect(envOf(t)).to.include({
        MIDDLEWARE_UID: '3f1c2a9e-0000-4000-8000-000000000001',
        MIDDLEWARE_NAME: 'chain/mainnet',
      });
    for (const name of ['MIDDLEWARE_UID', 'MIDDLEWARE_NAME'])
      expect(managedEnvProblem(name)).to.contain('cannot be changed');
  });
  it('refuses in spec.*.env every variable a builder sets itself (MANAGED_ENV lists them all)', () => {
    const ctx = contextOf(aFullMiddleware());
    const users = new Set([...ctx.spec.server.env, ...ctx.spec.populator.env].map((e) => e.name));
    const templates = [
      buildServerDeployment(ctx, 1).spec?.template,
      buildPopulatorDeployment(ctx, 1, { heights: '1-5' }).spec?.template,
      buildMigrationJob(ctx, 1).spec?.template,
      buildReloadJob(ctx, 1, 'r1', '1-5').spec?.template,
      buildDropSchemaJob(ctx, 1).spec?.template,
      buildDatabaseUsageJob(ctx, 1, 'adopt').spec?.template,
      buildServerDeployment(
        contextOf(
          aMiddleware({
            database: {
              urlSecretRef: { name: 'a', key: 'b' },
              readReplicas: { urlsSecretRef: { name: 'r', key: 'u' } },
            },
          }),
        ),
        1,
      ).spec?.template,
    ];
    const set = [...new Set(templates.flatMap(namesOf))].filter((name) => !users.has(name));
    expect(set.filter((name) => managedEnvProblem(name) === undefined)).to.deep.equal([]);
    expect(managedEnvProblem('DATABASE_URL')).to.equal(
      'DATABASE_URL is set by the operator from spec.database.urlSecretRef: set that instead',
    );
    expect(managedEnvProblem('CORS_ORIGINS')).to.equal(undefined);
    expect(managedEnvProblem('toString')).to.equal(undefined);
  });
});
