import { tooManyItems, tooManyKeys, tooManyValues, type JsonShapeLimits } from './json-shape.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper JSON than this is refused: validation walks bodies recursively and must not overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/** What the reviver knows of a parsed object or array: how deep it is and how many values it holds, itself included. */
interface Shape {
  readonly depth: number;
  readonly values: number;
}

/**
 * A JSON.parse reviver for request bodies. It refuses (as a 400, like malformed JSON) strings
 * with NUL characters, which PostgreSQL text cannot hold, or lone surrogates, nesting deeper than
 * MAX_JSON_DEPTH, and bodies over `limits` (keys per object, items per array, values in all).
 * Revivers run bottom-up, so each object's depth and size are known from its children's: the
 * checks cost one pass over the body, during the parse, before anything else walks it.
 */
export function createBodyReviver(limits: JsonShapeLimits): (key: string, value: unknown) => unknown {
  const shapes = new WeakMap<object, Shape>();
  return (_key, value) => {
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new SyntaxError('NUL characters (\\u0000) are not allowed in strings');
      // A lone surrogate cannot be stored as UTF-8: it would come back changed.
      if (LONE_SURROGATE.test(value)) throw new SyntaxError('strings must be well-formed Unicode (no lone surrogates)');
      return value;
    }
    if (typeof value === 'object' && value !== null) {
      const children = Object.values(value);
      if (Array.isArray(value)) {
        if (value.length > limits.maxArrayItems) throw new SyntaxError(tooManyItems(value.length, limits.maxArrayItems));
      } else if (children.length > limits.maxKeysPerObject) {
        throw new SyntaxError(tooManyKeys(children.length, limits.maxKeysPerObject));
      }
      let depth = 1;
      let values = 1;
      for (const child of children) {
        const shape = typeof child === 'object' && child !== null ? shapes.get(child) : undefined;
        if (shape) {
          depth = Math.max(depth, shape.depth + 1);
          values += shape.values;
        } else {
          values += 1;
        }
      }
      if (depth > MAX_JSON_DEPTH) throw new SyntaxError(`JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
      if (values > limits.maxValues) throw new SyntaxError(tooManyValues(limits.maxValues));
      shapes.set(value, { depth, values });
    }
    return value;
  };
}
