/** @module Issue 43 item 6: the chart README's values table lists every key of values.yaml with its default, and no other. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { CHART } from './helm.ts';

/** leaves lists the keys of values.yaml as dotted paths, an empty map or list being a key of its own. */
function leaves(values: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(values).flatMap(([key, value]): [string, unknown][] =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
      ? leaves(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

describe("the chart README's values table", () => {
  const values = new Map(leaves(parse(readFileSync(`${CHART}/values.yaml`, 'utf8')) as Record<string, unknown>));
  const rows = new Map(
    [...readFileSync(`${CHART}/README.md`, 'utf8').matchAll(/^\| `([^`]+)` \| `([^`]*)` \|/gm)].map(
      ([, key, def]) => [key!, def!] as const,
    ),
  );

  it('lists every key of values.yaml, and only those', () => {
    expect(
      [...values.keys()].filter((k) => !rows.has(k)),
      'missing from the README',
    ).to.deep.equal([]);
    expect(
      [...rows.keys()].filter((k) => !values.has(k)),
      'not in values.yaml',
    ).to.deep.equal([]);
  });

  it("gives each key values.yaml's default", () => {
    const wrong = [...values].filter(([key, value]) => !isDeepStrictEqual(JSON.parse(rows.get(key) ?? 'null'), value));
    expect(wrong.map(([key]) => key)).to.deep.equal([]);
  });
});
