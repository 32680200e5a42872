/**
 * @module Loaded into a populator of bench/sync.ts (`--import`): counts every request it sends to a node by kind
 * (bench/node-requests.lib.ts `requestKind`: a generation, a micro block's transactions, a transaction's info, a
 * dry-run replaying a contract call, ...) from undici's diagnostics channels, with the 503s among their answers (the
 * node's regulators), and notes when the last chain read (a generation, a micro block's header or transactions) went
 * out: what the load did after it (the last batches' writes, the derivation of what the catch-up gathered) asked the
 * node nothing. The load runs from the child's `syncing` line to its report (bench/indexer.lib.populate.ts). At exit
 * it writes to BENCH_NODE_REQUESTS_FILE `{"kinds": RequestKinds, "lastChainReadSeconds": s}` (since `syncing`).
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { requestKind, type RequestKinds } from './node-requests.lib.ts';
import { watchLoadWindow } from './load-window.lib.ts';

const kinds: RequestKinds = {};
const kindOf = new WeakMap<object, RequestKinds[string]>();
// the child says where its load starts and ends on its standard output
const load = watchLoadWindow();
let lastChainRead = 0;

subscribe('undici:request:create', (message) => {
  if (load.from === undefined || load.to !== undefined) return;
  const { request } = message as { request: { method: string; path: string; body?: unknown } };
  const body = request.body === undefined || request.body === null ? undefined : String(request.body);
  const { kind: name, calls } = requestKind(request.method, request.path, body);
  const kind = (kinds[name] ??= { requests: 0, refused: 0, calls: 0 });
  kind.requests++;
  kind.calls += calls;
  kindOf.set(request, kind);
  if (/generations\/height|micro-blocks\/hash/.test(request.path)) lastChainRead = performance.now();
});
subscribe('undici:request:headers', (message) => {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const kind = kindOf.get(request);
  if (kind && response.statusCode === 503) kind.refused++;
});

process.on('exit', () => {
  // `make bench` runs this file alone too: nothing counted, nothing to write
  if (load.from === undefined || process.env.BENCH_NODE_REQUESTS_FILE === undefined) return;
  const lastChainReadSeconds = (lastChainRead - load.from) / 1000;
  writeFileSync(process.env.BENCH_NODE_REQUESTS_FILE, JSON.stringify({ kinds, lastChainReadSeconds }));
});
