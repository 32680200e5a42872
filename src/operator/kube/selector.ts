/** @module Pure label selectors: parse the API's string form and match labels against it. */
import { KubeError } from './client.ts';

/** Requirement is one clause of a label selector. */
export interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists';
  values: string[];
}

/** parseLabelSelector parses `a=b,c!=d,e in (x,y),f notin (z),g,!h`; a bad selector is a 400 KubeError. */
export function parseLabelSelector(selector: string | undefined): Requirement[] {
  if (selector === undefined || selector.trim() === '') return [];
  return splitClauses(selector).map(parseClause);
}

/** matchesLabels tells whether labels satisfy every requirement. */
export function matchesLabels(labels: Record<string, string> | undefined, reqs: readonly Requirement[]): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case '!exists':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key] ?? '');
      case 'notin':
        return !has || !r.values.includes(l[r.key] ?? '');
    }
  });
}

function splitClauses(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const SET_CLAUSE = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/;
const EQ_CLAUSE = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/;
const KEY = /^(!?)([\w./-]+)$/;

function parseClause(clause: string): Requirement {
  const set = SET_CLAUSE.exec(clause);
  if (set) {
    const values = (set[3] ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return { key: set[1] ?? '', op: set[2] === 'in' ? 'in' : 'notin', values };
  }
  const eq = EQ_CLAUSE.exec(clause);
  if (eq) return { key: eq[1] ?? '', op: eq[2] === '!=' ? 'notin' : 'in', values: [eq[3] ?? ''] };
  const key = KEY.exec(clause);
  if (key) return { key: key[2] ?? '', op: key[1] === '!' ? '!exists' : 'exists', values: [] };
  throw new KubeError(400, 'BadRequest', `unable to parse label selector clause "${clause}"`);
}
