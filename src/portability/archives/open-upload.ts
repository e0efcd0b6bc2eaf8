import { UnknownArchiveFormatError, ZipInvalidError, ZipWithoutArchiveError } from './archive.errors.js';
import { type OpenedArchive, readArchive, type ReadArchiveOptions } from './read-archive.js';
import { isConversationsJson, startsLikeZip, ZipEntryReader } from './zip-entries.js';

interface OpenUploadOptions extends ReadArchiveOptions {
  /** The client said it sends a ZIP (Content-Type application/zip): anything else is refused as not one. */
  declaredZip: boolean;
  maxUnzippedBytes: number;
}

interface OpenedUpload {
  opened: OpenedArchive;
  /** The ZIP entry read, if the upload was a ZIP. */
  entry: string | null;
  /** Call once the archive was read to its end: reads what the upload has after the entry. */
  finish(): Promise<void>;
  /** Call when the import failed: stops reading the upload. */
  close(): Promise<void>;
}

/**
 * An upload as an archive: JSON as it is, or a ZIP (told by its first bytes, whatever the declared
 * type) whose conversations.json, or single archive .json, is read as it is decompressed. In a ZIP
 * the .json entries are tried in file order: one whose content is none of the formats is passed
 * over, unless it is named conversations.json; none at all is ZipWithoutArchiveError.
 */
export async function openUpload(source: AsyncIterable<Buffer>, options: OpenUploadOptions): Promise<OpenedUpload> {
  const input = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  while (size < 4) {
    const next = await input.next();
    if (next.done) break;
    head.push(next.value);
    size += next.value.length;
  }
  const replayed = replay(head, input);
  const zip = startsLikeZip(Buffer.concat(head));
  if (!zip && options.declaredZip) {
    await input.return?.();
    throw new ZipInvalidError('it does not start with a ZIP entry (sent as application/zip)');
  }
  if (!zip)
    return {
      opened: await readArchive(replayed, options),
      entry: null,
      finish: async () => {},
      close: async () => void (await input.return?.()),
    };

  const reader = new ZipEntryReader(replayed, options.maxUnzippedBytes, options.turns);
  try {
    for (;;) {
      const entry = await reader.next();
      if (!entry) throw new ZipWithoutArchiveError(reader.jsonNames);
      try {
        return {
          opened: await readArchive(entry.data, options),
          entry: entry.name,
          finish: () => reader.drain(),
          close: () => reader.close(),
        };
      } catch (error) {
        if (error instanceof UnknownArchiveFormatError && !isConversationsJson(entry.name)) continue;
        throw error;
      }
    }
  } catch (error) {
    await reader.close();
    throw error;
  }
}

async function* replay(head: Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield* head;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rest.return?.();
  }
}
