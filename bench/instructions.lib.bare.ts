/**
 * @module Child process of bench/instructions.ts: the bare client (bench/bare-client.lib.ts) alone in its process,
 * reading every generation up to BENCH_TOP from NODE_URL with BENCH_SLOTS slots. Prints one JSON line: the
 * transactions and requests it read.
 */
import { bareClient } from './bare-client.lib.ts';

const read = await bareClient([process.env.NODE_URL!], Number(process.env.BENCH_TOP), Number(process.env.BENCH_SLOTS));
process.stdout.write(`${JSON.stringify({ transactions: read.transactions, requests: read.requests })}\n`);
