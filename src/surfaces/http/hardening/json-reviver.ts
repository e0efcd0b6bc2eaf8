const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper JSON than this is refused: validation walks bodies recursively and must not overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * A JSON.parse reviver for request bodies. It refuses (as a 400, like malformed JSON) strings
 * with NUL characters, which PostgreSQL text cannot hold, or lone surrogates, and nesting deeper than
 * MAX_JSON_DEPTH. Revivers run bottom-up, so each object's depth is known from its children's.
 */
export function createBodyReviver(): (key: string, value: unknown) => unknown {
  const depths = new WeakMap<object, number>();
  return (_key, value) => {
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new SyntaxError('NUL characters (\\u0000) are not allowed in strings');
      // A lone surrogate cannot be stored as UTF-8: it would come back changed.
      if (LONE_SURROGATE.test(value)) throw new SyntaxError('strings must be well-formed Unicode (no lone surrogates)');
      return value;
    }
    if (typeof value === 'object' && value !== null) {
      let depth = 1;
      for (const child of Object.values(value)) {
        if (typeof child === 'object' && child !== null) depth = Math.max(depth, (depths.get(child) ?? 1) + 1);
      }
      if (depth > MAX_JSON_DEPTH) throw new SyntaxError(`JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
      depths.set(value, depth);
    }
    return value;
  };
}
