/**
 * @module `mdw snapshot fetch` against a snapshot directory served by a local HTTP server: the files copied as they
 * are served, the manifest last; a damaged part, a missing one and a part named out of the directory refused.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';
import { fetchSnapshot } from '../../../src/indexer/maintenance/snapshot-fetch.ts';
import { SNAPSHOT_FORMAT, partFile } from '../../../src/indexer/maintenance/snapshot-manifest.ts';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const silent = pino({ level: 'silent' });

/** A snapshot of two tables as `mdw snapshot export` lays it out, its parts' bytes arbitrary (fetch reads no rows). */
function aSnapshot(table = 'blocks'): Map<string, Buffer> {
  const parts = [
    { table, bytes: Buffer.from('zstd bytes of the blocks\n'.repeat(5000)) },
    { table: 'txs', bytes: Buffer.from([0, 1, 2, 255, 254]) },
  ];
  const manifest = {
    format: SNAPSHOT_FORMAT,
    version: '0.4.0',
    createdAt: '2026-11-28T00:00:00Z',
    schema: 'mdw_g1',
    chain: { networkId: 'ae_mainnet', genesisHash: 'kh_genesis' },
    top: { height: 900_000, hash: 'kh_top' },
    migrations: ['1000_init'],
    compression: 'zstd',
    parts: parts.map((p) => ({
      table: p.table,
      file: partFile(p.table),
      columns: ['a'],
      rows: 1,
      rawBytes: p.bytes.length,
      bytes: p.bytes.length,
      sha256: sha256(p.bytes),
    })),
    sequences: [],
    sha256: sha256(Buffer.concat(parts.map((p) => p.bytes))),
  };
  return new Map([
    ['manifest.json', Buffer.from(JSON.stringify(manifest))],
    ...parts.map((p) => [partFile(p.table), p.bytes] as [string, Buffer]),
  ]);
}

describe('mdw snapshot fetch', () => {
  let server: Server;
  let base: string;
  let work: string;
  /** what the server serves under /snap/, by file name */
  let files = new Map<string, Buffer>();

  before(async () => {
    server = createServer((req, res) => {
      const name = decodeURIComponent(req.url ?? '').replace(/^\/snap\//, '');
      const body = files.get(name);
      if (body === undefined) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/snap`;
    work = await mkdtemp(join(tmpdir(), 'mdw-snapshot-fetch-'));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(work, { recursive: true, force: true });
  });

  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(AppError);
    return err as AppError;
  };

  it('copies the manifest and every part byte for byte, with or without a trailing slash', async () => {
    files = aSnapshot();
    for (const url of [base, `${base}/`]) {
      const dir = join(work, `copy-${url.length}`);
      const { manifest, bytes } = await fetchSnapshot({ log: silent }, url, dir);
      expect(manifest.top).to.deep.equal({ height: 900_000, hash: 'kh_top' });
      expect((await readdir(dir)).sort()).to.deep.equal([...files.keys()].sort());
      for (const [name, body] of files) expect(await readFile(join(dir, name)), name).to.deep.equal(body);
      expect(bytes).to.equal(files.get('blocks.copy.zst')!.length + files.get('txs.copy.zst')!.length);
    }
  });

  it("refuses a part whose bytes are not the manifest's, and writes no manifest then", async () => {
    files = aSnapshot();
    files.set('txs.copy.zst', Buffer.from([0, 1, 2, 255, 253]));
    const dir = join(work, 'damaged');
    const err = await refusal(fetchSnapshot({ log: silent }, base, dir));
    expect(err.code).to.equal(ErrorCode.SNAPSHOT_CORRUPT);
    expect(err.message)
      .to.include('txs.copy.zst')
      .and.include(sha256(Buffer.from([0, 1, 2, 255, 253])));
    // without its manifest the directory is no snapshot: the import refuses it
    expect(await readdir(dir)).not.to.include('manifest.json');
  });

  it('refuses a missing part and a URL that serves no snapshot, naming the URL and the answer', async () => {
    files = aSnapshot();
    files.delete('blocks.copy.zst');
    const missing = await refusal(fetchSnapshot({ log: silent }, base, join(work, 'missing')));
    expect(missing.message).to.include(`${base}/blocks.copy.zst answered 404`);
    const none = await refusal(fetchSnapshot({ log: silent }, `${base}/elsewhere/`, join(work, 'none')));
    expect(none.message).to.include(`${base}/elsewhere/manifest.json answered 404`);
  });

  it('refuses a manifest naming a part out of its directory', async () => {
    files = aSnapshot('../../escape');
    const err = await refusal(fetchSnapshot({ log: silent }, base, join(work, 'escape', 'inner')));
    expect(err.message).to.include('not a file name');
    expect(await readdir(work)).not.to.include('escape.copy.zst');
  });
});
