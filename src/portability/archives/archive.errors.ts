import { DomainError } from '../../common/domain-error.js';

/** A conversation stored before an archive went wrong: the import is not undone, the caller is told. */
interface StoredBeforeError {
  readonly id: string;
  readonly sourceId: string;
  readonly title: string;
}

/** Errors about an archive as a whole. A bad conversation inside a good archive is skipped, not thrown. */
export abstract class ArchiveError extends DomainError {
  /** Conversations already stored when the error came (each was its own transaction). */
  imported: readonly StoredBeforeError[] = [];
}

/** The upload is none of the formats we read; the message names what was expected. */
export class UnknownArchiveFormatError extends ArchiveError {
  readonly code = 'archive_format_unknown';
  constructor(found: string) {
    super(
      `Not an archive this service can import (${found}). Expected a ChatGPT conversations.json ` +
        `(an array of conversations with "mapping"), an Open WebUI export (an array of chats with ` +
        `"chat.history"), or a chat-memory account export (an object with "format": "chat-memory.account")`,
    );
  }
}

/** The file is not well-formed JSON where the reader needed it to be (outside any single conversation). */
export class MalformedArchiveError extends ArchiveError {
  readonly code = 'archive_malformed';
  constructor(
    detail: string,
    readonly offset: number,
  ) {
    super(`The archive is not valid JSON: ${detail} (at byte ${offset})`);
  }
}

/** A ZIP that cannot be read: truncated, damaged compressed data, or bytes that are not a ZIP at all. */
export class ZipInvalidError extends ArchiveError {
  readonly code = 'archive_zip_invalid';
  constructor(detail: string) {
    super(`The ZIP archive cannot be read: ${detail}`);
  }
}

/** The entry to import is encrypted or compressed with a method other than stored or deflate. */
export class ZipUnsupportedError extends ArchiveError {
  readonly code = 'archive_zip_unsupported';
  constructor(entry: string, detail: string) {
    super(
      `The ZIP entry ${JSON.stringify(entry)} ${detail}; only unencrypted entries, stored or compressed with deflate, are read`,
    );
  }
}

/** A ZIP holding none of the files we read. */
export class ZipWithoutArchiveError extends ArchiveError {
  readonly code = 'archive_zip_without_conversations';
  constructor(jsonEntries: readonly string[]) {
    const seen =
      jsonEntries.length === 0
        ? 'it has no .json file'
        : `its .json files are not archives: ${jsonEntries
            .slice(0, 10)
            .map((n) => JSON.stringify(n))
            .join(', ')}`;
    super(
      `The ZIP archive holds no conversations (${seen}). Expected conversations.json (a ChatGPT export, at the root or in one ` +
        'folder) or a single .json file that is an Open WebUI export or a chat-memory account export',
    );
  }
}

/** The entry decompresses to more than the bound, or far more than its compressed size (a zip bomb, or an archive too large to import). */
export class UnzippedTooLargeError extends ArchiveError {
  readonly code = 'archive_unzipped_too_large';
  constructor(
    readonly maxBytes: number,
    ratio?: { unzipped: number; compressed: number; max: number },
  ) {
    super(
      ratio
        ? `The ZIP entry decompresses to more than ${ratio.max} times its compressed size (${ratio.unzipped} bytes from ${ratio.compressed}): ` +
            'no archive of conversations compresses that well'
        : `The ZIP entry decompresses to more than ${maxBytes} bytes (IMPORT_UNZIPPED_LIMIT_BYTES)`,
    );
  }
}

/** More conversations (valid or not) than one import reads: the work of an import is bounded. */
export class TooManyConversationsError extends ArchiveError {
  readonly code = 'archive_too_many_conversations';
  constructor(readonly max: number) {
    super(`The archive holds more than ${max} conversations; import it in parts of at most ${max}`);
  }
}

/** The upload went on past the largest archive accepted (a body without Content-Length is counted as it comes). */
export class ArchiveTooLargeError extends ArchiveError {
  readonly code = 'archive_too_large';
  constructor(readonly maxBytes: number) {
    super(`The archive is larger than ${maxBytes} bytes (IMPORT_BODY_LIMIT_BYTES)`);
  }
}
