/** @module resolveSpec and parseDurationSeconds. */
import { expect } from 'chai';
import { parseDurationSeconds, resolveSpec, SPEC_DEFAULTS } from '../../../src/operator/api/defaults.ts';
import type { Middleware, MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { schemaPrefixOf } from '../../../src/operator/api/schema-prefix.ts';
import { aFullMiddleware, aMiddleware } from '../specs/fixtures.ts';

const resolved = (mw: Middleware) => resolveSpec(mw.spec, schemaPrefixOf(mw));

describe('resolveSpec', () => {
  it('fills every default into a minimal spec', () => {
    const spec = resolved(aMiddleware());
    expect(spec.database.schemaPrefix).to.equal('mainnet_g');
    expect(spec.server).to.deep.include({
      replicas: 2,
      http: { type: 'ClusterIP', port: 80 },
      websocket: { port: 3020 },
    });
    expect(spec.server.pdb).to.deep.equal({ enabled: true, minAvailable: undefined, maxUnavailable: 1 });
    expect([spec.forkWindow, spec.statusMaxBlockAge, spec.logLevel, spec.paused]).to.deep.equal([
      30,
      900,
      'info',
      false,
    ]);
    expect(spec.metrics.serviceMonitor).to.deep.equal({ enabled: false, interval: '30s' });
    expect(spec.promotion).to.deep.equal({ syncedWithinBlocks: 3, stableWindowSeconds: 60 });
    expect([spec.reload, spec.server.autoscaling, spec.server.ingress, spec.image]).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("reads CNPG replicas with the primary's Secret unless another is named, and keeps a Secret of URLs as given", () => {
    const withReplicas = (readReplicas: MiddlewareSpec['database']['readReplicas']) =>
      resolved(aMiddleware({ database: { urlSecretRef: { name: 'pg-app', key: 'uri' }, readReplicas } })).database
        .readReplicas;
    expect(resolved(aMiddleware()).database.readReplicas).to.equal(undefined);
    expect(withReplicas({ cnpg: { cluster: 'pg' } })).to.deep.equal({
      cnpg: { cluster: 'pg', credentialsSecretName: 'pg-app' },
      maxLagSeconds: undefined,
    });
    expect(withReplicas({ cnpg: { cluster: 'pg', credentialsSecretName: 'pg-reader' } })).to.deep.include({
      cnpg: { cluster: 'pg', credentialsSecretName: 'pg-reader' },
    });
    expect(withReplicas({ urlsSecretRef: { name: 'replicas', key: 'urls' }, maxLagSeconds: 5 })).to.deep.equal({
      urlsSecretRef: { name: 'replicas', key: 'urls' },
      maxLagSeconds: 5,
    });
  });

  it('keeps what the user set', () => {
    const spec = resolved(aFullMiddleware());
    expect(spec.server.pdb).to.deep.equal({ enabled: true, minAvailable: 2, maxUnavailable: undefined });
    expect(spec.reload).to.deep.equal({
      id: 'reindex-2026-11',
      heights: undefined,
      strategy: 'BlueGreen',
      autoPromote: false,
      retainPrevious: '2h',
      retainPreviousSeconds: 7200,
      deadline: '48h',
      deadlineSeconds: 172_800,
    });
    expect(spec.server.autoscaling).to.deep.equal({
      minReplicas: 2,
      maxReplicas: 6,
      targetCPUUtilizationPercentage: 70,
    });
  });

  it('defaults a reload to BlueGreen, auto-promoted, keeping the previous generation 6 h, with a 48 h deadline', () => {
    const spec = resolved(aMiddleware({ reload: { id: 'r1' } }));
    expect(spec.reload).to.deep.include({
      strategy: 'BlueGreen',
      autoPromote: true,
      retainPrevious: SPEC_DEFAULTS.retainPrevious,
      retainPreviousSeconds: 21600,
      deadline: '48h',
      deadlineSeconds: 172_800,
    });
  });
});

describe('parseDurationSeconds', () => {
  const cases: [string, number | undefined][] = [
    ['0s', 0],
    ['90s', 90],
    ['30m', 1800],
    ['1h30m', 5400],
    ['6h', 21600],
    ['2', undefined],
    ['1d', undefined],
    ['', undefined],
  ];
  for (const [text, seconds] of cases)
    it(`${JSON.stringify(text)} → ${seconds}`, () => expect(parseDurationSeconds(text)).to.equal(seconds));
});
