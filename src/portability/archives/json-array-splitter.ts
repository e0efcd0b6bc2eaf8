import { MalformedArchiveError } from './archive.errors.js';
import { isJsonSpace, JSON_BYTES } from '../../common/json-bytes.js';

/** One element of the top-level array, as its JSON text, or only its size when it was too large to keep. */
export type ArrayElement =
  { index: number; json: string } | { index: number; oversized: true; bytes: number; head: string; tail: string };

const HEAD_BYTES = 4096;
/** Bytes scanned at once by the stream readers (a bound on the elements one scan completes). */
export const SCAN_BYTES = 64 * 1024;

const enum State {
  BeforeArray,
  BeforeFirst,
  BeforeElement,
  InElement,
  AfterElement,
  End,
}

const { BOM, QUOTE, BACKSLASH, COMMA, OPEN_SQUARE, CLOSE_SQUARE, OPEN_CURLY, CLOSE_CURLY } = JSON_BYTES;
const isSpace = isJsonSpace;

/** Whether the run of backslashes ending just before `end` (and not before `from`) is odd: the next byte is escaped. */
function oddBackslashesBefore(chunk: Buffer, end: number, from: number): boolean {
  let k = end - 1;
  while (k >= from && chunk[k] === BACKSLASH) k--;
  return (end - 1 - k) % 2 === 1;
}

/**
 * Finds where one JSON value ends in bytes arriving in chunks, without parsing it: only strings,
 * escapes and bracket depth are tracked. Bytes are scanned directly: no UTF-8 multi-byte sequence
 * contains a quote, backslash or bracket, so chunk boundaries need no care.
 */
export class ValueScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A bare number or literal (not a container or string). */
  private scalar = false;

  /** Begins a value whose first byte is `first` (already consumed). */
  start(first: number): void {
    this.escaped = false;
    this.scalar = false;
    this.inString = false;
    this.depth = 0;
    if (first === OPEN_CURLY || first === OPEN_SQUARE) this.depth = 1;
    else if (first === QUOTE) this.inString = true;
    else this.scalar = true;
  }

  /**
   * Scans `chunk` from `from`: the index just past the value's last byte (a bare scalar ends before the
   * byte that ends it), or -1 when the value goes on past the chunk.
   */
  scan(chunk: Buffer, from: number): number {
    const n = chunk.length;
    let j = from;
    while (j < n) {
      const c = chunk[j];
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          j++;
          continue;
        }
        // Most bytes are inside strings: jump to the next quote and look back for escapes.
        const q = chunk.indexOf(QUOTE, j);
        if (q < 0) {
          this.escaped = oddBackslashesBefore(chunk, n, j);
          return -1;
        }
        if (oddBackslashesBefore(chunk, q, j)) {
          j = q + 1;
          continue;
        }
        this.inString = false;
        j = q + 1;
        if (this.depth === 0) return j;
        continue;
      } else if (this.scalar) {
        if (c === COMMA || c === CLOSE_SQUARE || c === CLOSE_CURLY || isSpace(c)) return j;
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_CURLY || c === OPEN_SQUARE) this.depth++;
      else if (c === CLOSE_CURLY || c === CLOSE_SQUARE) {
        this.depth--;
        if (this.depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
}

/**
 * The bytes of one value as they are scanned: kept up to `maxBytes`, past that only counted (with
 * its first and last bytes, to name what was dropped).
 */
export class ValueBuffer {
  private pieces: Buffer[] = [];
  private bytes = 0;
  private oversized = false;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);

  constructor(private maxBytes: number) {}

  reset(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.pieces = [];
    this.bytes = 0;
    this.oversized = false;
    this.head = '';
    this.tail = Buffer.alloc(0);
  }

  keep(piece: Buffer): void {
    if (piece.length === 0) return;
    this.bytes += piece.length;
    if (this.oversized) {
      // The last bytes too: ChatGPT writes the conversation's id after its mapping.
      const end = piece.subarray(Math.max(0, piece.length - HEAD_BYTES));
      const joined = Buffer.concat([this.tail, end]);
      this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - HEAD_BYTES)));
      return;
    }
    if (this.bytes > this.maxBytes) {
      // From here on only the size is counted; the start is kept to name the value in the report.
      this.pieces.push(piece);
      const all = Buffer.concat(this.pieces);
      this.head = all.subarray(0, HEAD_BYTES).toString('utf8');
      this.tail = Buffer.from(all.subarray(Math.max(0, all.length - HEAD_BYTES)));
      this.pieces = [];
      this.oversized = true;
      return;
    }
    // Copy: a view would keep the whole read chunk alive for as long as the value is kept.
    this.pieces.push(Buffer.from(piece));
  }

  finish(index: number): ArrayElement {
    if (this.oversized) {
      const tail = this.tail.toString('utf8');
      this.tail = Buffer.alloc(0);
      return { index, oversized: true, bytes: this.bytes, head: this.head, tail };
    }
    const json =
      this.pieces.length === 1 ? this.pieces[0].toString('utf8') : Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    return { index, json };
  }
}

