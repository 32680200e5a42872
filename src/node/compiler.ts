/**
 * @module The Sophia compiler's HTTP API (aesophia_http), the one client of it: the API's version and compile
 * (contract verification) and the indexer's calldata and call-result decoding, over http-get.ts's connections.
 */
import { parseJson, stringifyJson, type Json } from '../chain/json.ts';
import { AppError, ErrorCode } from '../base/errors.ts';
import { httpBase, httpGet, httpPostJson } from './http-get.ts';
import type { OutboundMetrics } from './outbound-metrics.ts';

/** CompilerClient talks to one compiler with a timeout per request. */
export interface CompilerClient {
  /** version is the compiler's version string (`GET /version`). */
  version(): Promise<string>;
  /** compile returns the bytecode of a source, or undefined when the compiler rejects the source. */
  compile(source: string, version: string): Promise<string | undefined>;
  /**
   * decode posts `body` to one of the compiler's decoding paths and returns its JSON answer (big integers exact);
   * any status but 2xx rejects with the status and the start of the answer (a 5xx or 429, like no answer at all, as
   * COMPILER_UNAVAILABLE: the input may be fine).
   */
  decode(path: string, body: Json): Promise<Json>;
}

function unavailable(message: string, cause?: unknown): AppError {
  return new AppError(ErrorCode.COMPILER_UNAVAILABLE, 502, message, { cause });
}

/** createCompilerClient builds a client for the compiler at `url`; `metrics` counts its requests. */
export function createCompilerClient(url: string, timeoutMs: number, metrics?: OutboundMetrics): CompilerClient {
  const base = httpBase(url);
  const meters = {
    version: metrics?.meter('compiler', 'version'),
    compile: metrics?.meter('compiler', 'compile'),
    decode: metrics?.meter('compiler', 'decode'),
  };
  /** send makes one request; a request without an answer is the compiler being unavailable. */
  const send = async (
    operation: keyof typeof meters,
    path: string,
    body?: string,
    headers?: Readonly<Record<string, string>>,
  ): Promise<{ status: number; text: string }> => {
    const meter = meters[operation];
    try {
      return await (body === undefined
        ? httpGet({ base, path }, timeoutMs, { meter })
        : httpPostJson({ base, path }, body, timeoutMs, { meter, headers }));
    } catch (err) {
      throw unavailable('the compiler is unreachable', err);
    }
  };
  const parsed = (text: string): Json => {
    try {
      return parseJson(text);
    } catch (err) {
      throw unavailable('the compiler answered something that is not JSON', err);
    }
  };
  return {
    async version() {
      const { status, text } = await send('version', '/version');
      const version = (parsed(text) as { version?: unknown } | null)?.version;
      if (status !== 200 || typeof version !== 'string') {
        throw unavailable(`the compiler answered ${status} to GET /version`);
      }
      return version;
    },
    async compile(source, version) {
      const { status, text } = await send('compile', '/compile', stringifyJson({ code: source, options: {} }), {
        'sophia-compiler-version': version,
      });
      const bytecode = (parsed(text) as { bytecode?: unknown } | null)?.bytecode;
      if (status === 200 && typeof bytecode === 'string') return bytecode;
      if (status === 400) return undefined;
      throw unavailable(`the compiler answered ${status} to POST /compile`);
    },
    async decode(path, body) {
      const { status, text } = await send('decode', path, stringifyJson(body));
      const answer = `compiler ${path}: ${status} ${text.slice(0, 200)}`;
      // a 5xx or 429 says the compiler could not do it now; another status, that the input is wrong
      if (status >= 500 || status === 429) throw unavailable(answer);
      if (status < 200 || status > 299) throw new Error(answer);
      return parseJson(text);
    },
  };
}
