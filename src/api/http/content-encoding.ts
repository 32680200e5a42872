/** @module Content encodings of stored answers: the one compression threshold and koa-compress's choice, made without a stream. Pure. */
import { brotliCompressSync, constants, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';

/** COMPRESS_THRESHOLD: bodies smaller than this go out as they are (koa-compress's threshold in the app). */
export const COMPRESS_THRESHOLD = 1024;

/** An encoding koa-compress may choose. */
export type ContentEncoding = 'zstd' | 'br' | 'gzip' | 'deflate' | 'identity';

/** koa-compress's preference among encodings the client lists with equal quality. */
const PREFERENCE: readonly Exclude<ContentEncoding, 'identity'>[] = ['zstd', 'br', 'gzip', 'deflate'];
/** A list of plain tokens: no quality values, no wildcard (whatever else goes to koa-compress's negotiation). */
const PLAIN_TOKENS = /^\s*[A-Za-z-]+(?:\s*,\s*[A-Za-z-]+)*\s*$/;

/**
 * plainEncoding is the encoding koa-compress picks for an Accept-Encoding made of plain tokens
 * (every one at quality 1, as browsers send it): the first of zstd, br, gzip, deflate listed, else
 * identity; an absent header means identity. Undefined for anything else (quality values, `*`):
 * the caller then leaves the choice to koa-compress.
 */
export function plainEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return 'identity';
  if (!PLAIN_TOKENS.test(acceptEncoding)) return undefined;
  const listed = acceptEncoding
    .toLowerCase()
    .split(',')
    .map((t) => t.trim());
  return PREFERENCE.find((e) => listed.includes(e)) ?? 'identity';
}

/** encodeBody compresses a whole body with koa-compress's settings for that encoding (brotli at quality 4). */
export function encodeBody(encoding: Exclude<ContentEncoding, 'identity'>, body: Buffer): Buffer {
  switch (encoding) {
    case 'zstd':
      return zstdCompressSync(body);
    case 'br':
      return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
  }
}
