/**
 * @module The files a node operator gives the middleware from the node's data directory (its genesis accounts and
 * hard-fork accounts), written for a devnode's chain: `mdw dev` and the tests give them as an operator would.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HardForkFile } from '../../chain/hard-forks.ts';
import { HARD_FORK_FILE_VARIABLES } from '../../config/middleware.ts';
import { genesisAccountsJson, hardForkFilesJson, type Chain } from '../../devnode/index.ts';

/** The files written: the genesis accounts file, and the hard-fork files by their variable (MINERVA_ACCOUNTS_FILE…). */
export interface NodeFiles {
  readonly genesisAccountsFile: string;
  readonly forkFiles: Record<string, string>;
}

/** writeNodeFiles writes `chain`'s genesis accounts and hard-fork files into `dir` as the node's. */
export async function writeNodeFiles(dir: string, chain: Chain): Promise<NodeFiles> {
  await mkdir(dir, { recursive: true });
  const genesisAccountsFile = join(dir, 'genesis-accounts.json');
  await writeFile(genesisAccountsFile, genesisAccountsJson(chain));
  const forkFiles: Record<string, string> = {};
  for (const [file, text] of Object.entries(hardForkFilesJson(chain.schedule)) as [HardForkFile, string][]) {
    const path = join(dir, `${file}.json`);
    await writeFile(path, text);
    forkFiles[HARD_FORK_FILE_VARIABLES[file]] = path;
  }
  return { genesisAccountsFile, forkFiles };
}
