import { crc32 } from 'node:zlib';
import { Inflate, Unzip, type UnzipFile } from 'fflate';
import { UnzippedTooLargeError, ZipInvalidError, ZipUnsupportedError } from './archive.errors.js';
import type { EventLoopTurns } from './event-loop-turns.js';

/** Compressed bytes handed to the decompressor at a time: deflate expands at most ~1032x, so one step yields at most ~4 MB (a few tens of ms). */
const SLICE_BYTES = 4 * 1024;
const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ARCHIVE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const STORED = 0;
const DEFLATE = 8;
const AES = 99;
const ENCRYPTED_FLAG = 1;
/** The CRC-32 and sizes follow the entry's data (a ZIP written as a stream) instead of being in its local header. */
const DESCRIPTOR_FLAG = 8;
const DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
/** A data descriptor's length at most: signature, CRC-32 and two sizes of 8 bytes (ZIP64). */
const DESCRIPTOR_BYTES = 24;
const UTF8_NAME_FLAG = 0x800;
const EMPTY = new Uint8Array(0);
/**
 * An entry may decompress to at most this many times the compressed bytes read since it began: JSON
 * archives compress 5 to 20 times; a zip bomb (deflate reaches ~1,000) is refused after a slice.
 */
export const MAX_UNZIPPED_RATIO = 100;
/** The ratio is checked once an entry has decompressed to this much (a small entry may compress well). */
const RATIO_CHECKED_FROM = 1024 * 1024;
/** .json entries tried as the archive, at most (the ZIP is refused past them). */
export const MAX_JSON_ENTRIES_TRIED = 100;
/** .json entry names kept to tell the caller what the ZIP held. */
const NAMES_KEPT = 10;

/** Whether these first bytes of an upload are those of a ZIP (a first entry, or an empty archive). */
export function startsLikeZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(LOCAL_HEADER) || head.subarray(0, 4).equals(EMPTY_ARCHIVE);
}

/** The file a ChatGPT export keeps its conversations in. */
export function isConversationsJson(name: string): boolean {
  return basename(name).toLowerCase() === 'conversations.json';
}

/** The other JSON files of a ChatGPT export: never archives, though some look like one (feedback has `conversation_id` and `create_time`). */
const CHATGPT_SIDE_FILES = new Set([
  'user.json',
  'message_feedback.json',
  'model_comparisons.json',
  'shared_conversations.json',
]);

/** A .json file at the root or in one folder, not a macOS resource fork or a ChatGPT side file: possibly the archive. */
function isCandidate(name: string): boolean {
  const parts = name.split('/');
  const base = parts[parts.length - 1].toLowerCase();
  if (parts.length > 2 || !base.endsWith('.json') || base.startsWith('._') || parts[0] === '__MACOSX') return false;
  return !CHATGPT_SIDE_FILES.has(base);
}

