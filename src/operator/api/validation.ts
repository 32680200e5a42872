/** @module Validation of a Middleware object: every problem at once, each with its field path. Pure. */
import { API_VERSION, KIND } from './middleware-types.ts';
import type { Middleware } from './middleware-types.ts';
import { BOUNDS, PATTERNS } from './patterns.ts';
import { checkField, checkTransition, withDefaults } from './field-check.ts';
import type { Problem } from './field-check.ts';
import { SPEC_FIELDS } from './spec-fields.ts';

export type { Problem } from './field-check.ts';

/**
 * validateMiddleware checks an object read from the cluster (or a file) as the API server checks it against the CRD:
 * the spec defaulted, then every field and rule of the field table (spec-fields.ts); [] means valid.
 */
export function validateMiddleware(value: unknown): Problem[] {
  if (!isObj(value)) return [{ path: '', message: 'must be an object' }];
  const problems: Problem[] = [];
  if (value.apiVersion !== API_VERSION) problems.push({ path: 'apiVersion', message: `must be ${API_VERSION}` });
  if (value.kind !== KIND) problems.push({ path: 'kind', message: `must be ${KIND}` });
  const metadata = value.metadata;
  if (!isObj(metadata))
    problems.push({ path: 'metadata', message: metadata === undefined ? 'is required' : 'must be an object' });
  else checkName(metadata.name, problems);
  if (value.spec === undefined) problems.push({ path: 'spec', message: 'is required' });
  else checkField(SPEC_FIELDS, withDefaults(SPEC_FIELDS, value.spec), 'spec', problems);
  return problems;
}

/** validateUpdate returns the problems of changing `before` into `after` (the CRD's transition rules). */
export function validateUpdate(before: Middleware, after: Middleware): Problem[] {
  const problems: Problem[] = [];
  const defaulted = (mw: Middleware) => withDefaults(SPEC_FIELDS, mw.spec);
  checkTransition(SPEC_FIELDS, defaulted(before), defaulted(after), 'spec', problems);
  return problems;
}

/** formatProblems renders problems as one line each ("spec.nodeUrls: must have at least 1 item"). */
export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path || '<root>'}: ${p.message}`).join('\n');
}

// the CRD's root rule: the name is a DNS-1035 label, because the stable Service carries it
function checkName(name: unknown, problems: Problem[]): void {
  const path = 'metadata.name';
  if (name === undefined) problems.push({ path, message: 'is required' });
  else if (typeof name !== 'string' || name.length === 0) problems.push({ path, message: 'must be a string' });
  else if (name.length > BOUNDS.instanceNameLength)
    problems.push({ path, message: `must be at most ${BOUNDS.instanceNameLength} characters` });
  else if (!new RegExp(PATTERNS.instanceName).test(name))
    problems.push({ path, message: `must match ${PATTERNS.instanceName}` });
}

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
