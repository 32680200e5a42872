/** @module The bare Koa baseline of the HTTP benchmarks, in a process of its own (bench/http.lib.ts starts it). */
import { serveBareKoa } from './http.lib.ts';

await serveBareKoa(Number(process.argv[2]));
