/**
 * The keys an object's JSON starts with, as far as `head` (its first bytes) goes: each key of the
 * object maps to `true`, or, when its value is an object, to the keys of that object read the same
 * way. Enough to tell which tool wrote a conversation too large to parse (ChatGPT's `mapping`, Open
 * WebUI's `chat.history`) from its first bytes. Null when `head` does not start with an object.
 * Linear in the length of `head`; strings are skipped, never parsed beyond a key.
 */
export function keysOfHead(head: string): Record<string, unknown> | null {
  let i = skipSpaces(head, 0);
  if (head[i] !== '{') return null;
  const top: Record<string, unknown> = {};
  /** The open containers; for an object, the record its keys go to (null below the second level). */
  const stack: Array<{ object: Record<string, unknown> | null } | 'array'> = [];
  let pendingKey: { into: Record<string, unknown>; key: string } | null = null;
  while (i < head.length) {
    const c = head[i];
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end < 0) break; // cut inside a string
      const container = stack[stack.length - 1];
      const colon = skipSpaces(head, end + 1);
      if (container !== 'array' && container?.object && head[colon] === ':') {
        const key = parseKey(head.slice(i, end + 1));
        if (key !== null) {
          container.object[key] = true;
          pendingKey = { into: container.object, key };
        }
        i = colon + 1;
        continue;
      }
      pendingKey = null;
      i = end + 1;
      continue;
    }
    if (c === '{') {
      let object: Record<string, unknown> | null = null;
      if (stack.length === 0) object = top;
      else if (stack.length === 1 && pendingKey) object = pendingKey.into[pendingKey.key] = {};
      stack.push({ object });
    } else if (c === '[') stack.push('array');
    else if (c === '}' || c === ']') {
      stack.pop();
      if (stack.length === 0) break;
    }
    if (!isSpace(c)) pendingKey = null;
    i++;
  }
  return top;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/** Index of the quote that ends the string opening at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let j = start + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j;
  }
  return -1;
}

function parseKey(json: string): string | null {
  try {
    return JSON.parse(json) as string;
  } catch {
    return null;
  }
}
