import { MalformedArchiveError } from './archive.errors.js';
import { isJsonSpace as isSpace, JSON_BYTES } from '../../common/json-bytes.js';
import { type ArrayElement, JsonArraySplitter, SCAN_BYTES, ValueBuffer, ValueScanner } from './json-array-splitter.js';

const { QUOTE, COMMA, OPEN_SQUARE, OPEN_CURLY, CLOSE_CURLY, BOM } = JSON_BYTES;
const COLON = 0x3a;
/** A member's name longer than this is cut: no name we read is near it. */
const MAX_KEY_BYTES = 256;

/** What becomes of a member of the top-level object, by its name. */
export type MemberPolicy =
  /** Its value's text, kept up to that many bytes (past them only counted). */
  | { keep: number }
  /** An array: its elements one at a time, each kept up to that many bytes (another value is kept as by `keep`). */
  | { elements: number }
  /** Scanned past, never kept. */
  | 'skip';

export type ObjectPart =
  | { kind: 'member'; key: string; value: ArrayElement }
  | { kind: 'element'; key: string; element: ArrayElement }
  /** The end of an array member read element by element (`count` elements). */
  | { kind: 'end'; key: string; count: number };

const enum State {
  BeforeObject,
  BeforeFirstKey,
  BeforeKey,
  InKey,
  AfterKey,
  BeforeValue,
  InValue,
  AfterValue,
  End,
}

/**
 * Cuts a JSON object arriving in chunks into its members, without parsing them (the bytes are scanned
 * as JsonArraySplitter scans them): each member's value is kept, skipped, or, for an array, handed out
 * one element at a time, as `policy` says for its name. Memory is one kept value (or element) at a time.
 * The structure of the object is checked strictly; each value is checked by JSON.parse later.
 */
export class JsonObjectSplitter {
  private state = State.BeforeObject;
  private offset = 0;
  private index = 0;
  private readonly scanner = new ValueScanner();
  private readonly value = new ValueBuffer(MAX_KEY_BYTES);
  private key = '';
  private mode: 'keep' | 'skip' | 'elements' = 'keep';
  private elements: JsonArraySplitter | null = null;

  constructor(private readonly policy: (key: string) => MemberPolicy) {}

  /** Scans one chunk and returns the parts it completed. */
  push(chunk: Buffer): ObjectPart[] {
    const out: ObjectPart[] = [];
    let i = 0;
    let valueStart = -1;
    const n = chunk.length;
    while (i < n) {
      const b = chunk[i];
      switch (this.state) {
        case State.InKey:
        case State.InValue: {
          const from = valueStart >= 0 ? valueStart : i;
          valueStart = -1;
          const end = this.scanner.scan(chunk, i);
          this.take(chunk.subarray(from, end < 0 ? n : end), out);
          if (end < 0) {
            i = n;
            continue;
          }
          i = end;
          if (this.state === State.InKey) this.endKey();
          else this.endValue(out);
          continue;
        }
        case State.BeforeObject:
          if (this.offset + i < 3 && b === BOM[this.offset + i]) break;
          if (!isSpace(b)) {
            if (b !== OPEN_CURLY) throw new MalformedArchiveError('expected an object "{"', this.offset + i);
            this.state = State.BeforeFirstKey;
          }
          break;
        case State.BeforeFirstKey:
        case State.BeforeKey:
          if (isSpace(b)) break;
          if (b === CLOSE_CURLY && this.state === State.BeforeFirstKey) {
            this.state = State.End;
            break;
          }
          if (b !== QUOTE)
            throw new MalformedArchiveError(
              this.state === State.BeforeKey && b === CLOSE_CURLY ? 'a comma before "}"' : 'expected a member name',
              this.offset + i,
            );
          this.state = State.InKey;
          this.scanner.start(b);
          this.value.reset(MAX_KEY_BYTES);
          valueStart = i;
          i++;
          continue;
        case State.AfterKey:
          if (isSpace(b)) break;
          if (b !== COLON) throw new MalformedArchiveError('expected ":" after a member name', this.offset + i);
          this.state = State.BeforeValue;
          break;
        case State.BeforeValue:
          if (isSpace(b)) break;
          if (b === COMMA || b === CLOSE_CURLY)
            throw new MalformedArchiveError('a value was expected', this.offset + i);
          this.startValue(b, this.offset + i);
          valueStart = i;
          i++;
          continue;
        case State.AfterValue:
          if (isSpace(b)) break;
          if (b === COMMA) this.state = State.BeforeKey;
          else if (b === CLOSE_CURLY) this.state = State.End;
          else throw new MalformedArchiveError('expected "," or "}" after a value', this.offset + i);
          break;
        case State.End:
          if (!isSpace(b)) throw new MalformedArchiveError('unexpected data after the closing "}"', this.offset + i);
          break;
      }
      i++;
    }
    // A key or value that began on this chunk's last byte.
    if (valueStart >= 0) this.take(chunk.subarray(valueStart, n), out);
    this.offset += n;
    return out;
  }

  /** Call at the end of the input: checks that the object was closed. */
  end(): void {
    if (this.state === State.BeforeObject) throw new MalformedArchiveError('the file is empty', this.offset);
    if (this.state !== State.End)
      throw new MalformedArchiveError('the file ends before the object is closed', this.offset);
  }

  private take(piece: Buffer, out: ObjectPart[]): void {
    if (this.state === State.InKey || this.mode === 'keep') this.value.keep(piece);
    else if (this.mode === 'elements')
      for (const element of this.elements!.push(piece)) out.push({ kind: 'element', key: this.key, element });
  }

  private endKey(): void {
    const key = this.value.finish(0);
    this.key = 'json' in key ? parseKey(key.json) : parseKey(`${key.head.slice(0, MAX_KEY_BYTES)}"`);
    this.state = State.AfterKey;
  }

  private startValue(first: number, at: number): void {
    this.state = State.InValue;
    this.scanner.start(first);
    const policy = this.policy(this.key);
    if (policy === 'skip') this.mode = 'skip';
    else if ('elements' in policy && first === OPEN_SQUARE) {
      this.mode = 'elements';
      this.elements = new JsonArraySplitter(policy.elements, at);
    } else {
      this.mode = 'keep';
      this.value.reset('elements' in policy ? policy.elements : policy.keep);
    }
  }

  private endValue(out: ObjectPart[]): void {
    if (this.mode === 'keep') out.push({ kind: 'member', key: this.key, value: this.value.finish(this.index) });
    else if (this.mode === 'elements') {
      this.elements!.end();
      out.push({ kind: 'end', key: this.key, count: this.elements!.count });
      this.elements = null;
    }
    this.index++;
    this.state = State.AfterValue;
  }
}

/** A member name's text as a string (a name cut short, or not valid JSON, is kept as it reads). */
function parseKey(json: string): string {
  try {
    const key: unknown = JSON.parse(json);
    return typeof key === 'string' ? key : json;
  } catch {
    return json.slice(1, -1);
  }
}

/** Reads a JSON object from a byte stream one part at a time. */
export async function* splitJsonObject(
  source: AsyncIterable<Buffer>,
  policy: (key: string) => MemberPolicy,
): AsyncGenerator<ObjectPart> {
  const splitter = new JsonObjectSplitter(policy);
  for await (const chunk of source)
    for (let at = 0; at < chunk.length; at += SCAN_BYTES) yield* splitter.push(chunk.subarray(at, at + SCAN_BYTES));
  splitter.end();
}
