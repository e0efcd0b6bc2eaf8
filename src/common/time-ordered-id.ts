import { randomUUID } from 'node:crypto';

/**
 * A new row id: a version 7 UUID (RFC 9562), the creation time in milliseconds first, then
 * random bits. Rows written together sit side by side in every index keyed by the id (the
 * primary key, a message's parent), so a turn changes one page of each instead of a random page
 * for every row, on SQLite and PostgreSQL alike. The time it shows is no secret: rows carry it.
 */
export function timeOrderedId(now = Date.now()): string {
  // A version 4 UUID's random bits, with its variant, under the time and version 7.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
