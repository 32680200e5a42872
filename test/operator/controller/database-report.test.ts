import { expect } from 'chai';
import { parseByteQuantity } from '../../../src/operator/api/quantity.ts';
import {
  adoptFromDatabase,
  formatBytes,
  freeGeneration,
  parseDatabaseReport,
  spaceCheck,
  type DatabaseReport,
} from '../../../src/operator/controller/database-report.ts';

const schema = (generation: number, height: number | null, migrated = true, bytes = 1000) => ({
  name: `mdw_g${generation}`,
  generation,
  bytes,
  migrated,
  height,
});

describe('parseDatabaseReport', () => {
  it('reads what `mdw db usage` writes', () => {
    const report = { databaseBytes: 5000, schemas: [schema(1, 41), schema(3, null, false)] };
    expect(parseDatabaseReport(JSON.stringify(report))).to.deep.equal(report);
  });
  it("reads an older image's report, which has no version, newest migration or owners (issue 38)", () => {
    const old = { databaseBytes: 5000, schemas: [schema(1, 41)] };
    const parsed = parseDatabaseReport(JSON.stringify(old));
    expect(parsed).to.deep.equal(old);
    expect(typeof parsed !== 'string' && parsed.version).to.equal(undefined);
    const owned = { ...schema(1, 41), migration: '1010_x', owner_uid: 'u', owner_name: 'chain/a', network_id: null };
    const current = { version: '0.2.0', newestMigration: '1010_x', databaseBytes: 5000, schemas: [owned] };
    expect(parseDatabaseReport(JSON.stringify(current))).to.deep.equal(current);
    expect(parseDatabaseReport(JSON.stringify({ ...current, version: 2 }))).to.match(/malformed version/);
    expect(parseDatabaseReport(JSON.stringify({ ...old, schemas: [{ ...owned, owner_uid: 7 }] }))).to.match(
      /malformed/,
    );
  });
  it('says what is wrong with anything else (a truncated message, a log tail, a bad entry)', () => {
    expect(parseDatabaseReport('{"databaseBytes": 5')).to.match(/^not JSON/);
    expect(parseDatabaseReport('{}')).to.equal('no databaseBytes or schemas');
    expect(parseDatabaseReport('{"databaseBytes":1,"schemas":[{"name":"x","generation":0}]}')).to.match(/malformed/);
    expect(parseDatabaseReport('{"databaseBytes":-1,"schemas":[]}')).to.equal('no databaseBytes or schemas');
  });
});

describe('adoptFromDatabase', () => {
  const report = (...schemas: ReturnType<typeof schema>[]): DatabaseReport => ({ databaseBytes: 0, schemas });
  it('picks the migrated schema with the most stored heights, then the higher number', () => {
    expect(adoptFromDatabase(report(schema(1, 900), schema(2, 1000), schema(3, 10))).generation).to.equal(2);
    expect(adoptFromDatabase(report(schema(1, 50), schema(2, 50))).generation).to.equal(2);
    expect(adoptFromDatabase(report(schema(4, null), schema(5, 3, false))).generation).to.equal(4);
  });
  it('adopts nothing from an empty database or unmigrated schemas only, and names the others', () => {
    expect(adoptFromDatabase(report()).generation).to.equal(undefined);
    expect(adoptFromDatabase(report(schema(1, 5, false))).generation).to.equal(undefined);
    expect(adoptFromDatabase(report(schema(1, 5), schema(2, 1))).others.map((s) => s.name)).to.deep.equal(['mdw_g2']);
  });
});

describe('freeGeneration and spaceCheck', () => {
  it('never hands out a number a schema has', () => {
    expect(freeGeneration({ databaseBytes: 0, schemas: [schema(2, 1), schema(7, null, false)] }, 3)).to.equal(8);
    expect(freeGeneration({ databaseBytes: 0, schemas: [] }, 3)).to.equal(3);
  });
  it('needs the active size plus 20 % beside the whole database, exactly at the edge', () => {
    const report = { databaseBytes: 2000, schemas: [schema(1, 1, true, 1000)] };
    expect(spaceCheck(report, 1, 3200).result).to.equal('Sufficient'); // 1200 free, 1200 needed
    expect(spaceCheck(report, 1, 3199).result).to.equal('Insufficient');
    expect(spaceCheck(report, 1, undefined).result).to.equal('Skipped');
    expect(spaceCheck(report, 1, 1000).message).to.contain('0 B of 1000 B are free');
  });
  it('writes sizes for people', () => {
    expect(formatBytes(512)).to.equal('512 B');
    expect(formatBytes(1.5 * 2 ** 30)).to.equal('1.5 GiB');
  });
});

describe('parseByteQuantity', () => {
  it('reads Kubernetes byte quantities', () => {
    expect(parseByteQuantity('500Gi')).to.equal(500 * 2 ** 30);
    expect(parseByteQuantity('1.5Ti')).to.equal(1.5 * 2 ** 40);
    expect(parseByteQuantity('2G')).to.equal(2e9);
    expect(parseByteQuantity('1073741824')).to.equal(2 ** 30);
    expect(parseByteQuantity('10 Gi')).to.equal(undefined);
    expect(parseByteQuantity('10gb')).to.equal(undefined);
  });
});
