/**
 * @module The heap measures of document-cache.test.ts, run in a worker thread of their own: a V8 isolate holding only
 * what they make. In the suite's worker processes the heap holds the earlier files' hundreds of MB, and each of the
 * measures' full collections went through all of it (15 CPU-s for the file there, 4 alone); in an isolate of its own
 * a collection is quick and what it frees is only the measure's. The texts are made here, as a client's arrive: a
 * text built by concatenation is flattened by the parser, which a parsed document's measure includes.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { GraphQLError, parse } from 'graphql';
import { checkedDocument, documentBytes } from '../../../../src/api/mdw/graphql/document-cache.ts';
import { collectAllGarbage } from '../../../../src/api/http/heap-trim.ts';

/**
 * texts of four kinds: a page query with a cursor, short names (a token every 2 characters), arguments, a long string;
 * as many of each as hold some megabytes parsed, far above the measure's noise
 */
export const KINDS: Record<string, { count: number; text: (i: number) => string }> = {
  page: {
    count: 200,
    text: (i) =>
      `{ transactions(limit: 100, cursor: "c${i}-${'x'.repeat(40)}") { data { hash blockHash encodedTx tx block { hash height time } } nextCursor } }`,
  },
  'short names': { count: 40, text: (i) => `{ a${i} ${'a '.repeat(3000)} }` },
  arguments: { count: 40, text: (i) => `{ a${i}(${Array.from({ length: 500 }, (_, k) => `x${k}: 1`).join(' ')}) }` },
  'a long string': { count: 200, text: (i) => `{ a${i}(x: "${'y'.repeat(20_000)}") }` },
};

/** BOUND: the measure of distinct documents the cache checks and refuses, beside the kinds. */
export const BOUND = 'bound';

/** What the worker answers of a measure: the heap's growth, what documentBytes counted, every document refused. */
export interface HeapAnswer {
  grown: number;
  counted: number;
  allRefused: boolean;
}

/** heapAfter is how much the heap grew while `make` ran and its result was still held. */
function heapAfter<T>(make: () => T): { grown: number; kept: T } {
  collectAllGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  collectAllGarbage();
  return { grown: process.memoryUsage().heapUsed - before, kept };
}

function measure(kind: string): HeapAnswer {
  if (kind === BOUND) {
    // 40 documents of 2800 tokens (700 unused variables: its errors point into it), 1.2 MB each parsed: three bounds
    const variables = Array.from({ length: 700 }, (_, k) => `$v${k}: Int`).join(' ');
    let allRefused = true;
    const { grown } = heapAfter(() => {
      for (let i = 0; i < 40; i++) {
        const refused = checkedDocument(`query Q${i}(${variables}) { status { mdwHeight } }`);
        allRefused &&= Array.isArray(refused) && refused[0] instanceof GraphQLError;
      }
    });
    return { grown, counted: 0, allRefused };
  }
  const { count, text } = KINDS[kind]!;
  const texts = Array.from({ length: count }, (_, i) => text(i));
  const { grown, kept } = heapAfter(() => texts.map((t) => parse(t, { maxTokens: 10_000 })));
  const counted = kept.reduce((sum, document, i) => sum + documentBytes(texts[i]!, document), 0);
  return { grown, counted, allRefused: false };
}

// one after the other, each with the heap to itself
if (!isMainThread) parentPort!.postMessage((workerData as string[]).map(measure));