function basename(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** An entry decompressed to its end, its last bytes held until its data descriptor is read. */
interface Awaiting {
  candidate: Candidate;
  last: Buffer;
  /** Compressed bytes read when its data ended. */
  compressed: number;
  /** The earliest offset in the upload where its descriptor may begin. */
  from: number;
}

interface ZipJsonEntry {
  readonly name: string;
  /** The entry's decompressed bytes, as they come; stopping early gives the entry up. */
  readonly data: AsyncGenerator<Buffer>;
}

interface Candidate {
  name: string;
  queue: Buffer[];
  done: boolean;
  /** Given up (not the archive, or failed): its further bytes are dropped as they are decompressed. */
  dropped: boolean;
  unzipped: number;
  /** Compressed bytes read when the entry began. */
  compressedAtStart: number;
  failure: Error | null;
  /** CRC-32 of the bytes decompressed so far. */
  crc: number;
  /** The CRC-32 its local header gives, `descriptor` when it comes after the data, null when the header was not found (not checked). */
  expectedCrc: number | 'descriptor' | null;
}

/**
 * A ZIP upload read as a stream with fflate's `Unzip`: the .json entries that may be the archive are
 * handed out in file order, each decompressed only as fast as its reader asks; every other entry
 * (images, HTML) passes without being decompressed or kept. Memory is one slice of compressed input
 * and what it expands to, never the archive or an entry. An entry decompressing to more than
 * `maxUnzippedBytes` fails with UnzippedTooLargeError; an encrypted entry, or one compressed other
 * than stored or deflate, with ZipUnsupportedError; damaged data with ZipInvalidError, and so does
 * an entry whose CRC-32 (in its local header, or in the data descriptor after its data) is not that
 * of the bytes it decompressed to, checked as its last bytes come, before they are handed out.
 */
export class ZipEntryReader {
  /** The first candidate .json entries seen, for the error that says none was an archive. */
  readonly jsonNames: string[] = [];
  /** Candidate .json entries seen. */
  private jsonEntries = 0;
  /** Compressed bytes handed to the decompressor so far. */
  private compressed = 0;
  private readonly unzip: Unzip;
  private readonly input: AsyncIterator<Buffer>;
  private readonly slices: Buffer[] = [];
  /** The last slices pushed: the local header of the entry just announced is in them (fflate does not expose its flags). */
  private readonly recent: Buffer[] = [];
  private readonly waiting: Candidate[] = [];
  private current: Candidate | null = null;
  private ended = false;
  private failure: Error | null = null;
  /** Read by the deflate decoder when fflate creates it for the entry being started. */
  private decompressNext = false;
  /** An entry decompressed to its end whose CRC-32 is in the data descriptor after it: checked once those bytes are read. */
  private awaitingDescriptor: Awaiting | null = null;
  /** Where the slice being decompressed begins in the upload (compressed bytes before it). */
  private sliceStart = 0;

  constructor(
    source: AsyncIterable<Buffer>,
    private readonly maxUnzippedBytes: number,
    private readonly turns?: EventLoopTurns,
  ) {
    this.input = source[Symbol.asyncIterator]();
    this.unzip = new Unzip((file) => this.onFile(file));
    this.registerDecoders();
  }

  /** The next .json entry that may be the archive (the one before it is given up), or null at the end of the ZIP. */
  async next(): Promise<ZipJsonEntry | null> {
    if (this.current) this.drop(this.current);
    while (this.waiting.length === 0) {
      if (!(await this.pump())) return null;
    }
    const candidate = this.waiting.shift()!;
    this.current = candidate;
    if (candidate.failure) throw candidate.failure;
    return { name: candidate.name, data: this.dataOf(candidate) };
  }

  /** Reads the rest of the upload without decompressing it: the client is answered once it has sent everything. */
  async drain(): Promise<void> {
    this.slices.length = 0;
    while (!this.ended) {
      const next = await this.input.next();
      if (next.done) this.ended = true;
    }
  }

  /** Stops reading the upload (an error answer closes the connection). */
  async close(): Promise<void> {
    if (!this.ended) await this.input.return?.();
  }

  private async *dataOf(candidate: Candidate): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        if (candidate.failure) throw candidate.failure;
        const chunk = candidate.queue.shift();
        if (chunk) yield chunk;
        else if (candidate.done) return;
        else if (!(await this.pump())) throw new ZipInvalidError(`it ends inside ${JSON.stringify(candidate.name)}`);
      }
    } finally {
      if (!candidate.done) this.drop(candidate);
    }
  }

  /** Decompresses one more slice; false at the end of the upload. */
  private async pump(): Promise<boolean> {
    if (this.failure) throw this.failure;
    // Each slice is bounded work; a run of them (entries passed over, a fast reader) lets other requests in.
    await this.turns?.give();
    if (this.slices.length === 0) {
      if (this.ended) return false;
      const next = await this.input.next();
      if (next.done) {
        this.ended = true;
        // fflate checks on the last push that no entry was cut short.
        this.push(EMPTY, true);
        return true;
      }
      for (let at = 0; at < next.value.length; at += SLICE_BYTES)
        this.slices.push(next.value.subarray(at, at + SLICE_BYTES));
    }
    this.push(this.slices.shift()!, false);
    return true;
  }

  private push(slice: Uint8Array, final: boolean): void {
    this.recent.push(Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength));
    // A local header is at most 30 + 2 x 65535 bytes; keep a little more than that.
    while (this.recent.length > 1 + Math.ceil((30 + 2 * 65535) / SLICE_BYTES)) this.recent.shift();
    this.sliceStart = this.compressed;
    this.compressed += slice.byteLength;
    try {
      this.unzip.push(slice, final);
    } catch (error) {
      this.failure ??= new ZipInvalidError((error as Error).message);
    }
    if (this.failure) throw this.failure;
    if (this.awaitingDescriptor) this.checkDescriptor(this.awaitingDescriptor, final);
  }

  /** The entry's data ended: its CRC-32 is checked before its last bytes are handed out. */
  private finishEntry(candidate: Candidate, last: Buffer): void {
    if (candidate.expectedCrc === 'descriptor') {
      // fflate carries up to 4 bytes of the slice before into its search for the descriptor.
      this.awaitingDescriptor = { candidate, last, compressed: this.compressed, from: this.sliceStart - 4 };
      return;
    }
    if (candidate.expectedCrc !== null && candidate.crc !== candidate.expectedCrc) return this.crcMismatch(candidate);
    if (last.length > 0) candidate.queue.push(last);
    candidate.done = true;
  }

  /**
   * Looks for the entry's data descriptor (its signature, the CRC-32 computed, then the size it
   * decompressed to) in the last bytes read. The data ends where fflate found the descriptor, in the
   * slice just pushed, so it is read whole once DESCRIPTOR_BYTES more came; not found then (or at
   * the end of the upload), the entry is damaged.
   */
  private checkDescriptor(awaiting: Awaiting, final: boolean): void {
    const { candidate } = awaiting;
    if (candidate.dropped) {
      this.awaitingDescriptor = null;
      return;
    }
    const recent = Buffer.concat(this.recent);
    const size = candidate.unzipped;
    let found = false;
    // Only from where this entry's data may end: an earlier entry's descriptor may hold the same values.
    const from = Math.max(0, awaiting.from - (this.compressed - recent.length));
    for (let at = recent.indexOf(DESCRIPTOR, from); at >= 0 && !found; at = recent.indexOf(DESCRIPTOR, at + 1)) {
      if (at + 16 > recent.length || recent.readUInt32LE(at + 4) !== candidate.crc >>> 0) continue;
      // Sizes of 4 bytes, or of 8 (ZIP64).
      found =
        recent.readUInt32LE(at + 12) === size % 2 ** 32 ||
        (at + 24 <= recent.length && Number(recent.readBigUInt64LE(at + 16)) === size);
    }
    if (!found && !final && this.compressed < awaiting.compressed + DESCRIPTOR_BYTES) return;
    this.awaitingDescriptor = null;
    if (!found) return this.crcMismatch(candidate);
    if (awaiting.last.length > 0) candidate.queue.push(awaiting.last);
    candidate.done = true;
  }

  private crcMismatch(candidate: Candidate): void {
    candidate.failure = new ZipInvalidError(
      `${JSON.stringify(candidate.name)}: its CRC-32 does not match its data (the entry is damaged)`,
    );
    this.drop(candidate);
  }

  private onFile(file: UnzipFile): void {
    const name = file.name;
    if (name.endsWith('/') || !isCandidate(name)) return this.start(file, null);
    if (++this.jsonEntries > MAX_JSON_ENTRIES_TRIED) {
      this.failure ??= new ZipInvalidError(
        `it holds more than ${MAX_JSON_ENTRIES_TRIED} .json files, none of them read as an archive`,
      );
      return this.start(file, null);
    }
    if (this.jsonNames.length < NAMES_KEPT) this.jsonNames.push(name);
    // The slice that announced the entry counts whole: its data may begin anywhere in it.
    const compressedAtStart = this.compressed - SLICE_BYTES;
    const header = this.headerOf(name, file.compression);
    const flags = header.flags;
    const expectedCrc = header.crc === null ? null : flags & DESCRIPTOR_FLAG ? 'descriptor' : header.crc;
    const candidate: Candidate = {
      name,
      queue: [],
      done: false,
      dropped: false,
      unzipped: 0,
      compressedAtStart,
      failure: null,
      crc: 0,
      expectedCrc,
    };
    this.waiting.push(candidate);
    if (flags & ENCRYPTED_FLAG || file.compression === AES)
      candidate.failure = new ZipUnsupportedError(name, 'is encrypted');
    else if (file.compression !== STORED && file.compression !== DEFLATE)
      candidate.failure = new ZipUnsupportedError(name, `is compressed with method ${file.compression}`);
    if (candidate.failure) return this.start(file, null);
    this.start(file, candidate);
  }

  /** Starts an entry: fflate would otherwise keep every chunk of an entry nobody started. */
  private start(file: UnzipFile, candidate: Candidate | null): void {
    file.ondata = (error, data, final) => {
      if (!candidate || candidate.dropped) return;
      if (error) {
        candidate.failure = new ZipInvalidError(`${JSON.stringify(candidate.name)}: ${error.message}`);
        return this.drop(candidate);
      }
      candidate.unzipped += data.length;
      if (candidate.unzipped > this.maxUnzippedBytes) {
        candidate.failure = new UnzippedTooLargeError(this.maxUnzippedBytes);
        return this.drop(candidate);
      }
      const compressed = this.compressed - candidate.compressedAtStart;
      if (candidate.unzipped > RATIO_CHECKED_FROM && candidate.unzipped > MAX_UNZIPPED_RATIO * compressed) {
        candidate.failure = new UnzippedTooLargeError(this.maxUnzippedBytes, {
          unzipped: candidate.unzipped,
          compressed,
          max: MAX_UNZIPPED_RATIO,
        });
        return this.drop(candidate);
      }
      const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      if (chunk.length > 0) candidate.crc = crc32(chunk, candidate.crc);
      if (final) return this.finishEntry(candidate, chunk);
      if (chunk.length > 0) candidate.queue.push(chunk);
    };
    this.decompressNext = candidate !== null;
    try {
      file.start();
    } catch {
      // fflate has no decoder for a method past those registered: the rest of the ZIP cannot be found.
      this.failure ??= new ZipUnsupportedError(file.name, `is compressed with method ${file.compression}`);
    }
  }

  private drop(candidate: Candidate): void {
    candidate.dropped = true;
    candidate.queue = [];
  }

  /** The general-purpose flags and CRC-32 of the entry just announced, read from its local header in the last input. */
  private headerOf(name: string, method: number): { flags: number; crc: number | null } {
    const names = [Buffer.from(name, 'utf8'), Buffer.from(name, 'latin1')];
    for (let k = 1; k <= this.recent.length; k++) {
      const buf = Buffer.concat(this.recent.slice(-k));
      for (let at = buf.lastIndexOf(LOCAL_HEADER); at >= 0; at = at > 0 ? buf.lastIndexOf(LOCAL_HEADER, at - 1) : -1) {
        if (at + 30 > buf.length || buf.readUInt16LE(at + 8) !== method) continue;
        const flags = buf.readUInt16LE(at + 6);
        const length = buf.readUInt16LE(at + 26);
        const raw = buf.subarray(at + 30, at + 30 + length);
        if (raw.equals(names[flags & UTF8_NAME_FLAG ? 0 : 1]) || names.some((n) => raw.equals(n)))
          return { flags, crc: buf.readUInt32LE(at + 14) };
      }
    }
    return { flags: 0, crc: null };
  }

  /**
   * Deflate is decompressed only for the entries that may be the archive; every other method is
   * passed over unread, so that fflate can find the next entry (a candidate in one of them fails above).
   */
  private registerDecoders(): void {
    const reader = this;
    class Deflated {
      static readonly compression = DEFLATE;
      ondata!: (error: Error | null, data: Uint8Array, final: boolean) => void;
      private readonly inflate: Inflate | null;
      constructor() {
        this.inflate = reader.decompressNext ? new Inflate((data, final) => this.ondata(null, data, final)) : null;
      }
      push(chunk: Uint8Array, final: boolean): void {
        if (!this.inflate) return;
        try {
          this.inflate.push(chunk, final);
        } catch (error) {
          this.ondata(error as Error, EMPTY, final);
        }
      }
    }
    this.unzip.register(Deflated);
    for (let method = 1; method < 256; method++) {
      if (method === DEFLATE) continue;
      this.unzip.register(
        class {
          static readonly compression = method;
          ondata!: (error: Error | null, data: Uint8Array, final: boolean) => void;
          push(): void {}
        },
      );
    }
  }
}
