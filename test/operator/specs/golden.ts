/** @module Test helper: compare text with a checked-in golden file; UPDATE_GOLDEN=1 rewrites the file instead. */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';

/** expectGoldenText asserts that file holds exactly text (or writes it when UPDATE_GOLDEN=1). */
export function expectGoldenText(file: string, text: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(existsSync(file), `${file} is missing; run with UPDATE_GOLDEN=1`).to.equal(true);
  expect(text, `${file} is stale; run with UPDATE_GOLDEN=1 and review the diff`).to.equal(readFileSync(file, 'utf8'));
}

/** expectGoldenYaml renders objects as multi-document YAML and compares them with the golden file. */
export function expectGoldenYaml(file: string, objects: readonly unknown[]): void {
  expectGoldenText(
    file,
    objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n'),
  );
}
