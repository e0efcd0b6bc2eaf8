import { TooManyConversationsError, UnknownArchiveFormatError } from './archive.errors.js';
import {
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveReadLimits,
  type ArchiveSource,
  DEFAULT_ARCHIVE_LIMITS,
  type SkippedConversation,
} from './archive.types.js';
import { isObject, parseArchiveJson } from './archive-values.js';
import { looksLikeChatGpt, readChatGptConversation } from './chatgpt-reader.js';
import { type ArrayElement, splitJsonArray } from './json-array-splitter.js';
import { EventLoopTurns } from './event-loop-turns.js';
import { keysOfHead } from './json-head-keys.js';
import { looksLikeOpenWebUi, readOpenWebUiChat } from './open-webui-reader.js';
import { type OwnExportPart, readOwnExport } from './read-own-export.js';
/** Elements looked at to tell the format before giving up (a damaged first entry should not hide the rest). */
const DETECTION_LOOKAHEAD = 10;

export type OpenedArchive =
  /** Our own export, a part at a time (its conversations for our conversation importer). */
  | { format: 'chat-memory'; parts: AsyncGenerator<OwnExportPart> }
  /** Another tool's archive: conversations one at a time, in file order. */
  | { format: ArchiveSource; entries: AsyncGenerator<ArchiveEntry> }
  /** An empty array: nothing to import, whatever tool wrote it. */
  | { format: 'empty'; entries: AsyncGenerator<ArchiveEntry> };

export interface ReadArchiveOptions {
  limits?: Partial<ArchiveReadLimits>;
  /** Shared by everything one import reads, so that its turns are given by time, whatever reads. */
  turns?: EventLoopTurns;
}

type Chunk = Buffer | Uint8Array | string;

const READERS: Record<ArchiveSource, (raw: unknown, index: number, limits: ArchiveLimits) => ArchiveEntry> = {
  chatgpt: readChatGptConversation,
  'open-webui': readOpenWebUiChat,
};

/**
 * Tells from the content which archive this is, then reads it one conversation at a time: memory is
 * one conversation (at most `maxConversationBytes` of JSON), never the file, and the event loop gets a
 * turn between conversations. Throws UnknownArchiveFormatError or MalformedArchiveError when the
 * upload as a whole is wrong; a bad conversation is an entry of kind `skipped`. The entries iterator
 * throws MalformedArchiveError if the file breaks off later: the caller decides about what was read.
 */
export async function readArchive(
  source: AsyncIterable<Chunk>,
  options: ReadArchiveOptions = {},
): Promise<OpenedArchive> {
  const limits: ArchiveReadLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
  const turns = options.turns ?? new EventLoopTurns();
  const input = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let first = -1;
  let offset = 0;
  while (first < 0) {
    const next = await input.next();
    if (next.done)
      throw new UnknownArchiveFormatError(head.length === 0 ? 'the file is empty' : 'the file holds only spaces');
    const chunk = toBuffer(next.value);
    const at = offset;
    first = firstSignificantByte(chunk, offset);
    offset += chunk.length;
    // Leading spaces past a byte-order mark's bytes are dropped, not kept: a ZIP entry of nothing but spaces is small to send.
    head.push(first < 0 && at >= BOM.length ? EMPTY_CHUNK : chunk);
  }
  const replayed = replay(head, input);
  const byte = String.fromCharCode(head[head.length - 1][first]);
  if (byte === '{') return { format: 'chat-memory', parts: await readOwnExport(replayed, limits, turns) };
  if (byte !== '[')
    throw new UnknownArchiveFormatError(`it does not start with "[" or "{" but with ${JSON.stringify(byte)}`);

  const elements = splitJsonArray(replayed, limits.maxConversationBytes);
  const pending: SkippedConversation[] = [];
  for (let looked = 0; looked < DETECTION_LOOKAHEAD; looked++) {
    const next = await elements.next();
    if (next.done) {
      if (looked === 0) return { format: 'empty', entries: (async function* () {})() };
      break;
    }
    const element = next.value;
    if ('oversized' in element) {
      pending.push(oversizedSkip(element, limits));
      // Too large to read, but its first keys say which tool wrote it: the file need not hold a smaller one.
      const format = formatOf(keysOfHead(element.head));
      if (format) return { format, entries: entriesOf(format, pending, null, elements, limits, turns) };
      continue;
    }
    let value: unknown;
    try {
      value = parseArchiveJson(element.json);
    } catch (error) {
      pending.push({
        index: element.index,
        sourceId: null,
        title: null,
        reason: `not valid JSON: ${(error as Error).message}`,
      });
      continue;
    }
    const format = formatOf(value);
    if (format === null) {
      pending.push({
        index: element.index,
        sourceId: null,
        title: null,
        reason: 'neither a ChatGPT conversation nor an Open WebUI chat',
      });
      continue;
    }
    return { format, entries: entriesOf(format, pending, { index: element.index, value }, elements, limits, turns) };
  }
  await elements.return(undefined);
  throw new UnknownArchiveFormatError(
    `an array whose first ${pending.length} elements are neither ChatGPT conversations (with "mapping") nor Open WebUI chats (with "chat.history")`,
  );
}

