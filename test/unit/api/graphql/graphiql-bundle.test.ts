/**
 * @module The image's GraphiQL: bundleGraphiql puts every file the page asks for under the names it asks for them,
 * each the installed package's own bytes, so an image without the packages serves the same page (the Dockerfile's
 * build step runs it into dist/graphiql/).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { bundleGraphiql, graphiqlFile } from '../../../../src/api/mdw/graphql/graphiql.ts';

describe('bundleGraphiql', () => {
  it('writes each asset the page names, byte for byte what the packages serve', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mdw-graphiql-'));
    try {
      await bundleGraphiql(dir);
      const page = String((await graphiqlFile('/graphiql'))!.body);
      const named = [...page.matchAll(/(?:src|href)="graphiql\/([^"]+)"/g)].map((m) => m[1]!).sort();
      expect(named).to.have.length(4);
      expect((await readdir(dir)).sort()).to.deep.equal(named);
      for (const name of named)
        expect(await readFile(join(dir, name)), name).to.deep.equal(
          Buffer.from((await graphiqlFile(`/graphiql/${name}`))!.body),
        );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