/**
 * Cuts a JSON array arriving in chunks into its elements' texts, without parsing them (see
 * ValueScanner), so memory is one element at a time and an element larger than `maxElementBytes`
 * is counted and dropped instead of kept. The structure around elements is checked strictly; each
 * element is checked by JSON.parse later. `baseOffset` places error offsets in a larger document.
 */
export class JsonArraySplitter {
  private state = State.BeforeArray;
  private offset: number;
  private index = 0;
  private readonly scanner = new ValueScanner();
  private readonly value: ValueBuffer;

  constructor(
    private readonly maxElementBytes: number,
    baseOffset = 0,
  ) {
    this.offset = baseOffset;
    this.value = new ValueBuffer(maxElementBytes);
  }

  /** Elements completed so far. */
  get count(): number {
    return this.index;
  }

  /** Scans one chunk and returns the elements it completed. */
  push(chunk: Buffer): ArrayElement[] {
    const out: ArrayElement[] = [];
    let i = 0;
    /** Where the element being read began in this chunk (its first byte is consumed before the scan). */
    let elementStart = -1;
    const n = chunk.length;
    while (i < n) {
      const b = chunk[i];
      switch (this.state) {
        case State.InElement: {
          // The hot loop: stay in the scanner until the element ends or the chunk does.
          const end = this.scanner.scan(chunk, i);
          this.value.keep(chunk.subarray(elementStart >= 0 ? elementStart : i, end < 0 ? n : end));
          elementStart = -1;
          if (end < 0) {
            i = n;
            continue;
          }
          i = end;
          out.push(this.value.finish(this.index++));
          this.state = State.AfterElement;
          continue;
        }
        case State.BeforeArray:
          if (this.offset + i < 3 && b === BOM[this.offset + i]) break;
          if (!isSpace(b)) {
            if (b !== OPEN_SQUARE) throw new MalformedArchiveError('expected an array "["', this.offset + i);
            this.state = State.BeforeFirst;
          }
          break;
        case State.BeforeFirst:
        case State.BeforeElement:
          if (!isSpace(b)) {
            if (b === CLOSE_SQUARE) {
              if (this.state === State.BeforeElement)
                throw new MalformedArchiveError('a comma before "]"', this.offset + i);
              this.state = State.End;
            } else if (b === COMMA) {
              throw new MalformedArchiveError('an element was expected before ","', this.offset + i);
            } else {
              this.state = State.InElement;
              this.scanner.start(b);
              this.value.reset(this.maxElementBytes);
              elementStart = i;
              i++;
              continue;
            }
          }
          break;
        case State.AfterElement:
          if (!isSpace(b)) {
            if (b === COMMA) this.state = State.BeforeElement;
            else if (b === CLOSE_SQUARE) this.state = State.End;
            else throw new MalformedArchiveError('expected "," or "]" after an element', this.offset + i);
          }
          break;
        case State.End:
          if (!isSpace(b)) throw new MalformedArchiveError('unexpected data after the closing "]"', this.offset + i);
          break;
      }
      i++;
    }
    // An element that began on this chunk's last byte.
    if (elementStart >= 0) this.value.keep(chunk.subarray(elementStart, n));
    this.offset += n;
    return out;
  }

  /** Call at the end of the input: checks that the array was closed. */
  end(): ArrayElement[] {
    if (this.state === State.BeforeArray) throw new MalformedArchiveError('the file is empty', this.offset);
    if (this.state !== State.End)
      throw new MalformedArchiveError('the file ends before the array is closed', this.offset);
    return [];
  }
}

/** Reads a JSON array from a byte stream one element at a time. */
export async function* splitJsonArray(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  maxElementBytes: number,
): AsyncGenerator<ArrayElement> {
  const splitter = new JsonArraySplitter(maxElementBytes);
  for await (const chunk of source) {
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // A piece at a time: a large chunk of tiny elements would otherwise make a large list at once.
    for (let at = 0; at < buf.length; at += SCAN_BYTES) yield* splitter.push(buf.subarray(at, at + SCAN_BYTES));
  }
  yield* splitter.end();
}
