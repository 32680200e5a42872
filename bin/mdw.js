#!/usr/bin/env node
// The mdw binary: the compiled CLI in the image, the TypeScript sources in a checkout.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/run.js', import.meta.url);
await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/run.ts', import.meta.url).href);
