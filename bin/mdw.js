#!/usr/bin/env node
// The mdw binary: the TypeScript sources in a checkout (Node 24 strips types), the compiled CLI
// where there are none (the image ships dist/ only, and points oclif's command list at it).
import { existsSync } from 'node:fs';

// Before anything else: an older Node fails on the sources with ERR_UNKNOWN_FILE_EXTENSION ".ts", which says
// nothing of the fix (issue 44). Only node:fs is imported statically: a static import of an export an older Node lacks
// fails at link time, before this check runs (node:module's enableCompileCache on Node 20, issue 59).
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `mdw needs Node ${REQUIRED_MAJOR} or newer; this is Node ${process.versions.node} (${process.execPath}).\n` +
      'In a checkout, `make node` installs Node 24 under .tools/; then `export PATH=$PWD/.tools/node/bin:$PATH`.\n',
  );
  process.exit(1);
}

// V8's code for the modules is kept between starts (in os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; a
// directory it cannot write is passed over): each start compiled its thousands of modules again, about a second of CPU.
(await import('node:module')).enableCompileCache();

// oclif checks, as it loads, that this Node satisfies its own package's engines (>=22), with semver's 47 modules: the
// check above asks more, and without semver each start costs 0.03 CPU-s less.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1';

const source = new URL('../src/cli/run.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/cli/run.js', import.meta.url).href);
