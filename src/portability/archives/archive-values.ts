/** Small, forgiving readers for values in someone else's JSON. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** An id may be written as a number by some tools. */
export function idOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * Epoch time in ms from a number in seconds, milliseconds, microseconds or nanoseconds (told apart by
 * size: any date after 1973 in seconds is below 1e11), or from an ISO string. Null when absent or invalid.
 */
export function epochMs(value: unknown): number | null {
  if (typeof value === 'string' && value.trim() !== '') {
    const asNumber = Number(value);
    if (Number.isFinite(asNumber)) return epochMs(asNumber);
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  if (value < 1e11) return Math.round(value * 1000);
  if (value < 1e14) return Math.round(value);
  if (value < 1e17) return Math.round(value / 1000);
  return Math.round(value / 1e6);
}

/** A title for a conversation that has none: the start of its first question. */
export function fallbackTitle(firstUserText: string | undefined): string {
  const text = (firstUserText ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return 'Imported conversation';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

export function placeholderFor(images: number, files: number): string {
  const parts: string[] = [];
  if (images > 0) parts.push(images === 1 ? '1 image' : `${images} images`);
  if (files > 0) parts.push(files === 1 ? '1 file' : `${files} files`);
  return `[not imported: ${parts.join(', ')}]`;
}

/** NUL written as JSON: the only way it can be in a string of valid JSON. */
const ESCAPED_NUL = '\\u0000';
const withoutNul = (_key: string, value: unknown): unknown =>
  typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;

/**
 * JSON of an archive, parsed, with NUL taken out of every string value: PostgreSQL text cannot
 * hold it and an export holding it would not import back (replies from the model lose it the
 * same way). The slower path runs only for text that has an escaped NUL.
 */
export function parseArchiveJson(json: string): unknown {
  return json.includes(ESCAPED_NUL) ? (JSON.parse(json, withoutNul) as unknown) : (JSON.parse(json) as unknown);
}
