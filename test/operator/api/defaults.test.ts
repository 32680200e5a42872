/** @module resolveSpec and parseDurationSeconds. */
import { expect } from 'chai';
import { resolveSpec } from '../../../src/operator/api/defaults.ts';
import { parseDurationSeconds } from '../../../src/operator/api/quantity.ts';
import type { Middleware, MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { schemaPrefixOf } from '../../../src/operator/api/schema-prefix.ts';
import type { Field, FilledOf } from '../../../src/operator/api/field.ts';
import { SPEC_FIELDS } from '../../../src/operator/api/spec-fields.ts';
import { aFullMiddleware, aMiddleware } from '../specs/fixtures.ts';

const resolved = (mw: Middleware) => resolveSpec(mw.spec, schemaPrefixOf(mw));

/** leafDefaults lists the table's `default:` values of fields that hold no fields themselves, by dotted path. */
function leafDefaults(field: Field, path: string[] = []): [string[], unknown][] {
  const children = Object.entries(field.properties ?? {});
  if (children.length === 0) return field.schema.default === undefined ? [] : [[path, field.schema.default]];
  return children.flatMap(([key, child]) => leafDefaults(child, [...path, key]));
}

// Compile-time: the filled-in type knows which fields the table defaults (`npx tsc` fails otherwise).
type Filled = FilledOf<typeof SPEC_FIELDS>;
const defaultedIsSet: undefined extends Filled['server']['pdb']['enabled'] ? false : true = true;
const undefaultedMayBeUnset: undefined extends Filled['server']['pdb']['minAvailable'] ? true : false = true;

describe('resolveSpec', () => {
  it("takes every default from the field table: a field's `default:` is the resolved value, with no other line", () => {
    expect([defaultedIsSet, undefaultedMayBeUnset]).to.deep.equal([true, true]);
    const defaults = leafDefaults(SPEC_FIELDS);
    const spec = resolved(aMiddleware({ server: { autoscaling: { maxReplicas: 4 } }, reload: { id: 'r1' } }));
    const at = (path: string[]) =>
      path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], spec);
    expect(defaults.map(([path]) => path.join('.'))).to.include.members(['server.replicas', 'jobs.migrationDeadline']);
    expect(defaults.filter(([path, value]) => at(path) !== value).map(([path]) => path.join('.'))).to.deep.equal([]);
  });

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
    expect(spec.promotion).to.deep.equal({ syncedWithinBlocks: 3, stableWindowSeconds: 60, switchDrainSeconds: 30 });
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
      retainPrevious: '6h',
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
