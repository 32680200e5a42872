/**
 * @module Loaded into a benchmark's server (`--import`: startMdwServer's `timed`, read by serverTimes in
 * bench/http.lib.ts): each HTTP answer's time as the server sees it, from its request's headers parsed to its
 * response's last byte handed to the kernel. What the client's latency adds to it (the load generator's own turn for
 * a core, the loopback) stays out. On SIGUSR2 the server writes the times since the previous signal, one per line
 * in ms, to `<BENCH_SERVER_TIMING_DIR>/<pid>.txt`.
 */
import { subscribe } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const started = new WeakMap<ServerResponse, number>();
let times: number[] = [];

subscribe('http.server.request.start', (message) => {
  started.set((message as { response: ServerResponse }).response, performance.now());
});
subscribe('http.server.response.finish', (message) => {
  const at = started.get((message as { response: ServerResponse }).response);
  if (at !== undefined) times.push(performance.now() - at);
});

process.on('SIGUSR2', () => {
  const file = join(process.env.BENCH_SERVER_TIMING_DIR!, `${process.pid}.txt`);
  // written whole, then renamed: the bench reads the file once it exists
  writeFileSync(`${file}.part`, times.map((t) => t.toFixed(3)).join('\n'));
  renameSync(`${file}.part`, file);
  times = [];
});
