import type { ConversationState } from './conversation.entity.js';
import { InvalidInputError } from './conversation.errors.js';

/** Largest state, serialized as JSON (UTF-8 bytes). */
export const MAX_STATE_BYTES = 64 * 1024;

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks a value can be a conversation's state: a JSON object of at most 64 KB. */
export function validState(value: unknown): ConversationState {
  if (!isJsonObject(value)) throw new InvalidInputError('state must be a JSON object');
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_STATE_BYTES) {
    throw new InvalidInputError(`state is ${bytes} bytes serialized; the limit is ${MAX_STATE_BYTES}`);
  }
  return value;
}

/**
 * JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes a key, anything else
 * (arrays included) replaces. Returns a new object; the target is not changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const result: Record<string, unknown> = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
