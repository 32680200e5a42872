#!/usr/bin/env node
// The mdw binary: the TypeScript sources in a checkout (Node 24 strips types), the compiled CLI
// where there are none (the image ships dist/ only, and points oclif's command list at it).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/run.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/cli/run.js', import.meta.url).href);
