/**
 * @module The opaque cursors of the GraphQL pages. A cursor holds a page position (the list's cursor text and
 * whether it walks back), and names the list it came from: the field and its filters. A cursor given to another list, or one
 * that is no cursor of ours, is refused before anything is read. Pure.
 */
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { PagePosition } from '../resources/resource.ts';

/** listTag names a list: its field and its arguments but the paging ones (a cursor stays good for any page size). */
export function listTag(field: string, args: Readonly<Record<string, unknown>>): string {
  const filters = Object.keys(args)
    .filter((name) => !PAGING_ARGS.has(name) && args[name] !== undefined && args[name] !== null)
    .sort()
    .map((name) => [name, args[name]]);
  return createHash('sha256')
    .update(JSON.stringify([field, filters], (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .digest('base64url')
    .slice(0, 12);
}

const PAGING_ARGS: ReadonlySet<string> = new Set(['cursor', 'limit', 'direction']);

/** encodeCursor writes a page position as the opaque cursor of the list `tag`. */
export function encodeCursor(tag: string, position: PagePosition): string {
  return Buffer.from(`${tag}${position.rev ? 'r' : 'f'}${position.cursor}`, 'utf8').toString('base64url');
}

/** decodeCursor reads a cursor of the list `tag`, or throws a GraphQL error naming it (`invalid cursor`). */
export function decodeCursor(tag: string, text: string): PagePosition {
  const plain = /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').toString('utf8') : '';
  const walk = plain.charAt(tag.length);
  if (!plain.startsWith(tag) || (walk !== 'r' && walk !== 'f') || plain.length === tag.length + 1)
    throw new GraphQLError(`invalid cursor: ${text} (not a cursor of this list)`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  return { cursor: plain.slice(tag.length + 1), rev: walk === 'r' };
}