function formatOf(value: unknown): ArchiveSource | null {
  if (!isObject(value)) return null;
  return looksLikeChatGpt(value) ? 'chatgpt' : looksLikeOpenWebUi(value) ? 'open-webui' : null;
}

async function* entriesOf(
  format: ArchiveSource,
  pending: SkippedConversation[],
  first: { index: number; value: unknown } | null,
  elements: AsyncGenerator<ArrayElement>,
  limits: ArchiveReadLimits,
  turns: EventLoopTurns,
): AsyncGenerator<ArchiveEntry> {
  const read = READERS[format];
  try {
    for (const skipped of pending) yield { kind: 'skipped', skipped };
    if (first) yield read(first.value, first.index, limits);
    for await (const element of elements) {
      // Other requests get the event loop between two conversations, once a slice of work went by.
      await turns.give();
      if (element.index >= limits.maxConversations) throw new TooManyConversationsError(limits.maxConversations);
      yield readElement(element, read, limits);
    }
  } finally {
    // A consumer that stops early closes the input behind it.
    await elements.return(undefined);
  }
}

function readElement(
  element: ArrayElement,
  read: (raw: unknown, index: number, limits: ArchiveLimits) => ArchiveEntry,
  limits: ArchiveLimits,
): ArchiveEntry {
  if ('oversized' in element) return { kind: 'skipped', skipped: oversizedSkip(element, limits) };
  let value: unknown;
  try {
    value = parseArchiveJson(element.json);
  } catch (error) {
    return {
      kind: 'skipped',
      skipped: {
        index: element.index,
        sourceId: null,
        title: null,
        reason: `not valid JSON: ${(error as Error).message}`,
      },
    };
  }
  return read(value, element.index, limits);
}

function oversizedSkip(
  element: Extract<ArrayElement, { oversized: true }>,
  limits: ArchiveLimits,
): SkippedConversation {
  const named = nameOf(element);
  return {
    index: element.index,
    ...named,
    reason: `larger than ${limits.maxConversationBytes} bytes (${element.bytes}): not read`,
  };
}

/**
 * Best effort at naming a conversation too large to parse from its first and last bytes: ChatGPT
 * writes `title` first and `conversation_id` last; Open WebUI starts with the chat's `id`.
 */
function nameOf(element: { head: string; tail: string }): { sourceId: string | null; title: string | null } {
  const pick = (text: string, key: RegExp, which: 'first' | 'last'): string | null => {
    let found: string | null = null;
    for (const match of text.matchAll(key)) {
      try {
        found = JSON.parse(match[1]) as string;
        if (which === 'first') break;
      } catch {
        // A string cut at the edge of the kept bytes.
      }
    }
    return found;
  };
  const value = '\\s*:\\s*("(?:[^"\\\\]|\\\\.){0,400}")';
  return {
    sourceId:
      pick(element.tail, new RegExp(`"conversation_id"${value}`, 'g'), 'last') ??
      pick(element.head, new RegExp(`^\\{\\s*"id"${value}`, 'g'), 'first'),
    title: pick(element.head.slice(0, 1024), new RegExp(`"title"${value}`, 'g'), 'first'),
  };
}

function toBuffer(chunk: Chunk): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

const BOM = [0xef, 0xbb, 0xbf];
const EMPTY_CHUNK = Buffer.alloc(0);

/** Index in `chunk` of the first byte that is neither space nor part of a leading byte-order mark. */
function firstSignificantByte(chunk: Buffer, offset: number): number {
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i];
    if (offset + i < 3 && b === BOM[offset + i]) continue;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return i;
  }
  return -1;
}

/** The chunks already read for detection, then the rest of the input. */
async function* replay(head: Buffer[], rest: AsyncIterator<Chunk>): AsyncGenerator<Buffer> {
  try {
    yield* head;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield toBuffer(next.value);
    }
  } finally {
    // A reader that stops early (an error, a client gone) closes the file or request behind it.
    await rest.return?.();
  }
}
