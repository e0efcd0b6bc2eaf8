import { MalformedArchiveError } from './archive.errors.js';

/** One element of the top-level array, as its JSON text, or only its size when it was too large to keep. */
export type ArrayElement =
  | { index: number; json: string }
  | { index: number; oversized: true; bytes: number; head: string; tail: string };

const HEAD_BYTES = 4096;

const enum State {
  BeforeArray,
  BeforeFirst,
  BeforeElement,
  InElement,
  AfterElement,
  End,
}

const BOM = [0xef, 0xbb, 0xbf];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** Whether the run of backslashes ending just before `end` (and not before `from`) is odd: the next byte is escaped. */
function oddBackslashesBefore(chunk: Buffer, end: number, from: number): boolean {
  let k = end - 1;
  while (k >= from && chunk[k] === BACKSLASH) k--;
  return (end - 1 - k) % 2 === 1;
}

/**
 * Cuts a JSON array arriving in chunks into its elements' texts, without parsing them: only strings,
 * escapes and bracket depth are tracked, so memory is one element at a time and an element larger than
 * `maxElementBytes` is counted and dropped instead of kept. Bytes are scanned directly: no UTF-8
 * multi-byte sequence contains a quote, backslash or bracket, so chunk boundaries need no care.
 * The structure around elements is checked strictly; each element is checked by JSON.parse later.
 */
export class JsonArraySplitter {
  private state = State.BeforeArray;
  private offset = 0;
  private index = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A bare number or literal (not a container or string) as an element. */
  private scalar = false;
  private pieces: Buffer[] = [];
  private elementBytes = 0;
  private oversized = false;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly maxElementBytes: number) {}

  /** Scans one chunk and returns the elements it completed. */
  push(chunk: Buffer): ArrayElement[] {
    const out: ArrayElement[] = [];
    let i = 0;
    let elementStart = this.state === State.InElement ? 0 : -1;
    const n = chunk.length;
    while (i < n) {
      const b = chunk[i];
      switch (this.state) {
        case State.InElement: {
          // The hot loop: stay here until the element ends or the chunk does.
          let j = i;
          let done = false;
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
                j = n;
                break;
              }
              if (oddBackslashesBefore(chunk, q, j)) {
                j = q + 1;
                continue;
              }
              this.inString = false;
              j = q + 1;
              if (this.depth === 0) {
                done = true;
                break;
              }
              continue;
            } else if (this.scalar) {
              if (c === COMMA || c === CLOSE_SQUARE || isSpace(c)) {
                done = true;
                break;
              }
            } else if (c === QUOTE) this.inString = true;
            else if (c === OPEN_CURLY || c === OPEN_SQUARE) this.depth++;
            else if (c === CLOSE_CURLY || c === CLOSE_SQUARE) {
              this.depth--;
              if (this.depth === 0) {
                j++;
                done = true;
                break;
              }
            }
            j++;
          }
          this.keep(chunk, elementStart, j);
          elementStart = -1;
          i = j;
          if (done) {
            out.push(this.finishElement());
            this.state = State.AfterElement;
          }
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
              if (this.state === State.BeforeElement) throw new MalformedArchiveError('a comma before "]"', this.offset + i);
              this.state = State.End;
            } else if (b === COMMA) {
              throw new MalformedArchiveError('an element was expected before ","', this.offset + i);
            } else {
              this.startElement(b);
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
    if (this.state === State.InElement && elementStart >= 0) this.keep(chunk, elementStart, n);
    this.offset += n;
    return out;
  }

  /** Call at the end of the input: checks that the array was closed. */
  end(): ArrayElement[] {
    if (this.state === State.BeforeArray) throw new MalformedArchiveError('the file is empty', this.offset);
    if (this.state !== State.End) throw new MalformedArchiveError('the file ends before the array is closed', this.offset);
    return [];
  }

  private startElement(first: number): void {
    this.state = State.InElement;
    this.pieces = [];
    this.elementBytes = 0;
    this.oversized = false;
    this.head = '';
    this.tail = Buffer.alloc(0);
    this.escaped = false;
    this.scalar = false;
    this.inString = false;
    this.depth = 0;
    if (first === OPEN_CURLY || first === OPEN_SQUARE) this.depth = 1;
    else if (first === QUOTE) this.inString = true;
    else this.scalar = true;
  }

  private keep(chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    const piece = chunk.subarray(start, end);
    this.elementBytes += piece.length;
    if (this.oversized) {
      // The last bytes too: ChatGPT writes the conversation's id after its mapping.
      const end = piece.subarray(Math.max(0, piece.length - HEAD_BYTES));
      const joined = Buffer.concat([this.tail, end]);
      this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - HEAD_BYTES)));
      return;
    }
    if (this.elementBytes > this.maxElementBytes) {
      // From here on only the size is counted; the start is kept to name the conversation in the report.
      this.pieces.push(piece);
      const all = Buffer.concat(this.pieces);
      this.head = all.subarray(0, HEAD_BYTES).toString('utf8');
      this.tail = Buffer.from(all.subarray(Math.max(0, all.length - HEAD_BYTES)));
      this.pieces = [];
      this.oversized = true;
      return;
    }
    // Copy: a view would keep the whole read chunk alive for as long as the element is kept.
    this.pieces.push(Buffer.from(piece));
  }

  private finishElement(): ArrayElement {
    const index = this.index++;
    if (this.oversized) {
      const tail = this.tail.toString('utf8');
      this.tail = Buffer.alloc(0);
      return { index, oversized: true, bytes: this.elementBytes, head: this.head, tail };
    }
    const json = this.pieces.length === 1 ? this.pieces[0].toString('utf8') : Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    return { index, json };
  }
}

/** Reads a JSON array from a byte stream one element at a time. */
export async function* splitJsonArray(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  maxElementBytes: number,
): AsyncGenerator<ArrayElement> {
  const splitter = new JsonArraySplitter(maxElementBytes);
  for await (const chunk of source) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (const element of splitter.push(buf)) yield element;
  }
  yield* splitter.end();
}
