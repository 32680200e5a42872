/** @module The Sophia compiler's HTTP API (aesophia_http), as far as the middleware needs it: version and compile. */
import { AppError, ErrorCode } from '../errors.ts';

/** CompilerClient talks to one compiler with a timeout per request. */
export interface CompilerClient {
  /** version is the compiler's version string (`GET /version`). */
  version(): Promise<string>;
  /** compile returns the bytecode of a source, or undefined when the compiler rejects the source. */
  compile(source: string, version: string): Promise<string | undefined>;
}

/** createCompilerClient builds a client for the compiler at `url`. */
export function createCompilerClient(url: string, timeoutMs: number): CompilerClient {
  const call = async (path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new AppError(ErrorCode.COMPILER_UNAVAILABLE, 502, 'the compiler is unreachable', { cause: err });
    }
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch (err) {
      throw new AppError(ErrorCode.COMPILER_UNAVAILABLE, 502, 'the compiler answered something that is not JSON', {
        cause: err,
      });
    }
  };
  return {
    async version() {
      const { status, body } = await call('/version', { headers: { accept: 'application/json' } });
      const version = (body as { version?: unknown })?.version;
      if (status !== 200 || typeof version !== 'string') {
        throw new AppError(ErrorCode.COMPILER_UNAVAILABLE, 502, `the compiler answered ${status} to GET /version`);
      }
      return version;
    },
    async compile(source, version) {
      const { status, body } = await call('/compile', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'sophia-compiler-version': version },
        body: JSON.stringify({ code: source, options: {} }),
      });
      const bytecode = (body as { bytecode?: unknown })?.bytecode;
      if (status === 200 && typeof bytecode === 'string') return bytecode;
      if (status === 400) return undefined;
      throw new AppError(ErrorCode.COMPILER_UNAVAILABLE, 502, `the compiler answered ${status} to POST /compile`);
    },
  };
}
