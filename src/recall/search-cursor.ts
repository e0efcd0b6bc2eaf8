import { createHash } from 'node:crypto';
import { InvalidInputError } from '../conversations/conversation.errors.js';

/**
 * A page's cursor: the offset of the next hit in the ranking, tied to the search it came from
 * (a digest of the query and filters), so it cannot be replayed on another search.
 */
export function encodeSearchCursor(offset: number, search: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, s: digest(search) })).toString('base64url');
}

/** The offset a cursor points at; an error for a cursor this search did not hand out. */
export function decodeSearchCursor(cursor: string, search: unknown, maxOffset: number): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const { o, s } = (parsed ?? {}) as { o?: unknown; s?: unknown };
  if (!Number.isInteger(o) || (o as number) < 0 || (o as number) > maxOffset || s !== digest(search)) {
    throw new InvalidInputError('cursor is not one this search returned');
  }
  return o as number;
}

const digest = (search: unknown) =>
  createHash('sha256').update(JSON.stringify(search)).digest('base64url').slice(0, 16);
