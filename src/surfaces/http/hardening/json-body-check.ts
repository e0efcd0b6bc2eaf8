import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonSpace, JSON_BYTES } from '../../../common/json-bytes.js';
import { tooDeep, tooManyItems, tooManyKeys, tooManyValues, type JsonShapeLimits } from './json-shape.js';

const {
  QUOTE,
  BACKSLASH,
  COMMA,
  COLON,
  OPEN_CURLY: OPEN_OBJECT,
  CLOSE_CURLY: CLOSE_OBJECT,
  OPEN_SQUARE: OPEN_ARRAY,
  CLOSE_SQUARE: CLOSE_ARRAY,
} = JSON_BYTES;

/**
 * body-parser's `verify` for JSON bodies: the raw text is scanned once, before JSON.parse, and
 * refused (a 400, like malformed JSON) when it breaks `limits` (nesting, keys per object,
 * items per array, values in all) or has a string with a NUL character, which PostgreSQL text
 * cannot hold, or a lone surrogate, which UTF-8 cannot store. Checking before the parse matters:
 * V8 takes about 300 ms to build an object of 90,000 keys, and a reviver makes every parse
 * several times slower; this loop over the characters takes a few milliseconds a megabyte.
 */
export function createJsonBodyCheck(
  limits: JsonShapeLimits,
): (req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string) => void {
  return (_req, _res, body, encoding) => {
    const problem = jsonProblem(asText(body, encoding), limits);
    if (problem) throw Object.assign(new SyntaxError(problem), { status: 400 });
  };
}

/**
 * UTF-8 is scanned byte for byte (as latin1: every byte of a multi-byte character is >= 0x80,
 * so none is taken for JSON syntax, and a UTF-8 decoder turns lone surrogates into U+FFFD);
 * another charset body-parser accepts is decoded first.
 */
function asText(body: Buffer, encoding: string): string {
  if (encoding === 'utf-8' || encoding === 'utf8') return body.toString('latin1');
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    throw Object.assign(new Error(`unsupported charset "${encoding.toUpperCase()}": send JSON in UTF-8`), {
      status: 415,
    });
  }
}

/** The first problem of a JSON text, or null. Malformed JSON is left to JSON.parse. */
export function jsonProblem(text: string, limits: JsonShapeLimits): string | null {
  // One entry per open object or array: its members so far, and whether it is an array.
  const members: number[] = [];
  const isArray: boolean[] = [];
  let values = 0;
  let expectValue = true;
  let expectKey = false;
  const valueStarts = (): string | null => {
    expectValue = false;
    if (++values > limits.maxValues) return tooManyValues(limits.maxValues);
    const top = members.length - 1;
    if (top >= 0 && isArray[top] && ++members[top] > limits.maxArrayItems) return tooManyItems(limits.maxArrayItems);
    return null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isJsonSpace(c)) continue;
    if (c === QUOTE) {
      if (expectKey) {
        expectKey = false;
        if (++members[members.length - 1] > limits.maxKeysPerObject) return tooManyKeys(limits.maxKeysPerObject);
      } else if (expectValue) {
        const problem = valueStarts();
        if (problem) return problem;
      }
      const end = stringEnd(text, i);
      if (typeof end === 'string') return end;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (expectValue) {
        const problem = valueStarts();
        if (problem) return problem;
      }
      members.push(0);
      isArray.push(c === OPEN_ARRAY);
      if (members.length > limits.maxDepth) return tooDeep(limits.maxDepth);
      expectValue = c === OPEN_ARRAY;
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      members.pop();
      isArray.pop();
      expectValue = expectKey = false;
    } else if (c === COMMA) {
      const inArray = isArray[isArray.length - 1] === true;
      expectValue = inArray;
      expectKey = !inArray;
    } else if (c === COLON) {
      expectValue = true;
    } else if (expectValue) {
      // The first character of a number, true, false or null.
      const problem = valueStarts();
      if (problem) return problem;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`, or the problem of the string. */
function stringEnd(text: string, start: number): number | string {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      if (text.charCodeAt(i + 1) !== 0x75 /* u */) {
        i++;
        continue;
      }
      const unit = parseInt(text.slice(i + 2, i + 6), 16);
      if (unit === 0) return 'NUL characters (\\u0000) are not allowed in strings';
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const next =
          text.charCodeAt(i + 6) === BACKSLASH && text.charCodeAt(i + 7) === 0x75
            ? parseInt(text.slice(i + 8, i + 12), 16)
            : NaN;
        if (!(next >= 0xdc00 && next <= 0xdfff)) return LONE_SURROGATE;
        i += 11;
      } else if (unit >= 0xdc00 && unit <= 0xdfff) {
        return LONE_SURROGATE;
      } else {
        i += 5;
      }
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // Only in a decoded (UTF-16) text: a raw surrogate must be a high one followed by a low one.
      const next = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return LONE_SURROGATE;
      i++;
    }
  }
  return text.length;
}

const LONE_SURROGATE = 'strings must be well-formed Unicode (no lone surrogates)';
