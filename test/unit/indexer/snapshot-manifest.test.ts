/** @module The snapshot manifest's rules: what an import refuses before touching anything, and the heights it samples. */
import { expect } from 'chai';
import { ErrorCode } from '../../../src/base/errors.ts';
import {
  parseManifest,
  partFile,
  sampleHeights,
  SNAPSHOT_FORMAT,
  snapshotRefusal,
  type SnapshotManifest,
} from '../../../src/indexer/maintenance/snapshot-manifest.ts';

const hash = (c: string): string => c.repeat(64);

const manifest: SnapshotManifest = {
  format: SNAPSHOT_FORMAT,
  version: '0.4.0',
  createdAt: '2026-11-28T16:00:00.000Z',
  schema: 'mdw_g1',
  chain: { networkId: 'ae_mainnet', genesisHash: 'kh_genesis' },
  top: { height: 1000, hash: 'kh_top' },
  migrations: ['1000_chain', '1001_names'],
  compression: 'zstd',
  parts: [
    {
      table: 'key_blocks',
      file: partFile('key_blocks'),
      columns: ['height', 'hash'],
      rows: 1001,
      rawBytes: 10,
      bytes: 5,
      sha256: hash('a'),
    },
  ],
  sequences: [{ name: 'account_ids_seq', value: '12', called: true }],
  sha256: hash('b'),
};
const node = { url: 'http://node:3013', networkId: 'ae_mainnet', genesisHash: 'kh_genesis' };

describe('snapshot manifest', () => {
  describe('parseManifest', () => {
    it('reads back what an export writes', () => {
      expect(parseManifest(JSON.stringify(manifest), 'snap')).to.deep.equal(manifest);
    });

    for (const [what, text] of [
      ['text that is not JSON', '{"format":'],
      ['another format', JSON.stringify({ ...manifest, format: 'mdw-snapshot/2' })],
      ['a part without its checksum', JSON.stringify({ ...manifest, parts: [{ ...manifest.parts[0], sha256: 'x' }] })],
      [
        'a part whose file is not its table',
        JSON.stringify({ ...manifest, parts: [{ ...manifest.parts[0], file: '../x' }] }),
      ],
      ['no migration level', JSON.stringify({ ...manifest, migrations: [] })],
    ] as const)
      it(`refuses ${what} as corrupt, naming the snapshot`, () => {
        expect(() => parseManifest(text, 'snap'))
          .to.throw(/^snap: /)
          .with.property('code', ErrorCode.SNAPSHOT_CORRUPT);
      });
  });

  describe('snapshotRefusal', () => {
    const known = ['1000_chain', '1001_names', '1002_tokens'];

    it('accepts a snapshot of the node network at a level this binary knows, older ones included', () => {
      expect(snapshotRefusal(manifest, node, known, '0.4.0')).to.equal(undefined);
    });

    it("refuses another network or genesis, naming the snapshot's and the node's", () => {
      for (const other of [
        { ...node, networkId: 'ae_uat' },
        { ...node, genesisHash: 'kh_other' },
      ]) {
        const err = snapshotRefusal(manifest, other, known, '0.4.0')!;
        expect(err.code).to.equal(ErrorCode.CHAIN_IDENTITY_MISMATCH);
        expect(err.message).to.contain('the snapshot holds network ae_mainnet (genesis kh_genesis)');
        expect(err.message).to.contain(
          `node http://node:3013 serves network ${other.networkId} (genesis ${other.genesisHash})`,
        );
      }
    });

    it("refuses a migration this binary does not ship, naming both levels and the snapshot's version", () => {
      const err = snapshotRefusal(
        { ...manifest, migrations: [...manifest.migrations, '1200_new'] },
        node,
        known,
        '0.3.0',
      )!;
      expect(err.code).to.equal(ErrorCode.DB_SCHEMA_NEWER);
      expect(err.message).to.equal(
        'the snapshot is at migration 1200_new (mdw 0.4.0), newer than this binary (mdw 0.3.0), whose newest is ' +
          '1002_tokens: it does not know 1200_new. Import it with mdw 0.4.0 or newer',
      );
    });
  });

  describe('sampleHeights', () => {
    it('draws the top and that many distinct heights below it, ascending', () => {
      let x = 1; // Lehmer's generator: the same draws every run
      const heights = sampleHeights(10_000, 100, () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647);
      expect(heights).to.have.length(101);
      expect(heights.at(-1)).to.equal(10_000);
      expect(new Set(heights).size).to.equal(101);
      expect(heights).to.deep.equal([...heights].sort((a, b) => a - b));
      expect(heights.every((h) => Number.isInteger(h) && h >= 0 && h <= 10_000)).to.equal(true);
    });

    it('takes every height of a chain shorter than the sample', () => {
      expect(sampleHeights(4, 100, Math.random)).to.deep.equal([0, 1, 2, 3, 4]);
      expect(sampleHeights(0, 100, Math.random)).to.deep.equal([0]);
    });
  });
});
