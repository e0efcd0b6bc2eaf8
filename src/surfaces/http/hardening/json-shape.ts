/**
 * Bounds on the shape of a JSON body, checked before anything walks it: class-transformer
 * dedupes an object's keys in time quadratic in their number (90,000 keys take 8 s of one
 * core), and validation builds an error per unknown key. Every check here is linear.
 */
export interface JsonShapeLimits {
  /** Objects and arrays open at once: validation walks bodies recursively and must not overflow the stack. */
  readonly maxDepth: number;
  readonly maxKeysPerObject: number;
  readonly maxArrayItems: number;
  /** Values of any kind (objects, arrays, strings, numbers, booleans, null), the body itself included. */
  readonly maxValues: number;
}

/** Deeper JSON than this is refused. */
const MAX_JSON_DEPTH = 64;

/** Largest number of keys an object may have in any body: a 64 KB session state holds at most about 9,000. */
const MAX_KEYS_PER_OBJECT = 10_000;

/**
 * The limits of every JSON body. An export's `messages` is the longest array a valid body
 * holds, so arrays may be as long as a conversation (MAX_MESSAGES_PER_CONVERSATION, at least
 * 100,000); values scale with BODY_LIMIT_BYTES (one per 4 bytes: an export needs one per 15 or more).
 */
export function bodyShapeLimits(config: {
  readonly bodyLimitBytes: number;
  readonly maxMessagesPerConversation: number;
}): JsonShapeLimits {
  const maxValues = Math.max(250_000, Math.floor(config.bodyLimitBytes / 4));
  return {
    maxDepth: MAX_JSON_DEPTH,
    maxKeysPerObject: MAX_KEYS_PER_OBJECT,
    maxArrayItems:
      config.maxMessagesPerConversation > 0 ? Math.max(100_000, config.maxMessagesPerConversation) : maxValues,
    maxValues,
  };
}

/**
 * The tighter limits of a body or query validated against a DTO (every route but the session
 * state and the import, which take raw JSON): class-transformer's quadratic dedupe costs about
 * 1 ms at 1,000 keys, so does ArrayUnique at 1,000 items (class-validator runs it even after a
 * failed ArrayMaxSize), and 40,000 values hold any 64 KB state.
 */
export const DTO_SHAPE_LIMITS: JsonShapeLimits = {
  maxDepth: MAX_JSON_DEPTH,
  maxKeysPerObject: 1_000,
  maxArrayItems: 1_000,
  maxValues: 40_000,
};

export const tooDeep = (limit: number) => `JSON is nested deeper than ${limit} levels`;
export const tooManyKeys = (limit: number) => `An object has more than ${limit} keys`;
export const tooManyItems = (limit: number) => `An array has more than ${limit} items`;
export const tooManyValues = (limit: number) => `The body has more than ${limit} values`;

/**
 * The first limit `value` breaks, as a message, or null. Iterative (no recursion on client
 * data) and stops at the first breach, so its cost is bounded by the limits, not by the input.
 */
export function shapeProblem(value: unknown, limits: JsonShapeLimits): string | null {
  const pending: unknown[] = [value];
  let values = 0;
  while (pending.length) {
    const next = pending.pop();
    if (++values > limits.maxValues) return tooManyValues(limits.maxValues);
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      if (next.length > limits.maxArrayItems) return tooManyItems(limits.maxArrayItems);
      for (const item of next) pending.push(item);
    } else {
      const children = Object.values(next);
      if (children.length > limits.maxKeysPerObject) return tooManyKeys(limits.maxKeysPerObject);
      for (const child of children) pending.push(child);
    }
  }
  return null;
}
