/**
 * @module docs/operator-crd.md#status names every top-level field of the Middleware's status as the CRD generator
 * builds it, and lists exactly the phases (Phase), the condition types (ConditionType) and the space check's results
 * (SpaceCheckResult) of src/operator/api/middleware-types.ts.
 */
import { expect } from 'chai';
import { middlewareOpenApiSchema, schemaPaths } from '../../../src/operator/api/crd.ts';
import { ConditionType, Phase, SpaceCheckResult } from '../../../src/operator/api/middleware-types.ts';
import { codeSpans, readDoc, section } from './markdown.ts';

/** listAfter reads the words listed in the parentheses (or after `result:`) that follow `marker` in `text`. */
function listAfter(text: string, marker: RegExp): string[] {
  const list = marker.exec(text)?.[1] ?? '';
  return list
    .split(/[,|]/)
    .map((w) => w.replace(/`/g, '').trim())
    .filter((w) => w !== '');
}

describe('docs: the Middleware status (docs/operator-crd.md#status)', () => {
  const status = section(readDoc('docs/operator-crd.md'), '## Status');
  const spans = codeSpans(status).map((s) => s.replace(/\[\]$|\s*\{.*$/, ''));

  it('names every top-level status field', () => {
    const fields = schemaPaths(middlewareOpenApiSchema())
      .filter((p) => /^\.status\.\w+$/.test(p))
      .map((p) => p.slice('.status.'.length));
    expect(fields.filter((f) => !spans.includes(f))).to.deep.equal([]);
  });

  it('lists the phases', () => {
    expect(listAfter(status, /`phase` \(([^)]*)\)/).sort()).to.deep.equal(Object.values(Phase).sort());
  });

  it('lists the condition types', () => {
    const types = listAfter(status, /`conditions\[\]` \(metav1\.Condition shape: ([\s\S]*?), each with/);
    expect(types.sort()).to.deep.equal(Object.values(ConditionType).sort());
  });

  it("lists the space check's results", () => {
    const results = listAfter(status, /`spaceCheck \{result: ([^,]*),/);
    expect(results.sort()).to.deep.equal(Object.values(SpaceCheckResult).sort());
  });
});
