/**
 * @module `mdw snapshot fetch`: a snapshot directory served over HTTP(S) (the files `mdw snapshot export` wrote:
 * <url>/manifest.json and one part per table) copied into a local directory, each part checked against the
 * manifest's SHA-256 as it is written, so that `mdw snapshot import` can read it. The operator's restore Job runs it
 * in an init container for a snapshot given by URL.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { MANIFEST_FILE, parseManifest, type SnapshotManifest } from './snapshot-manifest.ts';

/** fetchSnapshot copies the snapshot at `url` into `dir` (created) and returns its manifest and the bytes fetched. */
export async function fetchSnapshot(
  deps: { log: Logger },
  url: string,
  dir: string,
): Promise<{ manifest: SnapshotManifest; bytes: number }> {
  const base = url.endsWith('/') ? url : `${url}/`;
  const text = await (await get(new URL(MANIFEST_FILE, base))).text();
  const manifest = parseManifest(text, url);
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  for (const part of manifest.parts) {
    // a part is a file of the directory, never a path out of it
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.]*$/.test(part.file))
      throw new AppError(
        ErrorCode.SNAPSHOT_CORRUPT,
        500,
        `${url}: the manifest names a part ${part.file}, not a file name`,
      );
    const answer = await get(new URL(part.file, base));
    const hash = createHash('sha256');
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(answer.body as never), tee, createWriteStream(join(dir, part.file)));
    const sha256 = hash.digest('hex');
    if (sha256 !== part.sha256)
      throw new AppError(
        ErrorCode.SNAPSHOT_CORRUPT,
        500,
        `${url}: ${part.file} has SHA-256 ${sha256}, the manifest says ${part.sha256}: the copy served is damaged or of another snapshot`,
      );
    deps.log.info({ table: part.table, bytes: part.bytes }, 'part fetched');
  }
  // written last, as the export writes it: a directory without it is no snapshot
  await writeFile(join(dir, MANIFEST_FILE), text);
  return { manifest, bytes };
}

/** get answers a GET of url with a body, or refuses with what the server said. */
async function get(url: URL): Promise<Response> {
  let answer: Response;
  try {
    answer = await fetch(url);
  } catch (err) {
    throw new AppError(ErrorCode.SNAPSHOT_CORRUPT, 502, `${url.href}: ${(err as Error).message}`, { cause: err });
  }
  if (!answer.ok || answer.body === null)
    throw new AppError(
      ErrorCode.SNAPSHOT_CORRUPT,
      502,
      `${url.href} answered ${answer.status} ${answer.statusText}: not a snapshot directory served as files`,
    );
  return answer;
}
