/** @module `mdw snapshot fetch <url> <dir>`: a snapshot served over HTTP(S) copied into a directory for the import. */
import { Args, Command } from '@oclif/core';
import { createLogger } from '../../../base/log.ts';
import { exitIfRefused, exitOnAppError } from '../../refusal.ts';

export default class SnapshotFetch extends Command {
  static override summary = 'Copy a snapshot served over HTTP(S) into a directory, checking every part.';
  static override description =
    'Reads <url>/manifest.json and each part it lists (the files `mdw snapshot export` wrote, served by any web server or object store), writes them into <dir> with the manifest last, and refuses a part whose SHA-256 is not the manifest\'s. `mdw snapshot import <dir>` then restores it. Needs neither a database nor a node; the operator runs it before the import of a `spec.bootstrap.snapshot.url`. See docs/operations.md, "Starting from a snapshot".';
  static override examples = ['mdw snapshot fetch https://snapshots.example/mainnet-2026-11-28/ /snapshot'];
  static override args = {
    url: Args.string({ description: 'the HTTP(S) URL of the snapshot directory', required: true }),
    dir: Args.string({ description: 'the directory to write', required: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(SnapshotFetch);
    if (!/^https?:\/\//.test(args.url)) this.error(`${args.url} is not an http(s) URL`, { exit: 2 });
    // it needs no database or node: only the log level of the environment the Job shares with the import
    const level = process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info';
    const { log, flush } = createLogger({ logDir: undefined, logLevel: level, logPretty: false }, 'snapshot');
    const { fetchSnapshot } = await import('../../../indexer/maintenance/snapshot-fetch.ts');
    const started = performance.now();
    const { manifest, bytes } = await fetchSnapshot({ log }, args.url, args.dir).catch((err: unknown) => {
      exitIfRefused(this, err);
      exitOnAppError(this, err, 1);
      throw err;
    });
    this.log(
      `fetched ${args.url} into ${args.dir}: height ${manifest.top.height} (${manifest.top.hash}), ` +
        `${manifest.parts.length} parts, ${bytes} bytes in ${Math.round(performance.now() - started)} ms`,
    );
    flush();
  }
}
