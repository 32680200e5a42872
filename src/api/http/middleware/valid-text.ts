/**
 * @module Refuses a request whose target is not a path, or whose path or query string decodes to NUL or to bytes that
 * are not UTF-8.
 */
import type { ApiMiddleware } from '../state.ts';
import { badRequest } from '../../../base/errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * percentDecodedBytes turns URL text into the bytes it stands for: `%XX` is one byte, any other
 * character its UTF-8 (Node hands raw request-line bytes over as latin1 characters, so those stay
 * one byte each). A `%` not followed by two hex digits stands for itself.
 */
function percentDecodedBytes(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x100) {
      bytes.push(c);
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Uint8Array.from(bytes);
}

/** PLAIN is printable ASCII without `%`: text that is its own bytes, valid UTF-8 without NUL as it stands (nearly every request). */
const PLAIN = /^[ -$&-~]*$/;

/** textProblem says what is wrong with URL text once decoded, or undefined when it is valid UTF-8 without NUL. */
export function textProblem(text: string): string | undefined {
  if (PLAIN.test(text)) return undefined;
  const bytes = percentDecodedBytes(text);
  if (bytes.includes(0)) return 'contains a NUL byte';
  try {
    utf8.decode(bytes);
  } catch {
    return 'is not valid UTF-8';
  }
  return undefined;
}

/**
 * validText answers 400 before any route sees a path or query parameter the database could not
 * store or compare (PostgreSQL text rejects NUL and invalid UTF-8) and the node would not understand.
 * `+` in a query string is a space and needs no check.
 */
export function validText(): ApiMiddleware {
  return async function validText(ctx, next) {
    // `GET *` or `OPTIONS *` (the asterisk form): no route takes it, and the forwarder, which takes paths only, let it
    // through unanswered (the client waited until its socket timed out)
    if (!ctx.path.startsWith('/')) throw badRequest('the request target is not a path');
    const pathProblem = textProblem(ctx.path);
    if (pathProblem) throw badRequest(`the request path ${pathProblem}`);
    const queryProblem = textProblem(ctx.querystring);
    if (queryProblem) throw badRequest(`the query string ${queryProblem}`);
    await next();
  };
}
